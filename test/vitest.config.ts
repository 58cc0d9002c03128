import { defineConfig } from 'vitest/config';

// End-to-end tests: each file starts its own real servers (emulator, Next.js, on free ports) and
// child processes. Two files at once: the Next.js file (its app and Chromium) runs beside the
// others, which together take about as long; more would only compete for the cores.
// `reliability/` is a separate package with its own config.
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.test.ts'],
    exclude: ['**/node_modules/**'],
    testTimeout: 120_000,
    hookTimeout: 240_000,
    maxWorkers: 2,
    reporters: ['default', ['json', { outputFile: '.vitest-report.json' }]],
  },
});

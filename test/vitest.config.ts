import { defineConfig } from 'vitest/config';

// End-to-end tests: each file starts real servers (emulator, Next.js) and child processes, so
// files run one after another. `reliability/` is a separate package with its own config.
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.test.ts'],
    exclude: ['**/node_modules/**'],
    testTimeout: 120_000,
    hookTimeout: 240_000,
    fileParallelism: false,
    reporters: ['default', ['json', { outputFile: '.vitest-report.json' }]],
  },
});

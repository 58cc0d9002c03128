import { defineConfig } from 'vitest/config';

// Each file starts an emulator and a runtime (workerd, edge-runtime, Bun, Deno, Chromium): files
// run one after another, on a 2-core machine.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    reporters: ['default', ['json', { outputFile: '.vitest-report.json' }]],
  },
});

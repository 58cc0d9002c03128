import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.e2e.test.ts'],
    exclude: ['**/node_modules/**', 'reliability/**'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    reporters: ['default', ['json', { outputFile: '.vitest-report.json' }]],
  },
});

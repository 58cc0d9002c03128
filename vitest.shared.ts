import { defineConfig } from 'vitest/config';

/** One vitest setup for every workspace package: a JSON report per package feeds the CI summary. */
export function packageTestConfig(
  options: { testTimeout?: number; setupFiles?: string[]; maxWorkers?: number } = {},
) {
  return defineConfig({
    test: {
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      testTimeout: options.testTimeout ?? 20_000,
      setupFiles: options.setupFiles ?? [],
      reporters: ['default', ['json', { outputFile: '.vitest-report.json' }]],
      pool: 'threads',
      maxWorkers: options.maxWorkers,
    },
  });
}

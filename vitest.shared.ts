import { defineConfig } from 'vitest/config';

/** One vitest setup for every workspace package: a JSON report per package feeds the CI summary. */
export function packageTestConfig(
  options: { testTimeout?: number; setupFiles?: string[]; maxWorkers?: number } = {},
) {
  return defineConfig({
    test: {
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      // Timeouts catch hangs, not slowness: with two suites at once on 2 cores (load ~40) a test
      // that takes 1 s alone can take 25.
      testTimeout: options.testTimeout ?? 60_000,
      hookTimeout: 60_000,
      setupFiles: options.setupFiles ?? [],
      reporters: ['default', ['json', { outputFile: '.vitest-report.json' }]],
      pool: 'threads',
      maxWorkers: options.maxWorkers,
    },
  });
}

import { configDefaults, defineConfig, type ViteUserConfig } from 'vitest/config';

/**
 * One vitest setup for every workspace package: a JSON report per package feeds the CI summary.
 *
 * Test files share their worker's module graph (`isolate: false`): each file re-importing `ai`,
 * `@langchain/core` and our packages was most of a unit suite's CPU (LangChain's 181 tests: 25 s
 * of CPU isolated, 5 s shared), and the whole script runs on 2 cores. `isolatedFiles` are the files
 * that do depend on a fresh module state (a module-level timer, a realm's mode): they run in a
 * project of their own, isolated.
 */
export function packageTestConfig(
  options: {
    testTimeout?: number;
    setupFiles?: string[];
    maxWorkers?: number;
    isolate?: boolean;
    isolatedFiles?: string[];
  } = {},
) {
  const include = ['src/**/*.test.ts', 'test/**/*.test.ts'];
  const isolatedFiles = options.isolatedFiles ?? [];
  const common = {
    // Timeouts catch hangs, not slowness: with two suites at once on 2 cores (load ~40) a test
    // that takes 1 s alone can take 25.
    testTimeout: options.testTimeout ?? 60_000,
    hookTimeout: 60_000,
    setupFiles: options.setupFiles ?? [],
    pool: 'threads' as const,
    maxWorkers: options.maxWorkers,
  };
  const reporters: NonNullable<ViteUserConfig['test']>['reporters'] = [
    'default',
    ['json', { outputFile: '.vitest-report.json' }],
  ];
  if (isolatedFiles.length === 0) {
    return defineConfig({
      test: { ...common, include, reporters, isolate: options.isolate ?? false },
    });
  }
  // Each project whole (no `extends`: it would merge the root's include into both).
  return defineConfig({
    test: {
      reporters,
      maxWorkers: options.maxWorkers,
      projects: [
        {
          test: {
            ...common,
            name: 'shared',
            include,
            exclude: [...configDefaults.exclude, ...isolatedFiles],
            isolate: false,
          },
        },
        { test: { ...common, name: 'isolated', include: isolatedFiles, isolate: true } },
      ],
    },
  });
}

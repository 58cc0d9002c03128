import { type ViteUserConfig } from 'vitest/config';
/**
 * One vitest setup for every workspace package: a JSON report per package feeds the CI summary.
 *
 * Test files share their worker's module graph (`isolate: false`): each file re-importing `ai`,
 * `@langchain/core` and our packages was most of a unit suite's CPU (LangChain's 181 tests: 25 s
 * of CPU isolated, 5 s shared), and the whole script runs on 2 cores. `isolatedFiles` are the files
 * that do depend on a fresh module state (a module-level timer, a realm's mode): they run in a
 * project of their own, isolated.
 */
export declare function packageTestConfig(options?: {
    testTimeout?: number;
    setupFiles?: string[];
    maxWorkers?: number;
    isolate?: boolean;
    isolatedFiles?: string[];
}): ViteUserConfig;

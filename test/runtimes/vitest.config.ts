import { defineConfig } from 'vitest/config';

// Each file starts its own emulator and runtime (workerd, edge-runtime, Bun, Deno, Chromium) and
// spends most of its time waiting on the emulator's scripted delays, so files run side by side:
// 3 at once keeps a 2-core machine busy without starving a runtime's timers.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    globalSetup: ['src/temporary-directory.ts'],
    // Hang guards, not speed limits: a runtime starts in seconds on an idle machine; beside the
    // whole suite on 2 cores, three workerd processes starting at once once took over 120 s.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    maxWorkers: 5,
    reporters: ['default', ['json', { outputFile: '.vitest-report.json' }]],
  },
});

import { packageTestConfig } from '../../vitest.shared.ts';

/** `pnpm test`: the bounded suite (fixed fuzz seed, 2 000-request load). */
// Two files at once (vitest's default on 2 cores is one): the fault matrix and the load test spend
// most of their time waiting on the emulator's scripted delays.
export default packageTestConfig({ testTimeout: 60_000, maxWorkers: 2 });

import { packageTestConfig } from '../../vitest.shared.ts';

/** `pnpm test`: the bounded suite (fixed fuzz seed, 500-call load, 1,000 hedged streams). */
// Two files at once (vitest's default on 2 cores is one): the fault matrix and the load test spend
// most of their time waiting on the emulator's scripted delays. The timeout catches hangs, not
// slowness: beside the whole suite on a busy 2-core machine, a fuzz property that takes 10 s alone
// took over 60 s.
export default packageTestConfig({ testTimeout: 300_000, maxWorkers: 2 });

import { packageTestConfig } from '../../vitest.shared.ts';

/** `pnpm test`: the bounded suite (fixed fuzz seed, 2 000-request load). */
export default packageTestConfig({ testTimeout: 60_000 });

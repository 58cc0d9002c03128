import { packageTestConfig } from '../../vitest.shared.ts';

/** `pnpm stress`: the same files with RELIABILITY_STRESS=1 (10× load, soak, ≥ 10 000 fuzz runs). */
export default packageTestConfig({ testTimeout: 900_000 });

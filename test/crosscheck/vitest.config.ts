import { packageTestConfig } from '../../vitest.shared.ts';

/** The dialect cross-check: every fixture through our surfaces and the anchors. */
export default packageTestConfig({ testTimeout: 60_000 });

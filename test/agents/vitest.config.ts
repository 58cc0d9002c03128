import { packageTestConfig } from '../../vitest.shared.ts';

/** Agent frameworks driven by our adapters against the emulator's HTTP server. */
export default packageTestConfig({ testTimeout: 60_000 });

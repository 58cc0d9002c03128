import { packageTestConfig } from '../../vitest.shared.ts';

/** Agent frameworks driven by our adapters against the emulator's HTTP server. */
// Isolated: the agent frameworks keep module-level state (tracing, registries) between runs.
export default packageTestConfig({ testTimeout: 60_000, isolate: true });

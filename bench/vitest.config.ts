import { packageTestConfig } from '../vitest.shared.ts';

// Bundling with esbuild takes a few seconds on a loaded machine.
export default packageTestConfig({ testTimeout: 120_000 });

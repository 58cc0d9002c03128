// Core's source bundled as an app's bundler would (ESM, code splitting, no Node built-ins) into a
// directory of a test's own, for tests whose cases run that bundle in fresh Node processes.
import { join } from 'node:path';
import { build } from 'tsup';

const root = join(import.meta.dirname, '..');

/** Bundles `entry` (names → paths inside core, e.g. `{ index: 'src/index.ts' }`) into `outDir`. */
export async function buildCoreSource(
  outDir: string,
  entry: Record<string, string>,
): Promise<void> {
  const inCore = Object.fromEntries(
    Object.entries(entry).map(([name, path]) => [name, join(root, path)]),
  );
  await build({
    entry: inCore,
    outDir,
    format: ['esm'],
    platform: 'neutral',
    target: 'es2022',
    splitting: true,
    dts: false,
    sourcemap: false,
    silent: true,
    config: false,
  });
}

import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';
import { emittedDeclarations } from '../../tsup.declarations';

// The version our requests' user agent names (src/shared/user-agent.ts).
const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

export default defineConfig({
  entry: ['src/index.ts', 'src/tools.ts', 'src/v6.ts'],
  format: ['esm', 'cjs'],
  dts: { entry: emittedDeclarations(['src/index.ts', 'src/tools.ts', 'src/v6.ts']) },
  clean: true,
  sourcemap: true,
  target: 'es2022',
  platform: 'neutral',
  define: { __PACKAGE_VERSION__: JSON.stringify(version) },
});

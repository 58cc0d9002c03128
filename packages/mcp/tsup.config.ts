import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';
import { emittedDeclarations } from '../../tsup.declarations';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

export default defineConfig([
  {
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    dts: { entry: emittedDeclarations(['src/index.ts']) },
    sourcemap: true,
    target: 'es2022',
    platform: 'node',
    define: { __PACKAGE_VERSION__: JSON.stringify(version) },
  },
  {
    // The `infergate-mcp` command (bin/infergate-mcp.js imports it): ESM only, top-level await.
    entry: { cli: 'src/cli.ts' },
    format: ['esm'],
    sourcemap: true,
    target: 'es2022',
    platform: 'node',
    define: { __PACKAGE_VERSION__: JSON.stringify(version) },
  },
]);

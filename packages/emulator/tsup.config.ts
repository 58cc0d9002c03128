import { defineConfig } from 'tsup';
import { emittedDeclarations } from '../../tsup.declarations';

export default defineConfig({
  entry: ['src/index.ts', 'src/msw.ts', 'src/fixtures.ts', 'src/cli.ts', 'src/demo.ts'],
  format: ['esm', 'cjs'],
  dts: { entry: emittedDeclarations(['src/index.ts', 'src/msw.ts', 'src/fixtures.ts']) },
  clean: true,
  sourcemap: true,
  target: 'es2022',
  platform: 'node',
});

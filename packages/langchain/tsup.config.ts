import { defineConfig } from 'tsup';
import { emittedDeclarations } from '../../tsup.declarations';

export default defineConfig({
  entry: ['src/index.ts', 'src/tools.ts', 'src/loaders.ts'],
  format: ['esm', 'cjs'],
  dts: { entry: emittedDeclarations(['src/index.ts', 'src/tools.ts', 'src/loaders.ts']) },
  clean: true,
  sourcemap: true,
  target: 'es2022',
  platform: 'neutral',
});

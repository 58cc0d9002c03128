import { defineConfig } from 'tsup';
import { emittedDeclarations } from '../../tsup.declarations';

// The test kit's entries live in src/testing/ and are named for their subpath (`./testing`,
// `./testing/redis`), hence the named entries.
const testing = { testing: 'src/testing/index.ts', 'testing-redis': 'src/testing/redis.ts' };

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    msw: 'src/msw.ts',
    fixtures: 'src/fixtures.ts',
    cli: 'src/cli.ts',
    demo: 'src/demo.ts',
    ...testing,
  },
  format: ['esm', 'cjs'],
  dts: {
    entry: {
      ...emittedDeclarations(['src/index.ts', 'src/msw.ts', 'src/fixtures.ts']),
      testing: '.dts/testing/index.d.ts',
      'testing-redis': '.dts/testing/redis.d.ts',
    },
  },
  clean: true,
  sourcemap: true,
  target: 'es2022',
  platform: 'node',
});

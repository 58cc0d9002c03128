import { defineConfig } from 'tsup';
import { emittedDeclarations } from '../../tsup.declarations';

const common = { target: 'es2022', platform: 'neutral' } as const;

// The build script empties dist/ first: the three builds run in parallel, so none may clean.
export default defineConfig([
  {
    ...common,
    entry: [
      'src/index.ts',
      'src/internal.ts',
      'src/internal-service-tools.ts',
      'src/internal-stream.ts',
      'src/otel.ts',
    ],
    format: ['esm', 'cjs'],
    dts: false,
    sourcemap: true,
  },
  // One declaration file per entry, each whole (no shared chunk with mangled names), so that
  // dist/index.d.ts reads as the public API and test/api-report.test.ts can compare it.
  ...[
    'src/index.ts',
    'src/internal.ts',
    'src/internal-service-tools.ts',
    'src/internal-stream.ts',
    'src/otel.ts',
  ].map((entry) => ({
    ...common,
    entry: [entry],
    format: ['esm', 'cjs'] as ('esm' | 'cjs')[],
    dts: { only: true, entry: emittedDeclarations([entry]) },
  })),
]);

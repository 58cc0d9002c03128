import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { here } from './bundle';

/**
 * A browser bundle of each adapter carries one zod: the adapter imports zod through the same
 * entry as its framework (`ai` / `@langchain/core` both import `zod/v4`), so the bundler resolves
 * them to the same files; with two entries (`zod` and `zod/v4` under zod 3.25, or two zod versions)
 * the bundle would carry two builds.
 */
async function browserBundle(specifier: string): Promise<Metafile> {
  const result = await build({
    stdin: { contents: `export * from '${specifier}';`, resolveDir: here('.'), loader: 'ts' },
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'esm',
    metafile: true,
    logLevel: 'silent',
  });
  return result.metafile;
}

const isZodFile = (path: string) => /(^|\/)node_modules\/zod\//.test(path);
/** Our packages' built files (the workspace links resolve to packages/<name>/dist). */
const isOurs = (path: string) => /(^|\/)packages\/(core|ai-sdk|langchain)\/dist\//.test(path);

interface ZodUse {
  importer: string;
  specifier: string;
  resolved: string;
}

function zodImports(metafile: Metafile): ZodUse[] {
  const uses: ZodUse[] = [];
  for (const [importer, input] of Object.entries(metafile.inputs)) {
    for (const entry of input.imports) {
      if (entry.original !== undefined && /^zod(\/|$)/.test(entry.original)) {
        uses.push({ importer, specifier: entry.original, resolved: entry.path });
      }
    }
  }
  return uses;
}

describe.each([
  ['@infergate/ai-sdk', 'ai'],
  ['@infergate/langchain', '@langchain/core'],
])('a browser bundle of %s', (adapter, framework) => {
  it('holds zod files of one zod package only', async () => {
    const metafile = await browserBundle(adapter);
    const packages = new Set(
      Object.keys(metafile.inputs)
        .filter(isZodFile)
        .map((path) => path.slice(0, path.lastIndexOf('node_modules/zod/'))),
    );
    expect(packages.size, [...packages].join('\n')).toBe(1);
  });

  it(`imports zod only through entries that ${framework} imports too (one build of zod)`, async () => {
    const uses = zodImports(await browserBundle(adapter));
    const ours = uses.filter((use) => isOurs(use.importer));
    const theirs = uses.filter((use) => !isOurs(use.importer) && !isZodFile(use.importer));
    // The service tools use core's JSON schemas, so an adapter may import no zod at all; whatever
    // it imports must be the framework's own zod files.
    const frameworkFiles = new Set(theirs.map((use) => use.resolved));
    const extra = ours.filter((use) => !frameworkFiles.has(use.resolved));
    expect(
      extra.map((use) => `${use.importer} imports '${use.specifier}' → ${use.resolved}`),
    ).toEqual([]);
  });
});

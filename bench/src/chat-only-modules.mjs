/**
 * What each chunk of B5's chat-only apps holds, module by module: the apps of
 * chat-only-bundles.mjs bundled with the same esbuild options, but from our packages' sources
 * (each `@infergate/*` entry resolved to the `src/` file of its `dist/` file), so that every module
 * is named by its source file. Prints, per app, each chunk (loaded at start, or lazily) with its
 * min+gzip size, the entries that reach it and the minified bytes of each module in it. esbuild
 * puts together the modules that the same entries reach (the app, and each `import()` target,
 * following static imports): a module that only some lazy parts import from start makes a chunk
 * of its own. Within ~150 B of B5's measure, which bundles the published files. Not a suite: a
 * tool to find what to move or cut.
 *
 *   node bench/src/chat-only-modules.mjs [ai-sdk|langchain]
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { CHAT_ONLY_APPS, chatOnlyBuildOptions } from './chat-only-bundles.mjs';

const BENCH_DIR = fileURLToPath(new URL('..', import.meta.url));
const PACKAGES_DIR = join(BENCH_DIR, '..', 'packages');

/** `@infergate/<name>[/<subpath>]` → its source file, read from the package's `exports`. */
const fromSources = {
  name: 'infergate-sources',
  setup(build) {
    build.onResolve({ filter: /^@infergate\// }, ({ path }) => {
      const [, name, subpath = ''] = /^@infergate\/([^/]+)(?:\/(.+))?$/.exec(path);
      const dir = join(PACKAGES_DIR, name);
      const { exports } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      const target = exports[subpath ? `./${subpath}` : '.']?.import?.default;
      if (!target) return { errors: [{ text: `${path}: no such entry` }] };
      return { path: join(dir, target.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts')) };
    });
  },
};

async function chunksOf(app) {
  const dir = mkdtempSync(join(BENCH_DIR, '.chat-only-modules-'));
  try {
    const entry = join(dir, 'app.mjs');
    writeFileSync(entry, app.source);
    const options = chatOnlyBuildOptions(entry, join(dir, 'out'));
    const result = await build({ ...options, plugins: [fromSources], target: 'es2022' });
    const outputs = result.metafile.outputs;
    const gzipOf = (path) => {
      const file = result.outputFiles.find((output) =>
        output.path.endsWith(path.slice(path.lastIndexOf('/'))),
      );
      return gzipSync(file.contents, { level: 9 }).length;
    };
    const atStart = new Set();
    const visit = (path) => {
      if (atStart.has(path)) return;
      atStart.add(path);
      for (const { path: next, kind } of outputs[path].imports)
        if (kind === 'import-statement' && outputs[next]) visit(next);
    };
    visit(Object.keys(outputs).find((path) => path.endsWith('/app.js')));
    const reachedBy = entriesReaching(result.metafile.inputs);
    return Object.keys(outputs)
      .filter((path) => path.endsWith('.js'))
      .map((path) => ({
        name: path.slice(path.lastIndexOf('/') + 1),
        start: atStart.has(path),
        gzip: gzipOf(path),
        reachedBy: reachedBy.get(Object.keys(outputs[path].inputs)[0]) ?? [],
        modules: Object.entries(outputs[path].inputs)
          .map(([input, { bytesInOutput }]) => [
            input.replace(/^(?:.*\/)?packages\//, ''),
            bytesInOutput,
          ])
          .filter(([input, bytes]) => bytes > 0 && !input.includes('.chat-only-modules-'))
          .sort((a, b) => b[1] - a[1]),
      }))
      .sort((a, b) => b.start - a.start || b.gzip - a.gzip);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Each input → the entries whose static imports reach it: the app (`app`) and each module the
 * bundle loads with `import()`, named by its file (`steered-chat`).
 */
function entriesReaching(inputs) {
  const name = (path) => path.slice(path.lastIndexOf('/') + 1).replace(/\.[cm]?[jt]s$/, '');
  const entries = Object.keys(inputs).filter((path) => path.endsWith('/app.mjs'));
  for (const { imports } of Object.values(inputs))
    for (const { path, kind } of imports)
      if (kind === 'dynamic-import' && inputs[path] && !entries.includes(path)) entries.push(path);
  const reached = new Map();
  for (const entry of entries) {
    const seen = new Set();
    const stack = [entry];
    while (stack.length > 0) {
      const path = stack.pop();
      if (seen.has(path) || !inputs[path]) continue;
      seen.add(path);
      reached.set(path, [...(reached.get(path) ?? []), name(entry)]);
      for (const { path: next, kind } of inputs[path].imports)
        if (kind === 'import-statement') stack.push(next);
    }
  }
  return reached;
}

const only = process.argv[2];
for (const app of CHAT_ONLY_APPS) {
  if (only && !app.name.startsWith(only)) continue;
  const chunks = await chunksOf(app);
  const sum = (list) => list.reduce((total, chunk) => total + chunk.gzip, 0);
  console.log(`\n${app.name}: ${chunks.length} chunks, ${sum(chunks)} B min+gzip each alone`);
  for (const chunk of chunks) {
    const by = chunk.reachedBy.join(', ');
    console.log(
      `  ${chunk.start ? 'start' : 'lazy '} ${chunk.name} ${chunk.gzip} B min+gzip (${by})`,
    );
    for (const [module, bytes] of chunk.modules)
      console.log(`    ${String(bytes).padStart(6)} ${module}`);
  }
}

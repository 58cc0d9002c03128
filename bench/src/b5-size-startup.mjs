/**
 * B5 — size and start-up. Each entry is bundled from its published ESM files with esbuild, the
 * framework packages left external (what a user's app already has); we report the gzip size of
 * the minified bundle and of the unminified one (the published code as shipped). Cold start is
 * the time of `await import(entry)` in a fresh Node process, sampled interleaved. The chat-only
 * rows bundle the smallest chat app per adapter (see chat-only-bundles.mjs), measured against
 * CHAT_ONLY_TARGET_BYTES.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import {
  ALL_CHUNKS_CEILING_BYTES,
  bundleChatOnlyApp,
  CHAT_ONLY_APPS,
  CHAT_ONLY_CEILING_BYTES,
  CHAT_ONLY_TARGET_BYTES,
  FIRST_CALL_CEILING_BYTES,
} from './chat-only-bundles.mjs';
import { fmtBytes, fmtRatio, log, median } from './harness.mjs';
import { check, target } from './results.mjs';

const BENCH_DIR = fileURLToPath(new URL('..', import.meta.url));
const AI_FRAMEWORK = ['ai', '@ai-sdk/provider', '@ai-sdk/provider-utils', 'zod', 'zod/*'];
const LC_FRAMEWORK = ['@langchain/core', '@langchain/core/*', 'zod', 'zod/*'];

const BUNDLES = [
  { name: '@infergate/core', entry: '@infergate/core', external: [] },
  { name: '@infergate/ai-sdk (core + ai-sdk)', entry: '@infergate/ai-sdk', external: AI_FRAMEWORK },
  { name: '@ai-sdk/openai-compatible', entry: '@ai-sdk/openai-compatible', external: AI_FRAMEWORK },
  {
    name: '@infergate/langchain (core + langchain)',
    entry: '@infergate/langchain',
    external: LC_FRAMEWORK,
  },
  {
    name: '@langchain/openai (with openai, js-tiktoken)',
    entry: '@langchain/openai',
    external: LC_FRAMEWORK,
  },
];

const IMPORTS = [
  ['@infergate/core', '@infergate/core'],
  ['@infergate/ai-sdk', '@infergate/ai-sdk'],
  ['@ai-sdk/openai-compatible', '@ai-sdk/openai-compatible'],
  ['ai (framework, for reference)', 'ai'],
  ['@infergate/langchain', '@infergate/langchain'],
  ['@langchain/openai', '@langchain/openai'],
  [
    '@langchain/core chat_models (framework, for reference)',
    '@langchain/core/language_models/chat_models',
  ],
];

async function bundleSize({ entry, external }, minify) {
  const result = await build({
    stdin: { contents: `export * from '${entry}';`, resolveDir: BENCH_DIR, loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    conditions: ['import'],
    external,
    minify,
    write: false,
    logLevel: 'silent',
    legalComments: 'none',
  });
  const bytes = result.outputFiles[0].contents;
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

async function coldImportMs(specifier) {
  const script = `const t = performance.now(); await import(${JSON.stringify(specifier)}); process.stdout.write(String(performance.now() - t));`;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--input-type=module', '-e', script],
    {
      cwd: BENCH_DIR,
    },
  );
  return Number(stdout);
}

export async function runB5({ quick }) {
  const sizes = {};
  for (const bundle of BUNDLES) {
    sizes[bundle.name] = {
      min: await bundleSize(bundle, true),
      full: await bundleSize(bundle, false),
    };
  }
  const chatOnly = {};
  for (const app of CHAT_ONLY_APPS) chatOnly[app.name] = await bundleChatOnlyApp(app);
  const samples = quick ? 5 : 15;
  const times = new Map(IMPORTS.map(([name]) => [name, []]));
  for (let i = 0; i < samples; i++) {
    for (const [name, specifier] of IMPORTS) times.get(name).push(await coldImportMs(specifier));
  }
  const importMs = Object.fromEntries([...times].map(([name, list]) => [name, median(list)]));
  log(`B5 sizes and ${samples} cold imports each done`);
  const sizeRows = BUNDLES.map(({ name }) => ({
    entry: name,
    'min+gzip': fmtBytes(sizes[name].min.gzip),
    minified: fmtBytes(sizes[name].min.raw),
    'unminified gzip': fmtBytes(sizes[name].full.gzip),
    unminified: fmtBytes(sizes[name].full.raw),
  }));
  const chatOnlyRows = CHAT_ONLY_APPS.map(({ name }) => ({
    app: name,
    'min+gzip (loaded at start)': fmtBytes(chatOnly[name].gzip),
    minified: fmtBytes(chatOnly[name].raw),
    'min+gzip (through the first call)': fmtBytes(chatOnly[name].firstCallGzip),
    'min+gzip (all chunks)': fmtBytes(chatOnly[name].allChunksGzip),
    chunks: chatOnly[name].chunks,
  }));
  const importRows = IMPORTS.map(([name]) => ({
    entry: name,
    'cold import (median)': `${importMs[name].toFixed(1)} ms`,
  }));
  const aiSize = sizes['@infergate/ai-sdk (core + ai-sdk)'].min.gzip;
  const lcSize = sizes['@infergate/langchain (core + langchain)'].min.gzip;
  const sizeVsAnchorAi = aiSize / sizes['@ai-sdk/openai-compatible'].min.gzip;
  const sizeVsAnchorLc = lcSize / sizes['@langchain/openai (with openai, js-tiktoken)'].min.gzip;
  const importVsAi = importMs['@infergate/ai-sdk'] / importMs['@ai-sdk/openai-compatible'];
  const importVsLc = importMs['@infergate/langchain'] / importMs['@langchain/openai'];
  return {
    sections: [
      {
        title: 'B5 bundle size (esbuild, ESM, framework packages external; gzip -9)',
        rows: sizeRows,
        note: `ours vs anchor (min+gzip): ai-sdk ${fmtRatio(sizeVsAnchorAi)}, langchain ${fmtRatio(sizeVsAnchorLc)}`,
      },
      {
        title:
          'B5 chat-only app bundles (our code only: ai, @ai-sdk/*, @langchain/*, zod external; esbuild ESM with code splitting; gzip -9)',
        rows: chatOnlyRows,
        note: `loaded at start: the entry chunk and its static imports; through the first call: with the chunk of its answer's reader when that is lazy (FIRST_CALL_CEILING_BYTES: ${Object.values(
          FIRST_CALL_CEILING_BYTES,
        )
          .map((bytes) => `${bytes.toLocaleString('en-US').replaceAll(',', ' ')} B`)
          .join(
            ' / ',
          )}); all chunks: with the lazily loaded chunks. The size test (test/chat-only-size.test.ts) fails above ${CHAT_ONLY_CEILING_BYTES.toLocaleString('en-US').replaceAll(',', ' ')} B loaded at start (CHAT_ONLY_CEILING_BYTES at this commit), and above ${Object.values(
          ALL_CHUNKS_CEILING_BYTES,
        )
          .map((bytes) => `${bytes.toLocaleString('en-US').replaceAll(',', ' ')} B`)
          .join(' / ')} for all chunks (ALL_CHUNKS_CEILING_BYTES, AI SDK / LangChain).`,
      },
      {
        title: `B5 cold import() in a fresh Node process (median of ${samples}, interleaved)`,
        rows: importRows,
        note: `ours vs anchor: ai-sdk ${fmtRatio(importVsAi)}, langchain ${fmtRatio(importVsLc)}`,
      },
    ],
    targets: CHAT_ONLY_APPS.map(({ name }) =>
      target(`B5.${name.split(' ')[0]}`, `${name}: our code loaded at start, min+gzip`, [
        check('size', chatOnly[name].gzip, '<=', CHAT_ONLY_TARGET_BYTES, 'bytes'),
      ]),
    ),
    parameters: { samples, ceilingBytes: CHAT_ONLY_CEILING_BYTES },
    data: { sizes, chatOnly, importMs },
  };
}

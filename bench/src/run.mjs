/**
 * The suite's entry point: `node --expose-gc src/run.mjs [--quick] [--only B1,B2] [--no-write]`.
 * Prints every table; a full run (not --quick, not --only) also writes the results into
 * ../BENCHMARKS.md between its result markers and into results/latest.json.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { renderMarkdown } from './report.mjs';

// Loaded when run: `--only B8` needs neither the adapters' builds nor the anchors.
const SUITES = {
  B1: () => import('./b1-chat-overhead.mjs').then((m) => m.runB1),
  B2: () => import('./b2-streaming.mjs').then((m) => m.runB2),
  B3: () => import('./b3-key-under-load.mjs').then((m) => m.runB3),
  B4: () => import('./b4-bulk-embeddings.mjs').then((m) => m.runB4),
  B5: () => import('./b5-size-startup.mjs').then((m) => m.runB5),
  B6: () => import('./b6-memory.mjs').then((m) => m.runB6),
  B8: () => import('./b8-fleet.mjs').then((m) => m.runB8),
  B8S: () => import('./b8s-serverless.mjs').then((m) => m.runB8s),
  B9: () => import('./b9-steering.mjs').then((m) => m.runB9),
};

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const onlyArg = args.find((a) => a.startsWith('--only'));
const only = onlyArg
  ? (onlyArg.includes('=') ? onlyArg.split('=')[1] : args[args.indexOf(onlyArg) + 1]).split(',')
  : Object.keys(SUITES);
const write = !args.includes('--no-write') && (args.includes('--write') || (!quick && !onlyArg));

if (typeof globalThis.gc !== 'function') {
  console.error('Run with node --expose-gc (the bench script does).');
  process.exit(2);
}

const root = fileURLToPath(new URL('../..', import.meta.url));
const benchDir = fileURLToPath(new URL('..', import.meta.url));

function versionOf(name) {
  try {
    return JSON.parse(readFileSync(`${benchDir}node_modules/${name}/package.json`, 'utf8')).version;
  } catch {
    return '?';
  }
}

function git(...gitArgs) {
  try {
    return execFileSync('git', gitArgs, { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    return '?';
  }
}

const machine = {
  date: new Date().toISOString(),
  node: process.version,
  cpu: `${os.cpus()[0]?.model ?? '?'} × ${os.cpus().length}`,
  memory: `${Math.round(os.totalmem() / 1024 ** 3)} GiB`,
  os: `${os.type()} ${os.release()} ${os.arch()}`,
  loadAverage: os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' '),
  commit: `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain', '--', 'packages').length > 0 ? ' (packages/ with uncommitted changes)' : ''}`,
  mode: quick ? 'quick' : 'full',
  versions: Object.fromEntries(
    [
      'ai',
      '@ai-sdk/openai-compatible',
      '@langchain/core',
      '@langchain/openai',
      'openai',
      'eventsource-parser',
      'esbuild',
    ].map((name) => [name, versionOf(name)]),
  ),
};

console.log(
  `infergate benchmarks (${machine.mode}) — Node ${machine.node}, ${machine.cpu}, load ${machine.loadAverage}`,
);
const results = {};
for (const id of only) {
  const load = SUITES[id.trim().toUpperCase()];
  if (!load) throw new Error(`unknown suite ${id}; known: ${Object.keys(SUITES).join(', ')}`);
  const run = await load();
  const started = performance.now();
  console.error(`${id}…`);
  const result = await run({ quick });
  results[id] = result;
  for (const section of result.sections) {
    console.log(`\n${section.title}`);
    console.table(section.rows);
    if (section.note) console.log(section.note);
  }
  console.error(`${id} took ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

console.log('\nTargets');
for (const result of Object.values(results)) {
  for (const t of result.targets) {
    console.log(`  ${t.met === undefined ? 'n/a   ' : t.met ? 'met   ' : 'MISSED'}  ${t.text}`);
  }
}

if (write) {
  const file = `${root}BENCHMARKS.md`;
  const start = '<!-- results:start -->';
  const end = '<!-- results:end -->';
  const current = readFileSync(file, 'utf8');
  const from = current.indexOf(start);
  const to = current.indexOf(end);
  if (from === -1 || to === -1)
    throw new Error(`BENCHMARKS.md lacks the ${start} / ${end} markers`);
  const body = renderMarkdown(machine, results);
  writeFileSync(file, `${current.slice(0, from + start.length)}\n${body}\n${current.slice(to)}`);
  mkdirSync(`${benchDir}results`, { recursive: true });
  const data = Object.fromEntries(
    Object.entries(results).map(([id, r]) => [id, { targets: r.targets, data: r.data }]),
  );
  writeFileSync(
    `${benchDir}results/latest.json`,
    `${JSON.stringify({ machine, results: data }, null, 2)}\n`,
  );
  console.log(`\nWrote BENCHMARKS.md and bench/results/latest.json`);
}

// Anchors may still retry failed calls in the background (B4 defaults): do not wait for them.
process.exit(0);

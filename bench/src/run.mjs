/**
 * The suite's entry point: `node --expose-gc src/run.mjs [--quick] [--only B1,B2] [--no-write]`.
 * Prints every table; a full run (not --quick, not --only) also writes the results into
 * ../BENCHMARKS.md between its result markers and into results/latest.json.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { runB1 } from './b1-chat-overhead.mjs';
import { runB2 } from './b2-streaming.mjs';
import { runB3 } from './b3-key-under-load.mjs';
import { runB4 } from './b4-bulk-embeddings.mjs';
import { runB5 } from './b5-size-startup.mjs';
import { runB6 } from './b6-memory.mjs';
import { runB8 } from './b8-fleet.mjs';
import { runB8s } from './b8s-serverless.mjs';
import { runB9 } from './b9-steering.mjs';
import { renderMarkdown } from './report.mjs';

const SUITES = {
  B1: runB1,
  B2: runB2,
  B3: runB3,
  B4: runB4,
  B5: runB5,
  B6: runB6,
  B8: runB8,
  B8S: runB8s,
  B9: runB9,
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
  const run = SUITES[id.trim().toUpperCase()];
  if (!run) throw new Error(`unknown suite ${id}; known: ${Object.keys(SUITES).join(', ')}`);
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

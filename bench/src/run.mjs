/**
 * The suite's entry point: `node --expose-gc src/run.mjs [--quick] [--only B1,B2] [--store]
 * [--no-write]`. Prints every table. A full run (not --quick, not --only) runs every suite of
 * suites.mjs, stores each one's result in results/<suite>.json and regenerates the results
 * section of ../BENCHMARKS.md from the stored results. `--only … --store` stores the suites it
 * ran (the page then shows them with their own date and commit); `--no-write` stores nothing.
 * Suites that need redis-server are skipped when it is missing; their stored results stay.
 */

import { execFileSync } from 'node:child_process';
import { writePage } from './page.mjs';
import { describeRun, readStoredResults } from './results.mjs';
import { printTargets, runSuite } from './runner.mjs';
import { findSuite, SUITES } from './suites.mjs';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const onlyArg = args.find((a) => a.startsWith('--only'));
const only = onlyArg
  ? (onlyArg.includes('=') ? onlyArg.split('=')[1] : args[args.indexOf(onlyArg) + 1]).split(',')
  : undefined;
const store = !quick && !args.includes('--no-write') && (!only || args.includes('--store'));

if (typeof globalThis.gc !== 'function') {
  console.error('Run with node --expose-gc (the bench script does).');
  process.exit(2);
}

const selected = (only ?? SUITES.map((s) => s.id)).map((id) => {
  const suite = findSuite(id);
  if (!suite) throw new Error(`unknown suite ${id}; known: ${SUITES.map((s) => s.id).join(', ')}`);
  return suite;
});

function hasRedisServer() {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const runInfo = describeRun(quick ? 'quick' : 'full');
const before = readStoredResults();
const kept = (id) =>
  before[id] ? `its stored result of ${before[id].measuredAt} stays` : 'nothing stored yet';
console.log(
  `infergate benchmarks (${runInfo.mode}) — Node ${runInfo.machine.node}, ${runInfo.machine.cpu}${store ? '; results stored in bench/results/' : ''}`,
);
const results = [];
const problems = [];
for (const suite of selected) {
  if (!suite.load) {
    console.error(`${suite.id}: planned, no suite yet (${kept(suite.id)})`);
    continue;
  }
  if (suite.needs === 'redis-server' && !hasRedisServer()) {
    const message = `${suite.id}: skipped, needs redis-server (bash scripts/ensure-redis.sh); ${kept(suite.id)}`;
    console.error(message);
    problems.push(message);
    continue;
  }
  console.error(`${suite.id}…`);
  const started = performance.now();
  try {
    const run = await suite.load();
    const { result } = await runSuite(suite.id, run, { options: { quick }, runInfo, store });
    results.push(result);
  } catch (error) {
    const message = `${suite.id} failed: ${error?.stack ?? error}`;
    console.error(message);
    problems.push(`${suite.id} failed (${kept(suite.id)})`);
  }
  console.error(`${suite.id} took ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

printTargets(results);

if (store) {
  writePage();
  console.log('\nWrote BENCHMARKS.md from bench/results/');
}
if (problems.length > 0) {
  console.error(`\n${problems.join('\n')}`);
}

// Anchors may still retry failed calls in the background (B4 defaults): do not wait for them.
process.exit(problems.some((p) => p.includes('failed')) ? 1 : 0);

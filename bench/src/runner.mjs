/**
 * Runs suites, prints their tables and, when asked, stores each one's result
 * (bench/results/<suite>.json) and regenerates BENCHMARKS.md's results section from the stored
 * results. Used by run.mjs (`pnpm bench`) and by the suites that can run on their own
 * (`node bench/src/b9-steering.mjs --store`).
 */
import { writePage } from './page.mjs';
import {
  describeMeasured,
  describeRun,
  makeStoredResult,
  statusOf,
  watchSuite,
  writeStoredResult,
} from './results.mjs';
import { findSuite } from './suites.mjs';

export function printResult(result) {
  for (const section of result.sections) {
    console.log(`\n${section.title}`);
    if (section.rows.length > 0) console.table(section.rows);
    if (section.note) console.log(section.note);
  }
}

export function printTargets(results) {
  console.log('\nTargets');
  for (const result of results) {
    for (const t of result.targets) {
      const status = statusOf(t.met);
      const label = status === 'met' ? 'met   ' : status.toUpperCase();
      console.log(`  ${label}  ${t.text}: ${describeMeasured(t)}`);
    }
  }
}

/**
 * Runs one suite (`run(options)` → `{ sections, targets, parameters, data }`), watching its
 * load, commit and duration; stores it when `store` and it measured something (a suite without
 * its server returns no tables: the stored result of an earlier run is kept).
 * Returns `{ result, stored }`.
 */
export async function runSuite(suiteId, run, { options, runInfo, store }) {
  const suite = findSuite(suiteId);
  const watch = watchSuite();
  const result = await run(options);
  const watched = watch.finish();
  printResult(result);
  const stored = store && result.sections.length > 0;
  if (stored) {
    writeStoredResult(
      makeStoredResult({ suite: suite.id, title: suite.title, run: runInfo, watched, result }),
    );
    console.error(`${suite.id}: stored bench/results/${suite.id}.json`);
  } else if (store) {
    console.error(`${suite.id}: nothing measured, nothing stored`);
  }
  return { result, stored };
}

/**
 * The command line of a suite run on its own: `--quick` (prints only), `--store` (stores the
 * result and regenerates the page; not with `--quick`, nor when `notStorable` says why not).
 */
export async function runStandalone(suiteId, run, { options = {}, notStorable } = {}) {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const wantsStore = args.includes('--store');
  const why = quick ? '--quick' : notStorable;
  if (wantsStore && why) console.error(`${suiteId}: not stored (${why})`);
  const runInfo = describeRun(quick ? 'quick' : 'full');
  const { result, stored } = await runSuite(suiteId, run, {
    options: { quick, ...options },
    runInfo,
    store: wantsStore && !why,
  });
  printTargets([result]);
  if (stored) {
    writePage();
    console.log('\nWrote BENCHMARKS.md from bench/results/');
  } else if (!wantsStore && !quick) {
    console.log('\nNot stored (--store stores it and regenerates BENCHMARKS.md).');
  }
  process.exit(0);
}

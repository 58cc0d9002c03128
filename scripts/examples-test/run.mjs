// The examples test: every examples/* folder is copied out of the repository, as a reader starting
// from it would (its files, without node_modules or build output), installed with npm from the
// packed tarballs (`npm install <tarballs>`: the tarballs stand for the registry's @infergate
// packages, everything else comes from the registry at the example's own versions), and run against
// the emulator's HTTP server: `npm run typecheck`, then `npm start` with INFERGATE_BASE_URL /
// INFERGATE_API_KEY set (and, for an example that starts its own emulator when they are unset,
// without them); the Next.js app is built (`npm run build`) and started (`npm start`), and its page
// and routes are asked. What each example must print is in expectations.mjs.
//
//   node scripts/examples-test/run.mjs [--tarballs DIR] [--jobs N] [--keep] [NAME…]
//
// --tarballs: the packed packages (default: INFERGATE_TARBALLS, set by scripts/test.sh after
// scripts/pack-tarballs.mjs; else pack them now; the packages must be built). --jobs:
// examples checked at once (default 3, or INFERGATE_EXAMPLES_TEST_JOBS: with 2, the six others ran
// one after another beside the Next.js app and ended after it; each mostly waits on npm and its
// processes). --keep: keep the copies
// (their directory is printed). NAME: only these examples (e.g. langchain-chain).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { deprecationChecker } from '../readme-test/deprecations.mjs';
import { packAll, publishedPackages } from '../readme-test/packages.mjs';
import { checkExample } from './check-example.mjs';
import { projectEnv } from './processes.mjs';

const root = new URL('../../', import.meta.url).pathname;
const started = Date.now();
const seconds = () => Math.round((Date.now() - started) / 1000);
const log = (line) => console.log(`examples-test [${seconds()}s]: ${line}`);

const { values, positionals } = parseArgs({
  options: {
    tarballs: { type: 'string' },
    jobs: { type: 'string', default: process.env.INFERGATE_EXAMPLES_TEST_JOBS ?? '3' },
    keep: { type: 'boolean', default: false },
  },
  allowPositionals: true,
  // scripts/test.sh hands its arguments to every task (they are vitest's): only example names
  // are ours.
  strict: false,
});

const all = readdirSync(join(root, 'examples'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();
const asked = positionals.filter((arg) => all.includes(arg));
// The Next.js app first: its build is the longest job.
const names = (asked.length > 0 ? asked : all).sort(
  (a, b) => Number(b === 'nextjs-chat') - Number(a === 'nextjs-chat'),
);

/** Runs `task` over `items`, at most `jobs` at once, keeping the results in order. */
async function pool(items, jobs, task) {
  const results = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, jobs) }, worker));
  return results;
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'infergate-examples-test-'));
  const given = values.tarballs ?? process.env.INFERGATE_TARBALLS;
  const packed = given === undefined ? undefined : resolve(given);
  const tarballDir = packed ?? join(work, 'tarballs');
  const packages = publishedPackages(root, tarballDir);
  if (packed === undefined) {
    packAll(packages, tarballDir);
    log(`packed ${[...packages.keys()].join(', ')}`);
  }
  const env = projectEnv();
  const deprecations = deprecationChecker(root, env);
  const context = { root, work, env, packages, log, deprecations };
  const results = await pool(names, Number(values.jobs), async (name) => {
    const result = await checkExample(name, context);
    log(`${name}: ${result.failures.length ? `${result.failures.length} failures` : 'ok'}`);
    return result;
  });
  deprecations.close();
  const failures = results.flatMap((result) =>
    result.failures.map((message) => `examples/${result.name}: ${message}`),
  );
  for (const failure of failures) console.log(`\n✗ ${failure}`);
  if (values.keep) log(`copies kept in ${work}`);
  else {
    // In the background, as the other tests do: nothing waits for node_modules to be deleted.
    spawn('rm', ['-rf', work], { detached: true, stdio: 'ignore' }).unref();
  }
  if (failures.length > 0) {
    log(`FAILED: ${failures.length} failures in ${names.length} examples`);
    process.exit(1);
  }
  log(`ok: ${names.length} examples copied out, installed from the tarballs with npm and run`);
  // Read by scripts/test-summary.mjs (the whole run only).
  if (asked.length === 0)
    writeFileSync(
      join(root, '.examples-test-report.json'),
      `{ "seconds": ${seconds()}, "examples": ${names.length} }\n`,
    );
}

await main();

// Adds up the vitest JSON reports of every workspace package: one line per package, then the
// closing line ("Tests: N passed, N failed, N skipped") that CI reads. Failures are shown in full
// by Turbo (`--output-logs=errors-only`); a green run stays this short.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const children = (dir) =>
  existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && entry.name !== 'node_modules')
        .map((entry) => join(dir, entry.name))
    : [];
// The workspace globs of pnpm-workspace.yaml: packages/*, examples/*, test, test/*, bench.
const dirs = [
  ...children(join(root, 'packages')),
  ...children(join(root, 'examples')),
  join(root, 'test'),
  ...children(join(root, 'test')),
  join(root, 'bench'),
];

// The pack-and-install test and release dry run (scripts/pack-test/run.sh) writes its report last,
// when every check passed.
const packReport = join(root, '.pack-test-report.json');
console.log(
  existsSync(packReport)
    ? `✓ pack-and-install test (lowest and highest frameworks) and release dry run (${JSON.parse(readFileSync(packReport, 'utf8')).seconds} s)`
    : '✗ pack-and-install test and release dry run (did not pass or did not run: its log is above)',
);

// The README test (scripts/readme-test/run.mjs) writes its report when every block passed.
const readmeReport = join(root, '.readme-test-report.json');
if (existsSync(readmeReport)) {
  const { blocks, fragments, seconds } = JSON.parse(readFileSync(readmeReport, 'utf8'));
  console.log(
    `✓ README test: ${blocks} blocks run from the tarballs, ${fragments} marked fragments (${seconds} s)`,
  );
} else {
  console.log('✗ README test (did not pass or did not run: its log is above)');
}

// The examples test (scripts/examples-test/run.mjs) writes its report when every example passed.
const examplesReport = join(root, '.examples-test-report.json');
if (existsSync(examplesReport)) {
  const { examples, seconds } = JSON.parse(readFileSync(examplesReport, 'utf8'));
  console.log(
    `✓ examples test: ${examples} examples copied out, installed from the tarballs with npm and run (${seconds} s)`,
  );
} else {
  console.log('✗ examples test (did not pass or did not run: its log is above)');
}

/** A vitest report's wall time, and its slowest file: where a slow run spent its time. */
function suiteSeconds(json) {
  const files = json.testResults ?? [];
  if (files.length === 0) return '0 s';
  const end = Math.max(...files.map((file) => file.endTime));
  const slowest = files.reduce((a, b) =>
    b.endTime - b.startTime > a.endTime - a.startTime ? b : a,
  );
  const seconds = (ms) => Math.round(ms / 1000);
  return `${seconds(end - json.startTime)} s; slowest ${relative(root, slowest.name)} ${seconds(slowest.endTime - slowest.startTime)} s`;
}

let passed = 0;
let failed = 0;
let skipped = 0;
for (const dir of dirs) {
  const report = join(dir, '.vitest-report.json');
  if (!existsSync(report)) continue;
  const json = JSON.parse(readFileSync(report, 'utf8'));
  const pass = json.numPassedTests ?? 0;
  const fail = json.numFailedTests ?? 0;
  const skip = (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
  // A file that failed with no failed test (its beforeAll threw, say: its tests count as
  // skipped) fails the package too, and counts as one failure.
  const filesFailed = (json.testResults ?? []).filter(
    (file) =>
      file.status === 'failed' &&
      !(file.assertionResults ?? []).some((test) => test.status === 'failed'),
  ).length;
  passed += pass;
  failed += fail + filesFailed;
  skipped += skip;
  const name = existsSync(join(dir, 'package.json'))
    ? JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name
    : relative(root, dir);
  console.log(
    `${fail + filesFailed > 0 ? '✗' : '✓'} ${name}: ${pass} passed${fail ? `, ${fail} failed` : ''}${skip ? `, ${skip} skipped` : ''}${filesFailed ? `, ${filesFailed} file(s) failed before their tests (the log is above)` : ''} (${suiteSeconds(json)})`,
  );
}
console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);

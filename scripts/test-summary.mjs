// Adds up the vitest JSON reports of every package and prints one closing line
// ("N passed, N failed, N skipped") that CI reads.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const dirs = ['packages', 'examples'].flatMap((group) =>
  existsSync(join(root, group))
    ? readdirSync(join(root, group)).map((name) => join(root, group, name))
    : [],
);
dirs.push(join(root, 'test'), join(root, 'test', 'reliability'));

let passed = 0;
let failed = 0;
let skipped = 0;
for (const dir of dirs) {
  const report = join(dir, '.vitest-report.json');
  if (!existsSync(report)) continue;
  const json = JSON.parse(readFileSync(report, 'utf8'));
  passed += json.numPassedTests ?? 0;
  failed += json.numFailedTests ?? 0;
  skipped += (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
}
console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);

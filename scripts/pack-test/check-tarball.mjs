// Checks one packed tarball (already extracted to a directory): every file that package.json points
// to (exports, main, module, types, bin) is in it, and nothing that is not meant to ship is.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const dir = process.argv[2];
const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
const files = [];
const walk = (at) => {
  for (const entry of readdirSync(at)) {
    const path = join(at, entry);
    if (statSync(path).isDirectory()) walk(path);
    else files.push(relative(dir, path));
  }
};
walk(dir);

const problems = [];
const targets = new Set();
const collect = (value) => {
  if (typeof value === 'string') targets.add(value);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) collect(v);
};
collect(pkg.exports);
collect(pkg.bin);
for (const field of ['main', 'module', 'types']) collect(pkg[field]);
for (const target of targets) {
  if (!existsSync(join(dir, target)))
    problems.push(`${target} (from package.json) is not in the tarball`);
}
for (const required of ['README.md', 'LICENSE', 'package.json']) {
  if (!files.includes(required)) problems.push(`${required} is missing`);
}
for (const file of files) {
  if (
    /^(src|test|bench|scripts)\/|\.test\.|\.tsbuildinfo$|^tsconfig|^vitest|^tsup|\.env/.test(file)
  ) {
    problems.push(`${file} should not be published`);
  }
}
for (const [name, range] of Object.entries({ ...pkg.dependencies, ...pkg.peerDependencies })) {
  if (String(range).startsWith('workspace:')) problems.push(`${name}: ${range} left unreplaced`);
}
if (problems.length > 0) {
  console.error(`${pkg.name}: ${problems.join('; ')}`);
  process.exit(1);
}

// Checks one example in a copy of its folder outside the repository: its package.json names only
// what npm can install (published @infergate packages by a range their version satisfies), its
// tsconfig extends no file of the repository, `npm install` of the tarballs and its own
// dependencies succeeds, and it runs on the emulator as its README says (expectations.mjs).
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { exec } from '../readme-test/check-document.mjs';
import { tarballClosure } from '../readme-test/packages.mjs';
import { startServices } from '../readme-test/services.mjs';
import { demoReadmeProblems } from './demo-readme.mjs';
import { EXPECTATIONS } from './expectations.mjs';
import { checkNextApp } from './next-app.mjs';
import { tail } from './processes.mjs';

/** The example's files as a clone has them: tracked or new, never ignored (node_modules, .next). */
function copyExample(root, name, dir) {
  const files = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', `examples/${name}`],
    { cwd: root, encoding: 'utf8' },
  )
    .split('\0')
    .filter(Boolean);
  for (const file of files) {
    const from = join(root, file);
    if (!existsSync(from)) continue; // deleted in the working tree
    const to = join(dir, relative(`examples/${name}`, file));
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(from, to);
  }
}

/** `^x.y.z` (or `x.y.z`) holds `version`: npm's caret rule for 0.x and later majors. */
function caretHolds(range, version) {
  const match = /^(\^?)(\d+)\.(\d+)\.(\d+)$/.exec(range);
  if (!match) return false;
  const want = match.slice(2).map(Number);
  const have = version.split(/[.-]/).slice(0, 3).map(Number);
  if (match[1] === '') return want.every((n, i) => n === have[i]);
  const fixed = want[0] > 0 ? 1 : want[1] > 0 ? 2 : 3; // leading parts that must be equal
  for (let i = 0; i < 3; i++) {
    if (i < fixed && have[i] !== want[i]) return false;
    if (i >= fixed && have[i] !== want[i]) return have[i] > want[i];
  }
  return true;
}

/** What npm outside the repository cannot install, from the example's package.json. */
function manifestProblems(pkg, packages) {
  const problems = [];
  for (const field of ['dependencies', 'devDependencies', 'optionalDependencies']) {
    for (const [name, spec] of Object.entries(pkg[field] ?? {})) {
      const published = packages.get(name);
      if (name.startsWith('@infergate/') && !published) {
        problems.push(
          `${field} ${name}: not a published package (npm cannot install it); put what the example needs in its own files`,
        );
      } else if (/^(workspace|link|file|portal|catalog):/.test(spec)) {
        problems.push(
          `${field} ${name}: "${spec}" exists only in this repository (npm: EUNSUPPORTEDPROTOCOL or a missing path)${published ? `; use "^${published.version}"` : ''}`,
        );
      } else if (published && !caretHolds(spec, published.version)) {
        problems.push(
          `${field} ${name}: "${spec}" does not take the packed version ${published.version}: use "^${published.version}"`,
        );
      }
    }
  }
  return problems;
}

/** A tsconfig that extends a file outside the folder (e.g. ../../tsconfig.base.json). */
function tsconfigProblems(dir) {
  const problems = [];
  for (const file of readdirSync(dir).filter((f) => /^tsconfig.*\.json$/.test(f))) {
    const extended = /"extends"\s*:\s*("[^"]*"|\[[^\]]*\])/.exec(
      readFileSync(join(dir, file), 'utf8'),
    );
    for (const path of extended ? [JSON.parse(extended[1])].flat() : []) {
      if (path.startsWith('.') && relative(dir, resolve(dir, path)).startsWith('..'))
        problems.push(`${file} extends ${path}, a file of the repository: write its options out`);
    }
  }
  return problems;
}

/** Whether `output` holds each line of `expected`, in order: the first missing one, or undefined. */
function firstMissing(expected, output) {
  let from = 0;
  for (const text of expected) {
    const at = output.indexOf(text, from);
    if (at < 0) return text;
    from = at + text.length;
  }
  return undefined;
}

/** `npm start` in the copy; checks exit status, the promised lines, and that the key stays out. */
async function runStart(dir, { env, key, expected, label, fail }) {
  const result = await exec('npm', ['start'], { cwd: dir, env, timeoutMs: 180_000 });
  const output = `${result.stdout}\n${result.stderr}`;
  const shown = key ? output.replaceAll(key, '[the API key]') : output;
  if (key && output.includes(key)) fail(`${label}: the API key appears in its output`);
  if (result.code !== 0) {
    fail(`${label}: npm start exited with ${result.code}:\n${tail(shown)}`);
    return;
  }
  const missing = firstMissing(expected, result.stdout);
  if (missing)
    fail(`${label}: did not print ${JSON.stringify(missing)}; it printed:\n${tail(shown)}`);
  return result.stdout;
}

/**
 * `npm start` with INFERGATE_BASE_URL set and INFERGATE_API_KEY not (a common first mistake): it
 * must fail with the one line its README promises, not a stack trace.
 */
async function runWithoutKey(dir, { env, expected, fail }) {
  const label = 'npm start with INFERGATE_BASE_URL set and no INFERGATE_API_KEY';
  const result = await exec('npm', ['start'], {
    cwd: dir,
    env: { ...env, INFERGATE_BASE_URL: 'http://127.0.0.1:9/v1' },
    timeoutMs: 180_000,
  });
  const output = `${result.stdout}\n${result.stderr}`;
  if (result.code === 0) fail(`${label}: exited with 0`);
  if (!output.includes(expected) || /^\s+at \S/m.test(output))
    fail(`${label}: did not fail with the one line ${JSON.stringify(expected)}:\n${tail(output)}`);
}

/** A command-line example: type check, then `npm start` on the emulator (and on its own one). */
async function checkCommandLine(dir, pkg, expectation, { root, env, fail }) {
  if (pkg.scripts?.typecheck) {
    const typecheck = await exec('npm', ['run', 'typecheck'], { cwd: dir, env });
    if (typecheck.code !== 0)
      fail(`npm run typecheck failed:\n${tail(typecheck.stdout + typecheck.stderr)}`);
  }
  if (expectation.own) {
    await runStart(dir, { env, expected: expectation.own, label: 'npm start', fail });
    return;
  }
  const services = await startServices(root, '', env);
  try {
    const { INFERGATE_BASE_URL: url, INFERGATE_API_KEY: key } = services.env;
    const printed = await runStart(dir, {
      env: { ...env, ...services.env },
      key,
      expected: [`Gateway: ${url}`, ...expectation.gateway],
      label: 'npm start on the emulator (INFERGATE_BASE_URL set)',
      fail,
    });
    if (expectation.readmeSteps && printed !== undefined)
      for (const problem of demoReadmeProblems(
        readFileSync(join(dir, 'README.md'), 'utf8'),
        printed,
      ))
        fail(problem);
  } finally {
    services.stop();
  }
  if (expectation.withoutKey)
    await runWithoutKey(dir, { env, expected: expectation.withoutKey, fail });
  if (expectation.embedded) {
    await runStart(dir, {
      env,
      expected: ['Gateway: the embedded emulator at http://127.0.0.1:', ...expectation.embedded],
      label: 'npm start on its own emulator (INFERGATE_BASE_URL unset)',
      fail,
    });
  }
}

/** Copies, installs and runs one example: `{ name, failures: [message] }`. */
export async function checkExample(name, context) {
  const { root, work, env, packages, log } = context;
  const started = Date.now();
  const since = () => `${Math.round((Date.now() - started) / 1000)} s`;
  const failures = [];
  const fail = (message) => failures.push(message);
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  copyExample(root, name, dir);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const expectation = EXPECTATIONS[name];
  if (expectation === undefined)
    fail('scripts/examples-test/expectations.mjs does not say what it prints: add it there');
  for (const problem of [...manifestProblems(pkg, packages), ...tsconfigProblems(dir)])
    fail(problem);
  if (failures.length > 0) return { name, failures };

  // The tarballs stand for the registry's @infergate packages; npm takes the rest from the registry.
  const ours = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).filter((dep) =>
    packages.has(dep),
  );
  const tarballs = [...new Set(ours.flatMap((dep) => tarballClosure(packages, dep)))];
  const install = await exec('npm', ['install', ...tarballs], {
    cwd: dir,
    env,
    timeoutMs: 600_000,
  });
  if (install.code !== 0) {
    fail(`npm install failed:\n${tail(install.stdout + install.stderr)}`);
    return { name, failures };
  }
  log(`${name}: installed (${since()})`);
  if (existsSync(join(dir, 'tsconfig.json'))) {
    // An example teaches the current API of what it installs: no use of a @deprecated one.
    const deprecated = await context.deprecations.check(dir);
    if (deprecated.code !== 0)
      fail(`uses deprecated APIs:\n${tail(deprecated.stdout + deprecated.stderr)}`);
  }
  if (expectation.next)
    await checkNextApp(dir, { root, env, log: (line) => log(`${name}: ${line}`), fail });
  else await checkCommandLine(dir, pkg, expectation, { root, env, fail });
  log(`${name}: ran (${since()})`);
  return { name, failures };
}

// Checks the blocks of one Markdown file in one fresh npm project, as a reader follows it: the
// shell blocks run in order (their `npm install` lines install the packed tarballs and the
// workspace's versions of everything else), then every TypeScript block is type-checked with the
// tsconfig `tsc --init` writes, set up for Node as its comments say, and every TypeScript and
// JavaScript block runs with `node` against the emulator, its output checked against its
// `prints:` comments.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  commandsOf,
  importedPackages,
  installedPackages,
  missingOutput,
  npmInstallSpecs,
  packageNameOf,
  promisedOutput,
} from './blocks.mjs';
import { tarballClosure } from './packages.mjs';
import { startServices } from './services.mjs';

/** Runs a command to its end: `{ code, stdout, stderr }` (`code` null when it was killed). */
export function exec(command, args, { cwd, env, timeoutMs = 120_000 }) {
  // Its own process group: a timeout ends what it started too (a server a block left running).
  const child = spawn(command, args, {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => {
    stderr += `\n[readme-test: killed after ${timeoutMs / 1000} s]`;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
  }, timeoutMs);
  return new Promise((resolve) => {
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: null, stdout, stderr: `${stderr}${error.message}` });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The last lines of a process's output, indented, for a failure message. */
const tail = (text, lines = 40) =>
  text
    .trimEnd()
    .split('\n')
    .slice(-lines)
    .map((line) => `    ${line}`)
    .join('\n');

/**
 * One command of an install block as the test runs it: `@infergate/*` becomes its tarball (with
 * the tarballs of the @infergate packages it depends on), an unversioned package the workspace's
 * version; `npx @infergate/x …` runs x's command from its tarball. Anything else runs as written.
 */
function rewriteCommand(command, { packages, versions }) {
  const words = command.split(/\s+/);
  const specs = npmInstallSpecs(command);
  if (specs !== undefined) {
    const out = new Set();
    for (const word of words) {
      const name = packageNameOf(word);
      if (word.startsWith('-') || !specs.includes(word)) out.add(word);
      else if (packages.has(name)) for (const t of tarballClosure(packages, name)) out.add(t);
      else out.add(name === word && versions.has(name) ? `${name}@${versions.get(name)}` : word);
    }
    return [...out].join(' ');
  }
  if (words[0] === 'npx') {
    const at = words.findIndex((word, i) => i > 0 && !word.startsWith('-'));
    const pkg = packages.get(packageNameOf(words[at] ?? ''));
    if (pkg === undefined) return command;
    const from = tarballClosure(packages, packageNameOf(words[at])).map((t) => `--package=${t}`);
    return ['npx', '--yes', ...from, '--', pkg.bins[0], ...words.slice(at + 1)].join(' ');
  }
  return command;
}

/** A shell block as the test runs it: each line's commands rewritten, comments kept out. */
export const runnableShell = (code, context) =>
  code
    .split('\n')
    .map((line) =>
      commandsOf(line)
        .map((command) => rewriteCommand(command, context))
        .join(' && '),
    )
    .filter(Boolean)
    .join('\n');

/**
 * What `tsc --init` writes: the same file for every project of a run (it depends on the
 * TypeScript version only), so TypeScript is started once for it, in a directory of its own.
 */
let initConfig;
function tscInitConfig({ root, work, env }) {
  initConfig ??= (async () => {
    const dir = join(work, '.tsc-init');
    mkdirSync(dir, { recursive: true });
    const init = await exec(
      process.execPath,
      [join(root, 'node_modules/typescript/bin/tsc'), '--init'],
      { cwd: dir, env },
    );
    if (init.code !== 0) throw new Error(`tsc --init failed:\n${tail(init.stdout + init.stderr)}`);
    return readFileSync(join(dir, 'tsconfig.json'), 'utf8');
  })();
  return initConfig;
}

/** The tsconfig.json `tsc --init` writes, with the lines its comments give "For nodejs" turned on. */
async function writeTsconfig(dir, { root, work, env }) {
  const path = join(dir, 'tsconfig.json');
  const config = await tscInitConfig({ root, work, env });
  // @types/node comes from the workspace (what `npm install -D @types/node` would add).
  const nodeTypes = `"types": ["node"],\n    "typeRoots": [${JSON.stringify(join(root, 'node_modules/@types'))}],`;
  const forNode = config
    .replace(/"types": \[\],/, nodeTypes)
    .replace(/\/\/ "lib": \["esnext"\],/, '"lib": ["esnext"],');
  if (forNode === config) throw new Error('tsc --init no longer writes the lines this test edits');
  writeFileSync(path, forNode);
}

const fileOf = (block) => `L${block.line}.${block.kind === 'ts' ? 'mts' : 'mjs'}`;

/** Type-checks every TypeScript block at once; reports each error at its README line. */
async function typeCheck(dir, blocks, { file, root, work, env, deprecations, fail }) {
  const typescript = blocks.filter((block) => block.kind === 'ts');
  if (typescript.length === 0) return;
  await writeTsconfig(dir, { root, work, env });
  const tsc = await exec(
    process.execPath,
    [
      join(root, 'tools/typescript-native/tsc-native.mjs'),
      '-p',
      '.',
      '--noEmit',
      '--pretty',
      'false',
    ],
    { cwd: dir, env },
  );
  const byFile = new Map(typescript.map((block) => [fileOf(block), block]));
  if (tsc.code !== 0) {
    let placed = 0;
    for (const match of tsc.stdout.matchAll(/^(L\d+\.mts)\((\d+),(\d+)\): (.*)$/gm)) {
      const block = byFile.get(match[1]);
      if (block === undefined) continue;
      placed++;
      fail(block, `type error at ${file}:${block.line + Number(match[2])}: ${match[4]}`);
    }
    if (placed === 0) fail(typescript[0], `tsc failed:\n${tail(tsc.stdout + tsc.stderr)}`);
  }
  // A README teaches the current API of what it installs: no use of a @deprecated one.
  const deprecated = await deprecations.check(dir);
  if (deprecated.code === 0) return;
  let placed = 0;
  for (const match of deprecated.stdout.matchAll(/^(L\d+\.mts)\((\d+)\): (.*)$/gm)) {
    const block = byFile.get(match[1]);
    if (block === undefined) continue;
    placed++;
    fail(block, `deprecated API at ${file}:${block.line + Number(match[2])}: ${match[3]}`);
  }
  if (placed === 0)
    fail(
      typescript[0],
      `the deprecation check failed:\n${tail(deprecated.stdout + deprecated.stderr)}`,
    );
}

/** Runs one shell block; checks its exit status and what it promises to print. */
async function runShell(dir, block, { context, env, fail }) {
  const script = runnableShell(block.code, context);
  const result = await exec('bash', ['-e', '-o', 'pipefail', '-c', script], {
    cwd: dir,
    env,
    timeoutMs: 300_000,
  });
  if (result.code !== 0) {
    fail(
      block,
      `exit code ${result.code} running:\n${tail(script)}\n${tail(result.stdout + result.stderr)}`,
    );
    return false;
  }
  checkOutput(block, result.stdout, fail);
  return true;
}

function checkOutput(block, stdout, fail) {
  const missing = missingOutput(promisedOutput(block.code), stdout);
  if (missing) {
    fail(
      block,
      `does not print what line ${block.line + missing.promise.blockLine} promises (\`prints: ${missing.promise.text}\`); it printed:\n${tail(stdout || '(nothing)')}`,
    );
  }
}

/** Runs one TypeScript or JavaScript block with node; checks exit status, stderr and output. */
async function runScript(dir, block, { env, fail }) {
  if (promisedOutput(block.code).length === 0) {
    fail(block, 'promises no output: say what it prints with a `// prints: …` comment');
  }
  const result = await exec(process.execPath, [fileOf(block)], {
    cwd: dir,
    env,
    timeoutMs: 120_000,
  });
  if (result.code !== 0) {
    fail(block, `exit code ${result.code}:\n${tail(result.stdout + result.stderr)}`);
    return;
  }
  const warnings = promisedOutput(block.code, 'warns');
  if (warnings.length === 0 && result.stderr.trim() !== '')
    fail(
      block,
      `wrote to stderr (a \`// warns: …\` comment says what it may write):\n${tail(result.stderr)}`,
    );
  checkOutput(block, result.stdout, fail);
  const missing = missingOutput(warnings, result.stderr);
  if (missing) {
    fail(
      block,
      `does not warn what line ${block.line + missing.promise.blockLine} promises (\`warns: ${missing.promise.text}\`); its stderr was:\n${tail(result.stderr || '(nothing)')}`,
    );
  }
}

/** Each block's packages that no install line above it names (a dependency it has by luck). */
function checkImports(blocks, fail) {
  const named = new Set();
  for (const block of blocks) {
    if (block.kind === 'sh') for (const name of installedPackages(block.code)) named.add(name);
    else {
      const unnamed = importedPackages(block.code).filter((name) => !named.has(name));
      if (unnamed.length > 0) {
        fail(
          block,
          `imports ${unnamed.join(', ')}, which no install line above it names (npm install ${unnamed.join(' ')})`,
        );
      }
    }
  }
}

/**
 * Checks the runnable blocks of one file in a project of its own under `work`. Resolves to
 * `{ file, failures: [{ where, line, message }] }`.
 */
export async function checkDocument(
  { file, blocks },
  { root, work, env, packages, versions, deprecations },
) {
  const dir = join(work, file.replace(/[^A-Za-z0-9]+/g, '_'));
  mkdirSync(dir, { recursive: true });
  const failures = [];
  const fail = (block, message) =>
    failures.push({ where: `${file}:${block.line}`, line: block.line, message });
  const services = await startServices(root, blocks.map((block) => block.code).join('\n'), env);
  const blockEnv = { ...env, ...services.env };
  try {
    const init = await exec('npm', ['init', '-y'], { cwd: dir, env: blockEnv });
    if (init.code !== 0) throw new Error(`npm init -y failed:\n${tail(init.stdout + init.stderr)}`);
    checkImports(blocks, fail);
    const context = { packages, versions };
    for (const block of blocks.filter((b) => b.kind === 'sh')) {
      if (!(await runShell(dir, block, { context, env: blockEnv, fail })))
        return { file, failures };
    }
    const scripts = blocks.filter((block) => block.kind !== 'sh');
    for (const block of scripts) writeFileSync(join(dir, fileOf(block)), block.code);
    await typeCheck(dir, scripts, { file, root, work, env: blockEnv, deprecations, fail });
    for (const block of scripts) await runScript(dir, block, { env: blockEnv, fail });
  } finally {
    services.stop();
  }
  return { file, failures };
}

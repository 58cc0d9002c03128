// Fills npm's cache (the one the pack-and-install, README and examples tests install from) with the
// third-party packages those tests will install, while the workspace is still being installed and
// built: on a fresh machine their installs otherwise start from an empty cache, and each waits on
// the registry in turn. Only a warm-up: nothing here is checked, a failure only leaves the cache
// colder (the tests themselves still resolve and install everything).
// For each dependency set the tests install (frameworks.json's sets, each example, each README's
// install lines), it resolves the tree (`npm install --package-lock-only`: manifests only) and then
// downloads the locked tarballs of this platform into the cache (`npm cache add`: no unpacking).
// Runs with whatever Node and npm are on PATH (scripts/test.sh starts it before the bootstrap).
//
//   node scripts/npm-prefetch.mjs
import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { codeBlocks, commandsOf, npmInstallSpecs, packageNameOf } from './readme-test/blocks.mjs';
import { workspaceVersions } from './readme-test/packages.mjs';

const root = new URL('..', import.meta.url).pathname;
const started = Date.now();
const log = (line) =>
  console.log(`npm-prefetch [${Math.round((Date.now() - started) / 1000)}s]: ${line}`);
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));
const env = {
  ...process.env,
  npm_config_cache: join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'infergate/npm'),
  npm_config_prefer_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
  npm_config_loglevel: 'error',
};

const npm = (args, cwd) =>
  new Promise((resolve) => {
    execFile('npm', args, { cwd, env, maxBuffer: 64 << 20 }, (error) => resolve(!error));
  });

/** The third-party dependencies of our published packages (what their tarballs pull in). */
function ourDependencies() {
  const deps = {};
  for (const dir of readdirSync(join(root, 'packages'))) {
    const path = join(root, 'packages', dir, 'package.json');
    if (!existsSync(path)) continue;
    const pkg = readJson(path);
    if (pkg.private) continue;
    for (const [name, spec] of Object.entries(pkg.dependencies ?? {}))
      if (!spec.startsWith('workspace:')) deps[name] = spec;
  }
  return deps;
}

/** name → spec of every package an `npm install` line of a Markdown file names (not ours). */
function readmeSet(file, versions) {
  const set = {};
  for (const block of codeBlocks(readFileSync(join(root, file), 'utf8'))) {
    if (block.kind !== 'sh' || block.fragment !== undefined) continue;
    for (const command of block.code.split('\n').flatMap(commandsOf)) {
      for (const word of npmInstallSpecs(command) ?? []) {
        const name = packageNameOf(word);
        if (name.startsWith('@infergate/')) continue;
        const spec = name === word ? versions.get(name) : word.slice(name.length + 1);
        if (spec) set[name] = spec;
      }
    }
  }
  return set;
}

/** Every dependency set the three npm-based tests install. */
function dependencySets() {
  const sets = [];
  const frameworks = readJson(join(root, 'scripts/pack-test/frameworks.json'));
  for (const set of Object.values(frameworks.sets))
    sets.push({ ...set, '@types/node': '22', '@types/json-schema': '7' });
  for (const name of readdirSync(join(root, 'examples'))) {
    const path = join(root, 'examples', name, 'package.json');
    if (!existsSync(path)) continue;
    const pkg = readJson(path);
    const deps = { ...pkg.dependencies, ...pkg.devDependencies };
    for (const dep of Object.keys(deps)) if (dep.startsWith('@infergate/')) delete deps[dep];
    sets.push(deps);
  }
  const versions = workspaceVersions(root);
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
  const readmes = readdirSync(join(root, 'packages'))
    .map((dir) => `packages/${dir}/README.md`)
    .filter((file) => existsSync(join(root, file)));
  for (const file of ['README.md', ...readmes, ...docs]) {
    const set = readmeSet(file, versions);
    if (Object.keys(set).length > 0) sets.push(set);
  }
  const ours = ourDependencies();
  return sets.map((set) => ({ ...ours, ...set }));
}

/** Whether a locked package is for this machine (npm skips the other platforms' binaries). */
function forThisMachine(entry) {
  const fits = (list, value) =>
    !list || list.some((item) => (item.startsWith('!') ? item.slice(1) !== value : item === value));
  const libc = process.report?.getReport().header.glibcVersionRuntime ? 'glibc' : 'musl';
  return (
    fits(entry.os, process.platform) &&
    fits(entry.cpu, process.arch) &&
    (process.platform !== 'linux' || fits(entry.libc, libc))
  );
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'infergate-npm-prefetch-'));
  const sets = dependencySets();
  // Resolve every set at once: this step waits on the registry's manifests.
  const locks = await Promise.all(
    sets.map(async (dependencies, index) => {
      const dir = join(work, `set-${index}`);
      mkdirSync(dir);
      writeFileSync(
        join(dir, 'package.json'),
        JSON.stringify({ name: `prefetch-${index}`, private: true, dependencies }),
      );
      const args = ['install', '--package-lock-only', '--ignore-scripts'];
      const resolved = (await npm(args, dir)) || (await npm([...args, '--legacy-peer-deps'], dir));
      const lock = join(dir, 'package-lock.json');
      return resolved && existsSync(lock) ? readJson(lock) : undefined;
    }),
  );
  const tarballs = new Set();
  for (const lock of locks.filter(Boolean))
    for (const [path, entry] of Object.entries(lock.packages ?? {}))
      if (path !== '' && entry.resolved?.startsWith('http') && forThisMachine(entry))
        tarballs.add(entry.resolved);
  log(`resolved ${locks.filter(Boolean).length} of ${sets.length} dependency sets`);
  const list = [...tarballs];
  const chunks = [];
  for (let i = 0; i < list.length; i += 100) chunks.push(list.slice(i, i + 100));
  const added = await Promise.all(chunks.map((chunk) => npm(['cache', 'add', ...chunk], work)));
  log(`${list.length} tarballs in the cache (${added.filter((ok) => !ok).length} batches failed)`);
  rmSync(work, { recursive: true, force: true });
}

await main();

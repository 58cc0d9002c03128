// Checks the registry metadata of every published (non-private) package under packages/: what
// users see on the npm page and what `npm publish` needs. Runs in `pnpm lint`.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const REPOSITORY = 'https://github.com/infergate/infergate';
const REQUIRED_KEYWORDS = ['infergate', 'gateway', 'llm'];
const root = new URL('..', import.meta.url).pathname;
const readJson = (path) => JSON.parse(readFileSync(join(root, path), 'utf8'));
const frameworks = readJson('scripts/pack-test/frameworks.json');
const changesets = readJson('.changeset/config.json');
// The versions of each peer the pack-and-install test runs (every set of frameworks.json).
const testedVersions = new Map();
for (const set of Object.values(frameworks.sets)) {
  for (const [peer, version] of Object.entries(set)) {
    if (!testedVersions.has(peer)) testedVersions.set(peer, new Set());
    testedVersions.get(peer).add(version);
  }
}

// Enough of picomatch for the changesets config: `*` and `{a,b}`.
const globToRegExp = (glob) =>
  new RegExp(
    `^${glob
      .replace(/[.+^$()|[\]\\/]/g, '\\$&')
      .replace(/\*/g, '[^/]*')
      .replace(/\{([^}]*)\}/g, (_, list) => `(${list.split(',').join('|')})`)}$`,
  );
const inGroup = (groups, name) =>
  groups.some((group) => group.some((g) => globToRegExp(g).test(name)));

/** A peer a package plugs into without importing it: the range says which versions call it. */
const HOST_FRAMEWORK = { '@infergate/ai-sdk': 'ai' };

/** The packages the non-test files under `dir` import or require (`zod` for `zod/v4`). */
function importedPackages(dir) {
  const names = new Set();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.[cm]?tsx?$/.test(entry.name) || /\.test(-d)?\./.test(entry.name))
      continue;
    const text = readFileSync(join(entry.parentPath, entry.name), 'utf8');
    const specs = text.matchAll(/(?:from|import|require)\s*\(?\s*['"]([^'"./][^'"]*)['"]/g);
    for (const [, spec] of specs) {
      const [scope, name] = spec.split('/');
      names.add(scope.startsWith('@') ? `${scope}/${name}` : scope);
    }
  }
  return names;
}

const problems = [];
const published = [];
for (const dir of readdirSync(join(root, 'packages'))) {
  const path = `packages/${dir}/package.json`;
  if (!existsSync(join(root, path))) continue;
  const pkg = readJson(path);
  if (pkg.private) continue;
  published.push(pkg.name);
  const fail = (message) => problems.push(`${path}: ${message}`);

  if (!pkg.name?.startsWith('@infergate/')) fail(`name ${pkg.name} is not in the @infergate scope`);
  if (!pkg.description) fail('no description');
  if (pkg.license !== 'MIT') fail(`license is ${pkg.license}, expected MIT`);
  if (!existsSync(join(root, `packages/${dir}/LICENSE`))) fail('no LICENSE file');
  if (!existsSync(join(root, `packages/${dir}/README.md`))) fail('no README.md');
  if (pkg.publishConfig?.access !== 'public')
    fail('publishConfig.access must be "public" (scoped packages are private by default)');
  if (pkg.publishConfig?.provenance !== true) fail('publishConfig.provenance must be true');
  if (pkg.repository?.url !== `git+${REPOSITORY}.git`)
    fail(`repository.url must be git+${REPOSITORY}.git`);
  if (pkg.repository?.directory !== `packages/${dir}`)
    fail(`repository.directory must be packages/${dir}`);
  if (pkg.homepage !== `${REPOSITORY}/tree/main/packages/${dir}#readme`)
    fail('homepage must link the package README');
  if (pkg.bugs?.url !== `${REPOSITORY}/issues`) fail(`bugs.url must be ${REPOSITORY}/issues`);
  for (const keyword of REQUIRED_KEYWORDS) {
    if (!pkg.keywords?.includes(keyword)) fail(`keywords lack "${keyword}"`);
  }
  if (!/^>=\d+/.test(pkg.engines?.node ?? ''))
    fail('engines.node must be a lower bound (">=22.12")');
  if (typeof pkg.sideEffects !== 'boolean' && !Array.isArray(pkg.sideEffects))
    fail('sideEffects must be set');
  if (!Array.isArray(pkg.files) || !pkg.files.includes('dist')) fail('files must list dist');
  for (const entry of pkg.files ?? []) {
    if (/^(src|test|bench|scripts)\b|\.test\.|tsconfig|vitest/.test(entry))
      fail(`files ships ${entry}`);
  }
  if (!pkg.exports?.['.']) fail('no exports["."]');
  if (!inGroup(changesets.fixed, pkg.name))
    fail('not in the fixed group of .changeset/config.json');
  for (const [dep, range] of Object.entries(pkg.dependencies ?? {})) {
    if (dep.startsWith('@infergate/') && range !== 'workspace:^')
      fail(`dependency ${dep} must be "workspace:^"`);
  }
  const imports = importedPackages(join(root, `packages/${dir}/src`));
  for (const [peer, range] of Object.entries(pkg.peerDependencies ?? {})) {
    // A peer the code never imports only makes users install it (npm 7+ does it for them).
    if (!imports.has(peer) && HOST_FRAMEWORK[pkg.name] !== peer)
      fail(`peer ${peer} is not imported by any file of src/`);
    const tested = testedVersions.get(peer);
    if (tested === undefined) {
      if (!pkg.peerDependenciesMeta?.[peer]?.optional)
        fail(`peer ${peer} is not in scripts/pack-test/frameworks.json`);
      continue;
    }
    // Every alternative of the range (`^6.0.0 || ^7.0.0`) starts at a version a pack-test set runs.
    for (const alternative of range.split('||')) {
      const floor = alternative.trim().replace(/^[\^~>=]+/, '');
      if (!tested.has(floor))
        fail(
          `peer ${peer} "${range}" starts at ${floor}, which no pack-test set runs (it runs ${[...tested].join(', ')})`,
        );
    }
  }
}
for (const name of changesets.ignore ?? []) {
  if (published.includes(name))
    problems.push(`.changeset/config.json ignores published package ${name}`);
}

if (problems.length > 0) {
  console.error(`package metadata: ${problems.length} problem(s)\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(
  `package metadata: ${published.length} published packages OK (${published.join(', ')})`,
);

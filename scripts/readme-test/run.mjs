// The README test: every fenced ts/js/sh block of README.md, CONTRIBUTING.md,
// packages/*/README.md, docs/*.md and examples/*/README.md is run as a reader would run it, or is
// marked a fragment (`<!-- fragment: why -->` on the line before its fence), or an excerpt of a
// file (`<!-- excerpt: path -->`, checked against the file: excerpt.mjs). One fresh `npm init -y`
// project per file; see check-document.mjs for what is checked. A package README's export list
// (`## Exports`, `## Other exports`) must name only what the package exports (exports.mjs). Before
// the READMEs, a self-test runs self-test.md, whose broken blocks must fail.
//
//   node scripts/readme-test/run.mjs [--tarballs DIR] [--jobs N] [--keep] [FILE.md …]
//
// --tarballs: the packed packages (default: INFERGATE_TARBALLS, set by scripts/test.sh after
// scripts/pack-tarballs.mjs; else pack them now; the packages must be built).
// --jobs: files checked at once (default 4, or INFERGATE_README_TEST_JOBS: a file's time is mostly
// npm and its blocks' processes waiting). --keep: keep the
// projects (their directory is printed). FILE.md: only these files (and no self-test).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { codeBlocks } from './blocks.mjs';
import { checkDocument } from './check-document.mjs';
import { deprecationChecker } from './deprecations.mjs';
import { excerptProblem } from './excerpt.mjs';
import { exportListProblems } from './exports.mjs';
import { packAll, publishedPackages, workspaceVersions } from './packages.mjs';

const root = new URL('../../', import.meta.url).pathname;
const started = Date.now();
const seconds = () => Math.round((Date.now() - started) / 1000);
const log = (line) => console.log(`readme-test [${seconds()}s]: ${line}`);

const { values, positionals } = parseArgs({
  options: {
    tarballs: { type: 'string' },
    jobs: { type: 'string', default: process.env.INFERGATE_README_TEST_JOBS ?? '4' },
    keep: { type: 'boolean', default: false },
  },
  allowPositionals: true,
  // scripts/test.sh hands its arguments to every task (they are vitest's): only *.md are ours.
  strict: false,
});
const files = positionals.filter((arg) => arg.endsWith('.md'));

/** README.md, CONTRIBUTING.md, every package's and example's README.md and docs/*.md. */
function defaultFiles() {
  const readmesUnder = (folder) =>
    readdirSync(join(root, folder))
      .sort()
      .map((dir) => `${folder}/${dir}/README.md`)
      .filter((file) => existsSync(join(root, file)));
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return [
    'README.md',
    'CONTRIBUTING.md',
    ...readmesUnder('packages'),
    ...docs,
    ...readmesUnder('examples'),
  ];
}

/** The environment of every project: the caller's without INFERGATE_*, npm quiet and cached. */
function projectEnv() {
  const env = { ...process.env, NO_COLOR: '1' };
  for (const name of Object.keys(env)) if (name.startsWith('INFERGATE_')) delete env[name];
  return {
    ...env,
    // npm's cache is the pack-and-install test's: repeat runs install without the network.
    npm_config_cache: join(
      process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'),
      'infergate/npm',
    ),
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    npm_config_loglevel: 'error',
  };
}

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

/** Every block of self-test.md whose code says `self-test: fails with X` must fail naming X. */
function selfTestProblems({ blocks, excerpts }, { failures }) {
  const problems = [];
  for (const block of [...blocks, ...excerpts]) {
    const expected = /self-test: fails with (.+)$/m.exec(block.code)?.[1].trim();
    const messages = failures.filter((f) => f.line === block.line).map((f) => f.message);
    if (expected === undefined && messages.length > 0)
      problems.push(`line ${block.line} should pass but failed: ${messages.join('; ')}`);
    if (expected !== undefined && !messages.some((message) => message.includes(expected)))
      problems.push(
        `line ${block.line} should fail with "${expected}" but ${messages.length ? `failed with: ${messages.join('; ')}` : 'passed'}`,
      );
  }
  return problems;
}

function readDocument(file) {
  const blocks = codeBlocks(readFileSync(join(root, file), 'utf8'));
  const marked = (block) => block.fragment !== undefined || block.excerpt !== undefined;
  return {
    file,
    blocks: blocks.filter((block) => block.kind !== undefined && !marked(block)),
    fragments: blocks.filter((block) => block.kind !== undefined && block.fragment !== undefined),
    excerpts: blocks.filter((block) => block.excerpt !== undefined),
    problems: blocks.filter((block) => block.problem),
  };
}

/** What is checked without a project: markers, excerpts and the export lists. */
function staticFailures({ file, problems, excerpts }) {
  const failures = [
    ...problems.map((block) => ({ line: block.line, message: block.problem })),
    ...excerpts.map((block) => ({ line: block.line, message: excerptProblem(root, file, block) })),
    ...exportListProblems(root, file),
  ];
  return failures
    .filter((failure) => failure.message)
    .map((failure) => ({ ...failure, where: `${file}:${failure.line}` }));
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'infergate-readme-test-'));
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
  const context = { root, work, env, packages, versions: workspaceVersions(root), deprecations };
  const documents = (files.length > 0 ? files : defaultFiles()).map(readDocument);
  const selfTest = files.length > 0 ? undefined : readDocument('scripts/readme-test/self-test.md');
  // The files with the most blocks first: the longest do not start last.
  const toCheck = [...(selfTest ? [selfTest] : []), ...documents]
    .filter((d) => d.blocks.length)
    .sort((a, b) => b.blocks.length - a.blocks.length);
  const results = await pool(toCheck, Number(values.jobs), async (document) => {
    const result = await checkDocument(document, context);
    log(
      `${document.file}: ${document.blocks.length} blocks${result.failures.length ? `, ${result.failures.length} failures` : ' ok'}`,
    );
    return result;
  });
  deprecations.close();

  const failures = results
    .filter((result) => result.file !== selfTest?.file)
    .flatMap((r) => r.failures);
  failures.push(...documents.flatMap(staticFailures));
  const selfTestResult = selfTest && {
    failures: [
      ...(results.find((result) => result.file === selfTest.file)?.failures ?? []),
      ...staticFailures(selfTest),
    ],
  };
  const selfProblems = selfTest ? selfTestProblems(selfTest, selfTestResult) : [];
  const ran = documents.reduce((sum, d) => sum + d.blocks.length, 0);
  const fragments = documents.flatMap((d) =>
    d.fragments.map((b) => `${d.file}:${b.line} — ${b.fragment}`),
  );
  log(`fragments (not run): ${fragments.length}${fragments.map((f) => `\n  ${f}`).join('')}`);
  failures.sort((a, b) => a.where.localeCompare(b.where, 'en', { numeric: true }));
  for (const failure of failures) console.log(`\n✗ ${failure.where}: ${failure.message}`);
  for (const problem of selfProblems)
    console.log(`\n✗ self-test (scripts/readme-test/self-test.md) ${problem}`);
  if (values.keep) log(`projects kept in ${work}`);
  else {
    // In the background, as the pack-and-install test does: deleting the projects' node_modules
    // took longer than checking them on a loaded machine, and nothing waits for it.
    spawn('rm', ['-rf', work], { detached: true, stdio: 'ignore' }).unref();
  }
  const excerpts = documents.reduce((sum, d) => sum + d.excerpts.length, 0);
  const summary = `${ran} blocks run in ${documents.filter((d) => d.blocks.length).length} files, ${excerpts} excerpts checked, ${fragments.length} fragments, 0 unmarked blocks skipped`;
  if (failures.length > 0 || selfProblems.length > 0) {
    log(
      `FAILED: ${failures.length} failing blocks, ${selfProblems.length} self-test problems (${summary})`,
    );
    process.exit(1);
  }
  const selfCaught = selfTest
    ? `; the self-test's ${selfTestResult.failures.length} broken blocks failed as they should`
    : '';
  log(`ok: ${summary}${selfCaught}`);
  // Read by scripts/test-summary.mjs (the whole run only).
  if (files.length === 0)
    writeFileSync(
      join(root, '.readme-test-report.json'),
      `${JSON.stringify({ seconds: seconds(), blocks: ran, fragments: fragments.length })}\n`,
    );
}

await main();

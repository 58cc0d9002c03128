// The glossary's words (docs/gateway-protocol.md, Glossary) in every package's source and in the
// docs and the changesets: a limit leaves "space", never "room"; "budget" is only the key's
// concurrency budget, so the retries a call may make are its "retry allowance", never a "retry
// budget", and the hedges a key may send its "hedge allowance".
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');

/** Words the glossary bans, each with the word to use instead. */
const BANNED: readonly [RegExp, string][] = [
  [/\broom\b/i, 'space (what a limit leaves)'],
  [/\bretry budget\b/i, 'retry allowance (budget: only the key’s concurrency budget)'],
  [/\bhedge budget\b/i, 'hedge allowance (budget: only the key’s concurrency budget)'],
];

/** Every text file under `dir` (no build output, no dependencies). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx|mts|js|mjs|md)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => !/[/\\](node_modules|dist)[/\\]/.test(file));
}

const packages = readdirSync(join(ROOT, 'packages'));
const files = [
  ...packages.flatMap((name) => filesUnder(join(ROOT, 'packages', name, 'src'))),
  ...packages.map((name) => join(ROOT, 'packages', name, 'README.md')),
  ...filesUnder(join(ROOT, 'docs')),
  // (The changesets become the release notes.)
  ...filesUnder(join(ROOT, '.changeset')),
  ...['README.md', 'CONTRIBUTING.md'].map((name) => join(ROOT, name)),
].filter((file) => {
  try {
    readFileSync(file);
    return true;
  } catch {
    return false;
  }
});

it('reads every package’s source and the docs', () => {
  expect(files.length).toBeGreaterThan(100);
  expect(files.some((file) => file.endsWith('redis-connection.ts'))).toBe(true);
});

it('no source or doc says a word the glossary bans', () => {
  const saying: string[] = [];
  for (const file of files) {
    const path = relative(ROOT, file).split('\\').join('/');
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, i) => {
      for (const [word, instead] of BANNED) {
        if (word.test(line)) saying.push(`${path}:${i + 1}: ${line.trim()} (say: ${instead})`);
      }
    });
  }
  expect(saying).toEqual([]);
});

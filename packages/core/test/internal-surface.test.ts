import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// `@infergate/core/internal` holds what the published packages' sources import from it, plus what
// `@infergate/redis`'s tests, the runtime matrix and the benchmarks need (as internal.ts says), and nothing else: a
// name only another package's tests or examples import is surface to keep stable for no one.
const repo = join(import.meta.dirname, '..', '..', '..');
const SKIP = new Set(['node_modules', 'dist', '.dts', '.turbo', '.git', 'coverage']);
/** Where a user of the internal entry may be (relative to the repository). */
const USERS = [
  'packages/langchain/src',
  'packages/ai-sdk/src',
  'packages/mcp/src',
  'packages/redis/src',
  'packages/redis/test',
  'test/runtimes/src',
  'packages/core/bench',
  'bench',
];

function sourceFilesUnder(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    if (SKIP.has(name)) return [];
    const path = join(dir, name);
    if (/\.(?:ts|tsx|mts|mjs|js)$/.test(name)) return [path];
    return name.includes('.') ? [] : sourceFilesUnder(path);
  });
}

/** Every name the users of the internal entry import from it. */
function namesImported(): Set<string> {
  const roots = USERS.map((dir) => join(repo, dir));
  const names = new Set<string>();
  for (const file of roots.flatMap(sourceFilesUnder)) {
    const source = readFileSync(file, 'utf8');
    if (!source.includes('@infergate/core/internal') && !source.includes('dist/internal')) continue;
    for (const match of source.matchAll(
      /import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*'(?:@infergate\/core\/internal|[./]+dist\/internal(?:\.js)?)'/g,
    )) {
      for (const part of match[1]!.split(',')) {
        const name = part
          .replace(/\btype\b/, '')
          .split(/\bas\b/)[0]!
          .trim();
        if (name !== '') names.add(name);
      }
    }
    // `import * as internal from '@infergate/core/internal'`: the names read off it.
    const star = source.match(/import \* as (\w+) from '@infergate\/core\/internal'/);
    if (star) {
      for (const [, name] of source.matchAll(new RegExp(`\\b${star[1]}\\.(\\w+)`, 'g'))) {
        names.add(name!);
      }
    }
  }
  return names;
}

/** The names `src/internal.ts` exports. */
function internalExports(): string[] {
  const source = readFileSync(join(import.meta.dirname, '..', 'src', 'internal.ts'), 'utf8');
  return [...source.matchAll(/export\s*\{([^}]*)\}/g)]
    .flatMap((m) => m[1]!.split(','))
    .map((part) => part.replace(/\btype\b/, '').trim())
    .filter((name) => name !== '');
}

describe('@infergate/core/internal', () => {
  it("exports only names the published packages' sources, redis's tests or the benchmarks import", () => {
    const used = namesImported();
    expect(used.has('buildChatRequest')).toBe(true);
    expect(used.has('budgetId')).toBe(true);
    const unused = internalExports().filter((name) => !used.has(name));
    expect(unused).toEqual([]);
  });
});

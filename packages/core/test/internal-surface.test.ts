import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// `@infergate/core/internal` holds what the workspace's adapters, tests, benchmarks and examples
// import from it, and nothing else (issue 27): a name nobody imports is surface to keep stable
// for no one. Kept without a user today: the service tools' types, the shapes @infergate/mcp's
// tools are described with.
const KEPT_FOR_THE_TOOLS = ['ServiceToolArguments', 'ServiceToolDefinition', 'ServiceToolRequests'];

const repo = join(import.meta.dirname, '..', '..', '..');
const SKIP = new Set(['node_modules', 'dist', '.turbo', '.git', 'coverage']);

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

/** Every name the workspace (outside core's src/) imports from the internal entry. */
function namesImported(): Set<string> {
  const packages = readdirSync(join(repo, 'packages')).filter((name) => !SKIP.has(name));
  const roots = [
    ...packages.flatMap((name) =>
      ['src', 'test', 'bench'].map((dir) => join(repo, 'packages', name, dir)),
    ),
    join(repo, 'bench'),
    join(repo, 'test'),
    join(repo, 'examples'),
  ].filter((root) => !root.startsWith(join(repo, 'packages', 'core', 'src')));
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
  it('exports only names the workspace imports from it', () => {
    const used = namesImported();
    expect(used.has('buildChatRequest')).toBe(true);
    const unused = internalExports().filter(
      (name) => !used.has(name) && !KEPT_FOR_THE_TOOLS.includes(name),
    );
    expect(unused).toEqual([]);
  });
});

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { describe, expect, it } from 'vitest';

// CONTRIBUTING.md's "Where each behaviour lives" is the map a newcomer reads to find a rule: every
// source file of core is in it, under its folder, and the folders are listed in the order imports
// flow. A file added, moved or renamed without updating the map fails here.
const root = join(import.meta.dirname, '..');
const src = join(root, 'src');
const contributing = readFileSync(join(root, '..', '..', 'CONTRIBUTING.md'), 'utf8');

function mapSection(): string {
  const start = contributing.indexOf('## Where each behaviour lives');
  expect(start, 'CONTRIBUTING.md has the section "Where each behaviour lives"').toBeGreaterThan(-1);
  const end = contributing.indexOf('\n## ', start + 1);
  return contributing.slice(start, end === -1 ? undefined : end);
}

/** The rows of the first table whose header starts with `firstColumn`. */
function tableRows(section: string, firstColumn: string): string[][] {
  const lines = section.split('\n');
  const header = lines.findIndex((line) => line.startsWith(`| ${firstColumn} |`));
  expect(header, `a table with a "${firstColumn}" column`).toBeGreaterThan(-1);
  const rows: string[][] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

/** `x/y.ts`-like names in backticks. */
const namedFiles = (cell: string) =>
  [...cell.matchAll(/`([\w/.-]+\.ts)`/g)].map((m) => m[1]!).filter((name) => name !== '');

function sourceFiles(): string[] {
  return readdirSync(src, { recursive: true, encoding: 'utf8' })
    .map((file) => file.split('\\').join('/'))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .sort();
}

/** folder (`client`, `chat/stream`, `.` for the entries) → its files, in the map's order. */
function folders(): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const [folder, , files] of tableRows(mapSection(), 'folder')) {
    const name = folder === '(root)' ? '.' : folder!.replace(/`/g, '').replace(/\/$/, '');
    map.set(name, namedFiles(files ?? ''));
  }
  return map;
}

describe("CONTRIBUTING.md's map of core", () => {
  it('names every source file of packages/core/src, under its own folder', () => {
    const map = folders();
    const named = [...map.values()].flat();
    const missing = sourceFiles().filter((file) => !named.includes(file));
    expect(missing, 'files in no row of the map').toEqual([]);
    const gone = named.filter((file) => !existsSync(join(src, file)));
    expect(gone, 'files in the map that do not exist').toEqual([]);
    for (const [folder, files] of map) {
      for (const file of files) expect(posix.dirname(file), file).toBe(folder);
    }
  });

  it('lists the folders in the order imports flow: each imports only folders below it', () => {
    const order = [...folders().keys()];
    const rank = (file: string) => {
      const dir = posix.dirname(file);
      const top = dir.startsWith('chat/') ? 'chat' : dir;
      return order.indexOf(top);
    };
    const upward: string[] = [];
    for (const file of sourceFiles()) {
      const source = readFileSync(join(src, file), 'utf8');
      for (const [, target] of source.matchAll(/(?:\bfrom|\bimport\()\s*'(\.{1,2}\/[^']+)'/g)) {
        const imported = `${posix.join(posix.dirname(file), target!)}.ts`;
        expect(
          rank(imported),
          `${file} imports ${imported}, in no folder of the map`,
        ).toBeGreaterThan(-1);
        if (rank(imported) < rank(file)) upward.push(`${file} → ${imported}`);
      }
    }
    expect(upward, 'imports from a folder higher in the map').toEqual([]);
  });

  it('answers "where is" for the rules a newcomer asks about, with files that exist', () => {
    const rows = tableRows(mapSection(), 'rule');
    const rules = rows.map(([rule]) => rule!);
    for (const rule of [
      'retry',
      '`Retry-After`',
      'deadline',
      'slot release',
      'redaction',
      'catalog TTL',
      'capability refusal',
      'SSE line limit',
      'embedding batching',
      'fallback detection',
    ]) {
      expect(
        rules.some((cell) => cell.startsWith(rule)),
        `a "where is" row for ${rule}`,
      ).toBe(true);
    }
    const files = rows.flatMap(([, where]) => namedFiles(where ?? ''));
    expect(files.length).toBeGreaterThan(10);
    expect(files.filter((file) => !existsSync(join(src, file)))).toEqual([]);
  });
});

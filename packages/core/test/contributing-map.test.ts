import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { describe, expect, it } from 'vitest';

// CONTRIBUTING.md's "Where each behaviour lives" is the map a newcomer reads to find a rule: one
// subsection per package, each with a `| folder | concern | files |` table naming every source
// file of the package once, under its folder. A file added, moved or renamed without updating the
// map fails here. For core, the folders are also listed in the order imports flow, the map
// answers "where is" for the rules newcomers ask about, and each file's first line cites the
// section of docs/gateway-protocol.md it implements.
const repo = join(import.meta.dirname, '..', '..', '..');
const contributing = readFileSync(join(repo, 'CONTRIBUTING.md'), 'utf8');
const protocol = readFileSync(join(repo, 'docs', 'gateway-protocol.md'), 'utf8');
const PACKAGES = ['core', 'langchain', 'ai-sdk', 'mcp', 'redis', 'emulator'];
const srcOf = (name: string) => join(repo, 'packages', name, 'src');

function mapSection(): string {
  const start = contributing.indexOf('## Where each behaviour lives');
  expect(start, 'CONTRIBUTING.md has the section "Where each behaviour lives"').toBeGreaterThan(-1);
  const end = contributing.indexOf('\n## ', start + 1);
  return contributing.slice(start, end === -1 ? undefined : end);
}

/** The subsection `### \`@infergate/<name>\`` of the map. */
function packageSection(name: string): string {
  const section = mapSection();
  const start = section.indexOf(`\n### \`@infergate/${name}\``);
  expect(start, `a subsection for @infergate/${name}`).toBeGreaterThan(-1);
  const end = section.indexOf('\n### ', start + 1);
  return section.slice(start, end === -1 ? undefined : end);
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
  [...cell.matchAll(/`([\w/.-]+\.tsx?)`/g)].map((m) => m[1]!).filter((name) => name !== '');

/** Every non-test source file under `src`, relative to it. */
function sourceFiles(src: string): string[] {
  return readdirSync(src, { recursive: true, encoding: 'utf8' })
    .map((file) => file.split('\\').join('/'))
    .filter((file) => /\.tsx?$/.test(file) && !/\.test(?:-d)?\.tsx?$/.test(file))
    .sort();
}

/** folder (`client`, `chat/stream`, `.` for the root) → its files, in the map's order. */
function folders(section: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const [folder, , files] of tableRows(section, 'folder')) {
    const name = /^`?\(root\)`?$/.test(folder!)
      ? '.'
      : folder!.replace(/`/g, '').replace(/\/$/, '');
    map.set(name, [...(map.get(name) ?? []), ...namedFiles(files ?? '')]);
  }
  return map;
}

describe.each(PACKAGES)("CONTRIBUTING.md's map of @infergate/%s", (name) => {
  it(`names every source file of packages/${name}/src once, under its own folder`, () => {
    const src = srcOf(name);
    const map = folders(packageSection(name));
    const named = [...map.values()].flat();
    const missing = sourceFiles(src).filter((file) => !named.includes(file));
    expect(missing, 'files in no row of the map').toEqual([]);
    expect(
      named.filter((file, i) => named.indexOf(file) !== i),
      'files in more than one place',
    ).toEqual([]);
    const gone = named.filter((file) => !existsSync(join(src, file)));
    expect(gone, 'files in the map that do not exist').toEqual([]);
    for (const [folder, files] of map) {
      for (const file of files) expect(posix.dirname(file), file).toBe(folder);
    }
  });
});

describe("CONTRIBUTING.md's map of core", () => {
  const src = srcOf('core');
  const core = () => packageSection('core');

  it('lists the folders in the order imports flow: each imports only folders below it', () => {
    const order = [...folders(core()).keys()];
    const rank = (file: string) => {
      const dir = posix.dirname(file);
      const top = dir.startsWith('chat/') ? 'chat' : dir;
      return order.indexOf(top);
    };
    const upward: string[] = [];
    for (const file of sourceFiles(src)) {
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
    const rows = tableRows(core(), 'rule');
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

/**
 * Core's files that implement no section of docs/gateway-protocol.md, each with the reason; every
 * other file's first line is `// docs/gateway-protocol.md §N ...` (CONTRIBUTING.md says so).
 */
const NO_PROTOCOL_SECTION: Record<string, string> = {
  'index.ts': 'an entry: it lists the public API, each name implemented elsewhere',
  'internal.ts': 'an entry: it lists the adapters’ helpers, each implemented elsewhere',
  'otel.ts': 'an entry: the OpenTelemetry mapping',
  'otel/otel-events.ts': 'maps our events to OpenTelemetry’s conventions, not the gateway’s',
  'otel/genai-messages.ts': 'maps chat bodies to the GenAI conventions’ message shape',
  'events/gateway-events.ts': 'the types of the client’s own onEvent events',
  'client/client.ts': 'the facade: each method delegates to the file that implements its rule',
  'http/cors-hint.ts': 'a browser’s CORS behaviour, which the gateway’s protocol does not cover',
};

/** Whether `§N` or `§N.M` names a section of docs/gateway-protocol.md (or item M of §N's list). */
function sectionExists(cited: string): boolean {
  const [major, minor] = cited.split('.');
  const start = protocol.indexOf(`\n## ${major}. `);
  if (start === -1) return false;
  if (minor === undefined) return true;
  const end = protocol.indexOf('\n## ', start + 1);
  const section = protocol.slice(start, end === -1 ? undefined : end);
  return section.includes(`\n### ${major}.${minor} `) || section.includes(`\n${minor}. `);
}

describe('each core source file cites the protocol section it implements', () => {
  const src = srcOf('core');

  it('in its first line, naming sections that exist', () => {
    const uncited: string[] = [];
    const unknown: string[] = [];
    for (const file of sourceFiles(src)) {
      if (file in NO_PROTOCOL_SECTION) continue;
      const first = readFileSync(join(src, file), 'utf8').split('\n', 1)[0]!;
      if (!first.startsWith('// docs/gateway-protocol.md §')) {
        uncited.push(file);
        continue;
      }
      for (const [, cited] of first.matchAll(/§(\d+(?:\.\d+)?)/g)) {
        if (!sectionExists(cited!)) unknown.push(`${file}: §${cited}`);
      }
    }
    expect(uncited, 'files whose first line cites no section').toEqual([]);
    expect(unknown, 'cited sections docs/gateway-protocol.md does not have').toEqual([]);
  });

  it('exempts only files that exist and cite nothing', () => {
    for (const file of Object.keys(NO_PROTOCOL_SECTION)) {
      expect(existsSync(join(src, file)), file).toBe(true);
      const first = readFileSync(join(src, file), 'utf8').split('\n', 1)[0]!;
      expect(first, file).not.toMatch(/^\/\/ docs\/gateway-protocol\.md/);
    }
  });
});

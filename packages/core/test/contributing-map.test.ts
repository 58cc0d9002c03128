import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import ts from 'typescript';
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

/** What one file declares: the names a row of the map may point at in it. */
interface Declared {
  /**
   * Its module-level declarations (functions, classes, variables, interfaces, types, enums, and
   * the names it exports), the functions and classes declared inside its functions, and its
   * classes' private members (`#name`).
   */
  names: Set<string>;
  /** A class's or interface's members, by its name, for `Class.member` and `Class#member`. */
  members: Map<string, Set<string>>;
}

function declaredIn(path: string): Declared {
  const sf = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const names = new Set<string>();
  const members = new Map<string, Set<string>>();
  const bind = (name: ts.BindingName) => {
    if (ts.isIdentifier(name)) names.add(name.text);
    else
      for (const element of name.elements) if (!ts.isOmittedExpression(element)) bind(element.name);
  };
  const addMembers = (owner: string, list: ts.NodeArray<ts.ClassElement | ts.TypeElement>) => {
    const own = members.get(owner) ?? new Set<string>();
    members.set(owner, own);
    for (const { name } of list) {
      if (name !== undefined && (ts.isIdentifier(name) || ts.isPrivateIdentifier(name))) {
        own.add(name.text);
        if (ts.isPrivateIdentifier(name)) names.add(name.text);
      }
    }
  };
  const visit = (node: ts.Node, moduleLevel: boolean) => {
    if (ts.isFunctionDeclaration(node) && node.name) names.add(node.name.text);
    if (ts.isClassDeclaration(node) && node.name) {
      names.add(node.name.text);
      addMembers(node.name.text, node.members);
    }
    if (moduleLevel) {
      if (ts.isInterfaceDeclaration(node)) {
        names.add(node.name.text);
        addMembers(node.name.text, node.members);
      }
      if (ts.isTypeAliasDeclaration(node) || ts.isEnumDeclaration(node)) names.add(node.name.text);
      if (ts.isVariableStatement(node))
        for (const d of node.declarationList.declarations) bind(d.name);
      if (
        ts.isExportDeclaration(node) &&
        node.exportClause &&
        ts.isNamedExports(node.exportClause)
      ) {
        for (const specifier of node.exportClause.elements) names.add(specifier.name.text);
      }
    }
    ts.forEachChild(node, (child) => visit(child, false));
  };
  for (const statement of sf.statements) visit(statement, true);
  return { names, members };
}

/** A code name in backticks: `name`, `#name`, `Class.member` or `Class#member` (not a file). */
const CODE_NAME = /^#?[A-Za-z_$][\w$]*(?:[.#][A-Za-z_$][\w$]*)?$/;

/**
 * The names a row gives that the package's source declares, each not declared in any file the row
 * names (there, a class's or interface's member of that name counts too). Checked: a name declared
 * at a module's top level (or a function or class declared inside a function), a private
 * `#member`, and a `Class.member` / `Class#member` of one of the package's classes or interfaces. Not checked: names the package declares nowhere (option and event fields,
 * error codes, values, other packages' names), and a public member named alone (`invoke`,
 * `acquireIfFree`): the vocabulary of the interfaces the package implements, and a field's name is
 * often some class's property too.
 */
function misplacedNames(
  row: string[],
  folder: string | undefined,
  declared: Map<string, Declared>,
): string[] {
  const text = row.join(' | ');
  const files = namedFiles(text)
    .flatMap((file) => (folder === undefined ? [file] : [file, posix.join(folder, file)]))
    .filter((file) => declared.has(file));
  const inRow = files.map((file) => declared.get(file)!);
  const anywhere = [...declared.values()];
  const misplaced: string[] = [];
  for (const [, name] of text.matchAll(/`([^`]+)`/g)) {
    if (!CODE_NAME.test(name!) || /\.(?:tsx?|jsx?|json|md)$/.test(name!)) continue;
    const qualified = /^([^.#]+)[.#](.+)$/.exec(name!);
    if (qualified === null) {
      if (!anywhere.some((d) => d.names.has(name!))) continue;
      const inFile = (d: Declared) =>
        d.names.has(name!) || [...d.members.values()].some((own) => own.has(name!));
      if (!inRow.some(inFile)) misplaced.push(name!);
      continue;
    }
    const [, owner, member] = qualified;
    if (!anywhere.some((d) => d.members.has(owner!))) continue;
    const has = (d: Declared) => {
      const own = d.members.get(owner!);
      return own !== undefined && (own.has(member!) || own.has(`#${member}`));
    };
    if (!inRow.some(has)) misplaced.push(name!);
  }
  return misplaced;
}

describe("the map's name check", () => {
  it('flags a declared name its row places wrongly, not a field or a value', () => {
    const src = srcOf('core');
    const declared = new Map(
      ['call/call-options.ts', 'call/stall-timer.ts'].map((file) => [
        file,
        declaredIn(join(src, file)),
      ]),
    );
    const row = [
      'stall timeouts',
      '`StallTimer` / `stallError` in `call/stall-timer.ts`, `checkCallOptions` too; ' +
        "`StallTimer.nothing`; `fallbackModels`, `timeout`, `'auto'`",
    ];
    expect(misplacedNames(row, undefined, declared)).toEqual([
      'checkCallOptions',
      'StallTimer.nothing',
    ]);
  });
});

describe.each(PACKAGES)("the names in CONTRIBUTING.md's map of @infergate/%s", (name) => {
  it("are declared in the files of their row (each name in backticks the package's source declares)", () => {
    const src = srcOf(name);
    const declared = new Map(sourceFiles(src).map((file) => [file, declaredIn(join(src, file))]));
    const section = packageSection(name);
    const misplaced: string[] = [];
    for (const row of tableRows(section, 'folder')) {
      const folder = /^`?\(root\)`?$/.test(row[0]!)
        ? '.'
        : row[0]!.replace(/`/g, '').replace(/\/$/, '');
      for (const found of misplacedNames(row, folder, declared)) {
        misplaced.push(`${row[0]}: \`${found}\``);
      }
    }
    if (section.includes('\n| rule |')) {
      for (const row of tableRows(section, 'rule')) {
        for (const found of misplacedNames(row, undefined, declared)) {
          misplaced.push(`${row[0]}: \`${found}\``);
        }
      }
    }
    expect(misplaced, 'names not declared in any file their row names').toEqual([]);
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
 * Each package's files that implement no section of docs/gateway-protocol.md, each with the
 * reason; every other source file's first line is `// docs/gateway-protocol.md §N ...`
 * (CONTRIBUTING.md says so).
 */
const NO_PROTOCOL_SECTION: Record<string, Record<string, string>> = {
  core: {
    'index.ts': 'an entry: it lists the public API, each name implemented elsewhere',
    'internal.ts': 'an entry: it lists the adapters’ helpers, each implemented elsewhere',
    'otel.ts': 'an entry: the OpenTelemetry mapping',
    'otel/otel-events.ts': 'maps our events to OpenTelemetry’s conventions, not the gateway’s',
    'otel/genai-messages.ts': 'maps chat bodies to the GenAI conventions’ message shape',
    'events/gateway-events.ts': 'the types of the client’s own onEvent events',
    'client/client.ts': 'the facade: each method delegates to the file that implements its rule',
    'http/cors-hint.ts': 'a browser’s CORS behaviour, which the gateway’s protocol does not cover',
  },
  'ai-sdk': {
    'index.ts': 'an entry (ai@7): it lists the public API, each name implemented elsewhere',
    'v6.ts': 'an entry (ai@6): it lists the public API, each name implemented elsewhere',
    'tools.ts': 'an entry: the service tools alone, implemented in tools/',
    'common-exports.ts': 'what both provider entries export, each name implemented elsewhere',
  },
  langchain: {
    'index.ts': 'an entry: it lists the public API, each name implemented elsewhere',
    'tools.ts': 'an entry: the service tools, implemented in tools/',
    'loaders.ts': 'an entry: the document loaders, implemented in loaders/',
  },
  redis: {
    'index.ts': 'an entry: it lists the public API, each name implemented elsewhere',
    'redis-connection.ts': 'Redis’s connections, bounds and reconnecting, not the gateway’s',
    'redis-access.ts': 'whether Redis’s ACL user and TLS certificate let the budget in',
    'redis-outage.ts': 'a known Redis outage and its end',
    'scheme-check.ts': 'which scheme the server at the URL speaks: Redis’s protocols',
  },
  mcp: {
    'index.ts': 'an entry: it lists the public API, each name implemented elsewhere',
    'cli.ts': 'the command’s process: signals and exit codes',
    'http-sessions.ts': 'the HTTP transport’s sessions: MCP’s, not the gateway’s',
    'http-access.ts': 'the HTTP transport’s Host, Origin and token checks: MCP’s',
    'allowed-roots.ts': 'which local files a media argument may read',
    'url-download.ts': 'downloading a media argument’s URL, never from the gateway',
    'url-guard.ts': 'which hosts a media download may reach',
    'address-class.ts': 'the address classes the URL guard tells apart',
  },
  emulator: {
    'index.ts': 'an entry: it lists the public API, each name implemented elsewhere',
    'msw.ts': 'an entry: the emulator as msw handlers, each request passed to its fetch handler',
    'testing/index.ts': 'an entry: the test kit, each name implemented beside it',
    'testing/caught.ts': 'the error a call under test fails with, whatever the call',
    'testing/redis.ts': 'a throwaway redis-server for tests, not the gateway',
    'cli.ts': 'the command’s process: the server started, its address printed, signals',
    'cli-args.ts': 'the command’s arguments',
    'demo.ts': 'a demo: it calls the emulator as a client would',
    'cors.ts': 'a browser’s CORS, which the gateway’s protocol does not cover',
  },
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

describe.each(PACKAGES)(
  'each source file of @infergate/%s cites the protocol section it implements',
  (name) => {
    const src = srcOf(name);
    const exempt = NO_PROTOCOL_SECTION[name] ?? {};

    it('in its first line, naming sections that exist', () => {
      const uncited: string[] = [];
      const unknown: string[] = [];
      for (const file of sourceFiles(src)) {
        if (file in exempt) continue;
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
      for (const file of Object.keys(exempt)) {
        expect(existsSync(join(src, file)), file).toBe(true);
        const first = readFileSync(join(src, file), 'utf8').split('\n', 1)[0]!;
        expect(first, file).not.toMatch(/^\/\/ docs\/gateway-protocol\.md/);
      }
    });
  },
);

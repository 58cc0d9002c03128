import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import { describe, expect, it } from 'vitest';

// CONTRIBUTING.md is the map a newcomer reads: a table of folders per package and the answers to
// "where is X decided?". It names folders, not every file, so a file added or renamed inside a
// folder needs no edit there; what is checked is that every folder and every file it names exists,
// that every folder of a package is on the map, and (for core) that the folders are listed in the
// order imports flow. Each source file's first line cites the section of docs/gateway-protocol.md
// it implements (below).
const repo = join(import.meta.dirname, '..', '..', '..');
const contributing = readFileSync(join(repo, 'CONTRIBUTING.md'), 'utf8');
const protocol = readFileSync(join(repo, 'docs', 'gateway-protocol.md'), 'utf8');
const PACKAGES = ['core', 'langchain', 'ai-sdk', 'mcp', 'redis', 'emulator'];
const FOLDER_TABLES = ['core', 'langchain', 'ai-sdk', 'emulator'];
const srcOf = (name: string) => join(repo, 'packages', name, 'src');

/** The text from `heading` to the next heading of the same level or higher. */
function section(heading: string): string {
  const start = contributing.indexOf(`\n${heading}\n`);
  expect(start, `CONTRIBUTING.md has "${heading}"`).toBeGreaterThan(-1);
  const level = heading.split(' ')[0]!;
  const next = contributing.slice(start + 1).search(new RegExp(`\\n#{1,${level.length}} `));
  return contributing.slice(start, next === -1 ? undefined : start + 1 + next);
}

/** The first cells of the table whose header starts with `| folder |`, as folder names. */
function mappedFolders(text: string): string[] {
  const lines = text.split('\n');
  const header = lines.findIndex((line) => line.startsWith('| folder |'));
  expect(header, 'a folder table').toBeGreaterThan(-1);
  const rows: string[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const cell = line.split(' | ')[0]!.slice(1).trim();
    rows.push(cell === '(root)' ? '.' : cell.replace(/`/g, '').replace(/\/$/, ''));
  }
  return rows;
}

/** Every folder under `src`, relative to it (`chat/stream`). */
function foldersOf(src: string): string[] {
  return readdirSync(src, { recursive: true, encoding: 'utf8' })
    .map((entry) => entry.split('\\').join('/'))
    .filter((entry) => statSync(join(src, entry)).isDirectory())
    .sort();
}

/** Every non-test source file under `src`, relative to it. */
function sourceFiles(src: string): string[] {
  return readdirSync(src, { recursive: true, encoding: 'utf8' })
    .map((file) => file.split('\\').join('/'))
    .filter((file) => /\.tsx?$/.test(file) && !/\.test(?:-d)?\.tsx?$/.test(file))
    .sort();
}

/** `x/y.ts`-like names in backticks. */
const namedFiles = (text: string) =>
  [...text.matchAll(/`([\w/.-]+\.(?:tsx?|mjs|sh|json|yml))`/g)].map((match) => match[1]!);

describe('CONTRIBUTING.md', () => {
  it('is short enough to read in one sitting (at most 150 lines)', () => {
    expect(contributing.trimEnd().split('\n').length).toBeLessThanOrEqual(150);
  });

  it.each(FOLDER_TABLES)(
    'maps every folder of @infergate/%s, and only folders that exist',
    (name) => {
      const mapped = mappedFolders(section(`### \`@infergate/${name}\``));
      expect([...mapped].sort()).toEqual(['.', ...foldersOf(srcOf(name))].sort());
    },
  );

  it('answers "where is X decided?" with files that exist', () => {
    const answers = section('## Where is X decided?');
    const [core, packages, repository] = answers.split('\n| question | where |').slice(1);
    const missing = [
      ...namedFiles(core!).map((file) => join(srcOf('core'), file)),
      ...namedFiles(packages!).map((file) =>
        join(repo, 'packages', file.split('/')[0]!, 'src', ...file.split('/').slice(1)),
      ),
      ...namedFiles(repository!).map((file) => join(repo, file)),
    ].filter((path) => !existsSync(path));
    expect(missing).toEqual([]);
    expect(namedFiles(answers).length).toBeGreaterThan(30);
  });

  it("lists core's folders in the order imports flow: each imports only folders below it", () => {
    const order = mappedFolders(section('### `@infergate/core`'));
    const src = srcOf('core');
    // A subfolder is part of its folder (`chat/stream/` of `chat/`): ranked as its top folder.
    const rank = (file: string) => order.indexOf(posix.dirname(file).split('/')[0]!);
    const upward: string[] = [];
    for (const file of sourceFiles(src)) {
      const source = readFileSync(join(src, file), 'utf8');
      for (const [, target] of source.matchAll(/(?:\bfrom|\bimport\()\s*'(\.{1,2}\/[^']+)'/g)) {
        const imported = `${posix.join(posix.dirname(file), target!)}.ts`;
        if (rank(imported) < rank(file)) upward.push(`${file} → ${imported}`);
      }
    }
    expect(upward, 'imports from a folder higher in the map').toEqual([]);
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
    'tls-settings.ts':
      'whether Node can build a TLS context from the budget’s settings, not the gateway’s',
    'redis-access.ts': 'whether Redis’s ACL user and TLS certificate let the budget in',
    'redis-outage.ts': 'a known Redis outage and its end',
    'scheme-check.ts': 'which scheme the server at the URL speaks: Redis’s protocols',
  },
  mcp: {
    'index.ts': 'an entry: it lists the public API, each name implemented elsewhere',
    'cli.ts': 'the command’s process: signals and exit codes',
    'http-sessions.ts': 'the HTTP transport’s sessions: MCP’s, not the gateway’s',
    'http-access.ts': 'the HTTP transport’s Host, Origin and token checks: MCP’s',
    'http-cors.ts': 'the HTTP transport’s answers to browsers of allowed origins: MCP’s',
    'http-options.ts': 'the HTTP transport’s option values: MCP’s',
    'bearer-token.ts': 'the rule for the server’s own bearer token: MCP’s, not the gateway’s key',
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

import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type RunningEmulator, startEmulator } from '@infergate/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runNode } from '../helpers/run';

/**
 * Every ```ts snippet of the READMEs is type-checked under strict tsc, as users copy them. A snippet that
 * continues an earlier one may use the context its README sets up (`infergate`, `gateway`,
 * `model`, …): those names are declared for it, typed from the packages, unless the snippet
 * imports or defines them itself.
 *
 * A snippet fenced ```ts run is also run, as written, against the emulator's real HTTP server
 * (named by INFERGATE_BASE_URL / INFERGATE_API_KEY, as a reader's gateway would be): it must be
 * self-contained, end with exit code 0 and print nothing on stderr (no warning either).
 */
const READMES = ['README.md', 'ai-sdk', 'core', 'emulator', 'langchain', 'redis', 'mcp'].map(
  (name) => (name.endsWith('.md') ? name : `packages/${name}/README.md`),
);

/** Names a README's snippets may use without setting up, and their declarations. */
const CONTEXT: Record<string, string> = {
  infergate: "declare const infergate: import('@infergate/ai-sdk').GatewayProvider;",
  gateway: "declare const gateway: import('@infergate/core').GatewayClient;",
  model: "declare const model: import('@infergate/langchain').GatewayChatModel;",
  GatewayChatModel:
    "declare const GatewayChatModel: typeof import('@infergate/langchain').GatewayChatModel;",
  generateText: "declare const generateText: typeof import('ai').generateText;",
  streamText: "declare const streamText: typeof import('ai').streamText;",
  z: "declare const z: typeof import('zod').z;",
  requiredCapabilities:
    "declare const requiredCapabilities: typeof import('@infergate/core').requiredCapabilities;",
  isGatewayError: "declare const isGatewayError: typeof import('@infergate/core').isGatewayError;",
  request: "declare const request: import('@infergate/core').ChatRequest;",
  messages: "declare const messages: import('@infergate/core').ChatMessage[];",
  tools: "declare const tools: import('@infergate/core').ChatTool[];",
  texts: 'declare const texts: string[];',
  chunks: 'declare const chunks: string[];',
  documents: 'declare const documents: string[];',
  ukrainianDocs: "declare const ukrainianDocs: import('@langchain/core/documents').Document[];",
  Document: "type Document = import('@langchain/core/documents').Document;",
  file: 'declare const file: File;',
  bytes: 'declare const bytes: Uint8Array;',
  pngBytes: 'declare const pngBytes: Uint8Array;',
  wavBytes: 'declare const wavBytes: Uint8Array;',
  loadUpload: 'declare function loadUpload(name: string): Promise<Uint8Array>;',
  beforeAll: "declare const beforeAll: typeof import('vitest').beforeAll;",
  afterEach: "declare const afterEach: typeof import('vitest').afterEach;",
  afterAll: "declare const afterAll: typeof import('vitest').afterAll;",
  FaultName: "type FaultName = import('@infergate/emulator').FaultName;",
  EndpointName: "type EndpointName = import('@infergate/emulator').EndpointName;",
  Usage: "type Usage = import('@infergate/core').Usage;",
  docs: "declare const docs: import('@langchain/core/documents').Document[];",
  embeddings: "declare const embeddings: import('@infergate/langchain').GatewayEmbeddings;",
  weather: "declare const weather: import('@langchain/core/tools').DynamicStructuredTool;",
  baseURL: 'declare const baseURL: string;',
  apiKey: 'declare const apiKey: string;',
};

/** Where a README means something else by a name. */
const CONTEXT_BY_README: Record<string, Record<string, string>> = {
  'packages/ai-sdk/README.md': {
    gateway: "declare const gateway: typeof import('@infergate/ai-sdk').gateway;",
  },
};

interface Snippet {
  file: string;
  line: number;
  code: string;
  /** Fenced ```ts run: executed as well as type-checked. */
  run: boolean;
}

function snippets(): Snippet[] {
  const found: Snippet[] = [];
  for (const file of READMES) {
    const text = readFileSync(join(repoRoot, file), 'utf8');
    for (const match of text.matchAll(/^```ts( run)?\n([\s\S]*?)^```/gm)) {
      const line = text.slice(0, match.index).split('\n').length + 1;
      found.push({ file, line, code: match[2] ?? '', run: match[1] !== undefined });
    }
  }
  return found;
}

/** The declarations of the README context a snippet uses without setting it up. */
function contextFor({ file, code }: Snippet): string[] {
  const own = new Set<string>();
  for (const m of code.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}/g))
    for (const name of m[1]!.split(','))
      own.add(
        name
          .trim()
          .split(/\s+as\s+/)
          .pop()!
          .replace(/^type\s+/, ''),
      );
  for (const m of code.matchAll(/import\s+(\w+)\s+from/g)) own.add(m[1]!);
  for (const m of code.matchAll(/\b(?:const|let|var|function|class|type|interface)\s+(\w+)/g))
    own.add(m[1]!);
  for (const m of code.matchAll(/\b(?:const|let|var)\s+\{([^}]*)\}/g))
    for (const part of m[1]!.split(',')) own.add(part.split(':').pop()!.trim());
  // Names inside strings (import paths, prompts) are not uses.
  const outsideStrings = code.replace(/'[^'\n]*'|"[^"\n]*"|`[^`]*`/g, "''");
  return Object.entries({ ...CONTEXT, ...CONTEXT_BY_README[file] })
    .filter(([name]) => !own.has(name) && new RegExp(`\\b${name}\\b`).test(outsideStrings))
    .map(([, declaration]) => declaration);
}

/** The snippet with the context it uses and does not set up itself, as a module. */
function compilable(snippet: Snippet): string {
  return `${contextFor(snippet).join('\n')}\n${snippet.code}\nexport {};\n`;
}

const where = (snippet: Snippet) => `${snippet.file}:${snippet.line}`;

describe('README snippets', () => {
  it('every ```ts snippet type-checks under strict tsc (TypeScript 7)', () => {
    const dir = join(repoRoot, 'test/.snippets');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(join(dir, 'src'), { recursive: true });
    const all = snippets();
    const names = all.map((snippet, i) => {
      const name = `${snippet.file.replace(/[/.]/g, '_')}_${snippet.line}.ts`;
      writeFileSync(join(dir, 'src', name), compilable(snippet));
      return [name, `${snippet.file}:${snippet.line}`, i] as const;
    });
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'es2022',
          module: 'esnext',
          moduleResolution: 'bundler',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
          lib: ['es2023', 'dom'],
        },
        include: ['src/*.ts'],
      }),
    );
    const tsc = spawnSync(
      process.execPath,
      [join(repoRoot, 'tools/typescript-native/tsc-native.mjs'), '-p', 'tsconfig.json'],
      { cwd: dir, encoding: 'utf8' },
    );
    // Name each error by its README and line, not by the generated file.
    let report = tsc.stdout;
    for (const [name, where] of names) report = report.replaceAll(`src/${name}`, where);
    if (tsc.status === 0) rmSync(dir, { recursive: true, force: true }); // kept to inspect a failure
    expect(all.length).toBeGreaterThan(40);
    expect(report.trim(), report).toBe('');
    expect(tsc.status).toBe(0);
  }, 120_000);
});

describe('README snippets fenced ```ts run', () => {
  const runnable = snippets().filter((snippet) => snippet.run);
  // Inside test/, so the snippets' imports resolve to this workspace's packages.
  const dir = join(repoRoot, 'test/.snippets/run');
  let gateway: RunningEmulator;
  let failed = false;

  beforeAll(async () => {
    gateway = await startEmulator({ port: 0 });
    mkdirSync(dir, { recursive: true });
  });
  afterAll(async () => {
    await gateway?.close();
    if (!failed) rmSync(dir, { recursive: true, force: true }); // kept to inspect a failure
  });

  it('the quick starts of the READMEs are among them', () => {
    const files = new Set(runnable.map((snippet) => snippet.file));
    expect([...files].sort()).toEqual(
      [
        'README.md',
        'packages/ai-sdk/README.md',
        'packages/core/README.md',
        'packages/emulator/README.md',
        'packages/langchain/README.md',
        'packages/mcp/README.md',
      ].sort(),
    );
  });

  it.each(runnable.map((snippet) => [where(snippet), snippet] as const))(
    '%s runs against the emulator',
    async (_, snippet) => {
      failed = true;
      // Run as written, with no README context declared: a name it does not set up fails here.
      const name = `${snippet.file.replace(/[/.]/g, '_')}_${snippet.line}.ts`;
      writeFileSync(join(dir, name), `${snippet.code}\nexport {};\n`);
      gateway.emulator.resetCounters();
      const result = await runNode(
        dir,
        ['--experimental-strip-types', '--disable-warning=ExperimentalWarning', name],
        { INFERGATE_BASE_URL: gateway.url, INFERGATE_API_KEY: gateway.apiKey },
      );
      expect(result.code, result.output).toBe(0);
      expect(result.stderr.trim(), result.stderr).toBe('');
      failed = false;
    },
    60_000,
  );
});

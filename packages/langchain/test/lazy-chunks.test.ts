import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'tsup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// What a chat-only app never runs is loaded with `import()` on first use: structured output (the
// binding and the parser) and LangChain's content-block events. The chat-only app is bundled with
// code splitting (esbuild, through tsup) from this package's source, the frameworks and core
// external, as B5 bundles it: its start-up chunks (the entry and what it imports statically) hold
// none of the moved modules. With a lazy chunk missing (a partial deploy; a chunk request failing
// in a browser) the call that needs it fails with a typed `client_code_unavailable`, the loader's
// error as its cause, and the same model (the same runnable) succeeds once the chunk is back. Each
// case runs in a fresh Node process, so Node's own module loader does the loading; the bundle sits
// under the package (`.cache/`, ignored by git) so that `@langchain/core` resolves from it.
const root = join(import.meta.dirname, '..');
const MOVED = [
  'src/chat_models/structured-output-runnable.ts',
  'src/chat_models/structured-output-parser.ts',
  'src/converters/convert-to-chat-model-events.ts',
];
const CHAT_ONLY_APP = `import { GatewayChatModel } from ${JSON.stringify(join(root, 'src', 'index.ts'))};
const model = new GatewayChatModel({ model: 'community/general' });
console.log((await model.invoke('Hello')).content);`;

interface Metafile {
  outputs: Record<
    string,
    { imports: { path: string; kind: string }[]; inputs: Record<string, unknown> }
  >;
}

let workDir: string;
let outDir: string;
let chunks: string[];
let metafile: Metafile;

beforeAll(async () => {
  await mkdir(join(root, '.cache'), { recursive: true });
  workDir = await mkdtemp(join(root, '.cache', 'lazy-chunks-'));
  outDir = join(workDir, 'out');
  await writeFile(join(workDir, 'app.mjs'), CHAT_ONLY_APP);
  await build({
    entry: { app: join(workDir, 'app.mjs'), index: join(root, 'src', 'index.ts') },
    outDir,
    format: ['esm'],
    platform: 'neutral',
    target: 'es2022',
    splitting: true,
    external: [/^@langchain\//, /^zod(\/|$)/, /^@infergate\/core(\/|$)/],
    metafile: true,
    dts: false,
    sourcemap: false,
    silent: true,
    config: false,
  });
  chunks = await readdir(outDir);
  metafile = JSON.parse(await readFile(join(outDir, 'metafile-esm.json'), 'utf8'));
}, 60_000);

afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

/** The source files (relative to the package) bundled into the given outputs. */
function inputsOf(outputs: string[]): string[] {
  return outputs.flatMap((output) =>
    Object.keys(metafile.outputs[output]!.inputs)
      .filter((input) => input.includes('src/'))
      .map((input) => input.slice(input.lastIndexOf('src/'))),
  );
}

/** The outputs the chat-only app loads at start: its entry and what that imports statically. */
function startupOutputs(): string[] {
  const entry = Object.keys(metafile.outputs).find((path) => path.endsWith('/app.js'))!;
  const loaded: string[] = [];
  const visit = (path: string) => {
    if (loaded.includes(path)) return;
    loaded.push(path);
    for (const { path: next, kind } of metafile.outputs[path]!.imports) {
      if (kind === 'import-statement' && metafile.outputs[next]) visit(next);
    }
  };
  visit(entry);
  return loaded;
}

/** The file of the lazy chunk named after `module` (`convert-to-chat-model-events-XXXX.js`). */
function chunkOf(module: string): string {
  const file = chunks.find((name) => name.startsWith(`${module}-`) && name.endsWith('.js'));
  expect(file, `a lazy chunk for ${module}`).toBeDefined();
  return file!;
}

interface Outcome {
  ok: boolean;
  code?: string;
  isGatewayError?: boolean;
  isRetryable?: boolean;
  causeCode?: string;
  message?: string;
  result?: unknown;
}

/**
 * Runs `call` (the body of an async function given `lc`, the bundled package, and the `model`
 * made by `setup`) in a fresh process on the split bundle: once with `missing` chunks moved away
 * (then `whileMissing`, when given), once with them back.
 */
async function withChunksMissing(
  missing: string[],
  script: { setup?: string; call: string; whileMissing?: string },
): Promise<{ missing: Outcome; restored: Outcome; whileMissing?: Outcome }> {
  const testingURL = import.meta.resolve('@infergate/emulator/testing');
  const source = `
    import { rename } from 'node:fs/promises';
    const lc = await import(${JSON.stringify(pathToFileURL(join(outDir, 'index.js')).href)});
    const { emulate } = await import(${JSON.stringify(testingURL)});
    const gateway = await emulate({ baseURL: 'https://lazy-chunks.test/v1' });
    const model = new lc.GatewayChatModel('community/general', {
      ...gateway.connection });
    const PERSON = { title: 'person', type: 'object',
      properties: { name: { type: 'string' }, age: { type: 'number' } }, required: ['name', 'age'] };
    ${script.setup ?? ''}
    const outcome = (run) => run().then(
      (result) => ({ ok: true, result }),
      (error) => ({
        ok: false,
        code: error?.code,
        isGatewayError: lc.isGatewayError(error),
        isRetryable: error?.isRetryable,
        causeCode: error?.cause?.code,
        message: String(error?.message),
      }),
    );
    const chunks = ${JSON.stringify(missing.map((chunk) => join(outDir, chunk)))};
    for (const chunk of chunks) await rename(chunk, chunk + '.gone');
    let missing, whileMissing;
    try {
      missing = await outcome(async () => { ${script.call} });
      ${script.whileMissing ? `whileMissing = await outcome(async () => { ${script.whileMissing} });` : ''}
    } finally {
      for (const chunk of chunks) await rename(chunk + '.gone', chunk);
    }
    const restored = await outcome(async () => { ${script.call} });
    process.stdout.write(JSON.stringify({ missing, restored, whileMissing }));
  `;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--input-type=module', '-e', source],
    // A hang guard: a fresh Node importing a bundle and the emulator took over 50 s on 2 cores
    // oversubscribed ~15× (load 30); the tests that call this allow 120 s.
    { timeout: 110_000, cwd: root },
  );
  return JSON.parse(stdout);
}

/** The typed error of a missing part of this package. */
function expectTyped(outcome: Outcome | undefined, part: string): void {
  expect(outcome).toMatchObject({
    ok: false,
    code: 'client_code_unavailable',
    isGatewayError: true,
    isRetryable: true,
    causeCode: 'ERR_MODULE_NOT_FOUND',
  });
  expect(outcome?.message).toContain(`Part of @infergate/langchain could not be loaded (${part})`);
}

describe('the chat-only app bundle', () => {
  it('loads none of the moved modules at start (they are in lazy chunks of their own)', () => {
    const startup = inputsOf(startupOutputs());
    expect(startup).toContain('src/chat_models/gateway-chat-model.ts');
    for (const moved of MOVED) expect(startup).not.toContain(moved);
    // They are bundled, each in a chunk the app does not load at start.
    const lazy = inputsOf(Object.keys(metafile.outputs).filter((path) => path.endsWith('.js')));
    for (const moved of MOVED) expect(lazy).toContain(moved);
  });

  it('bundles exactly these lazily loaded parts', async () => {
    const lazy = new Set<string>();
    for (const file of chunks.filter((name) => name.endsWith('.js'))) {
      const code = await readFile(join(outDir, file), 'utf8');
      for (const m of code.matchAll(/import\("\.\/([\w-]+?)-[A-Z\d]+\.js"\)/g)) {
        lazy.add(m[1] ?? '');
      }
    }
    // One boundary (utils/load-lazily.ts): both parts in one chunk.
    expect([...lazy].sort()).toEqual(['later-parts']);
  });
});

describe('a split bundle with a lazy chunk missing, then restored', { timeout: 120_000 }, () => {
  it('a plain chat (invoke, stream, building bound and structured runnables) needs neither', async () => {
    const { missing } = await withChunksMissing([chunkOf('later-parts')], {
      call: `model.withStructuredOutput(PERSON, { method: 'jsonSchema' });
          model.withStructuredOutput(PERSON);
          model.bindTools([{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }]);
          let streamed = '';
          for await (const chunk of await model.stream('hi')) streamed += chunk.content;
          return [(await model.invoke('hi')).content, streamed];`,
    });
    expect(missing).toEqual({ ok: true, result: ['Echo: hi', 'Echo: hi'] });
  });

  it('structured output: typed (a method given or not), the same runnables recover', async () => {
    const { missing, whileMissing, restored } = await withChunksMissing([chunkOf('later-parts')], {
      setup: `const known = model.withStructuredOutput(PERSON, { method: 'jsonSchema' });
          const byDefault = model.withStructuredOutput(PERSON);`,
      call: `const a = await known.invoke('describe "Ada"');
          const b = await byDefault.invoke('describe "Ada"');
          return [typeof a.name, typeof a.age, typeof b.name, typeof b.age];`,
      whileMissing: `return byDefault.invoke('describe "Ada"');`,
    });
    expectTyped(missing, 'structured output and content-block events');
    expectTyped(whileMissing, 'structured output and content-block events');
    expect(restored).toEqual({ ok: true, result: ['string', 'number', 'string', 'number'] });
  });

  it('structured output streamed: typed, then partial objects from the same runnable', async () => {
    const { missing, restored } = await withChunksMissing([chunkOf('later-parts')], {
      setup: `const structured = model.withStructuredOutput(PERSON, { method: 'jsonSchema' });`,
      call: `const parts = [];
        for await (const part of await structured.stream('describe "Ada"')) parts.push(part);
        return typeof parts.at(-1).name;`,
    });
    expectTyped(missing, 'structured output and content-block events');
    expect(restored).toEqual({ ok: true, result: 'string' });
  });

  it('the content-block events (streamEvents without a version): typed, then the answer', async () => {
    const { missing, restored } = await withChunksMissing([chunkOf('later-parts')], {
      call: `return (await model.streamEvents('hi')).text;`,
    });
    expectTyped(missing, 'structured output and content-block events');
    expect(restored).toEqual({ ok: true, result: 'Echo: hi' });
  });
});

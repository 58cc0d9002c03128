import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'tsup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// What a chat-only app never runs is loaded on first use: the embedding and transcription models'
// calls, the service helpers and the service tools' checks and runs. Two builds of the source with
// code splitting, in a directory of the test's own inside the package (so that Node finds the
// frameworks and core, which stay external): a chat-only app, whose start-up chunks (the entry and
// what it imports statically) must hold none of the moved modules; and the package's main entry,
// run in fresh Node processes with a lazy chunk moved away: the call that needs it fails with a
// typed error (core's `client_code_unavailable` mapped as the AI SDK's `APICallError`), chat calls
// never notice, and the same provider succeeds once the chunk is back (nothing cached as failed).
const root = join(import.meta.dirname, '..');
let dir: string;
let libChunks: string[];

/** The modules that leave the start-up chunk, each with a string only its code holds. */
const MOVED: Record<string, string> = {
  'src/embedding/embed-values.ts': 'prompt_tokens',
  'src/embedding/gateway-embedding-options.ts': '"document" or "query"',
  'src/transcription/transcribe-audio.ts': 'The gateway returns segments only when its engine does',
  'src/transcription/gateway-transcription-options.ts': 'a non-empty language code',
  'src/tools/service-calls.ts': 'image_base64',
};

const CHAT_APP = `import { streamText } from 'ai';
import { gateway } from '../src/index';
const result = streamText({ model: gateway('community/general'), prompt: 'Hello' });
for await (const text of result.textStream) console.log(text);
`;

const common = {
  format: ['esm'] as 'esm'[],
  platform: 'neutral' as const,
  target: 'es2022',
  splitting: true,
  dts: false,
  sourcemap: false,
  silent: true,
  config: false,
};

beforeAll(async () => {
  dir = await mkdtemp(join(root, '.lazy-chunks-'));
  await writeFile(join(dir, 'chat-app.ts'), CHAT_APP);
  await build({
    ...common,
    entry: { 'chat-app': join(dir, 'chat-app.ts') },
    outDir: join(dir, 'app'),
    metafile: true,
  });
  await build({
    ...common,
    entry: { index: join(root, 'src', 'index.ts') },
    outDir: join(dir, 'lib'),
  });
  libChunks = await readdir(join(dir, 'lib'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Metafile {
  inputs: Record<string, unknown>;
  outputs: Record<
    string,
    { inputs: Record<string, unknown>; imports: { path: string; kind: string }[] }
  >;
}

describe("a chat-only app's start-up chunks", () => {
  it('hold none of the modules a chat-only app never runs; each is in a lazy chunk', async () => {
    const meta = JSON.parse(
      await readFile(join(dir, 'app', 'metafile-esm.json'), 'utf8'),
    ) as Metafile;
    const entry = Object.keys(meta.outputs).find((path) => path.endsWith('/chat-app.js'));
    expect(entry).toBeDefined();
    const startup: string[] = [];
    const visit = (path: string) => {
      if (startup.includes(path)) return;
      startup.push(path);
      for (const { path: next, kind } of meta.outputs[path]?.imports ?? [])
        if (kind === 'import-statement' && meta.outputs[next] !== undefined) visit(next);
    };
    visit(entry!);
    const inputsOf = (paths: string[]) =>
      paths.flatMap((path) => Object.keys(meta.outputs[path]!.inputs));
    const lazy = Object.keys(meta.outputs).filter((path) => !startup.includes(path));
    const moved = Object.keys(MOVED);
    expect(inputsOf(startup).filter((input) => moved.some((m) => input.endsWith(m)))).toEqual([]);
    for (const module of moved) {
      expect(
        inputsOf(lazy).some((input) => input.endsWith(module)),
        module,
      ).toBe(true);
    }
    // The chat model itself, and what the tools must give at once: core's definitions.
    expect(
      inputsOf(startup).some((input) => input.endsWith('src/chat/gateway-chat-language-model.ts')),
    ).toBe(true);

    const code = (
      await Promise.all(startup.map((path) => readFile(join(process.cwd(), path), 'utf8')))
    ).join('\n');
    for (const marker of Object.values(MOVED)) expect(code).not.toContain(marker);
    // Core's checks and requests of the tools' arguments are imported by the lazy chunk only.
    expect(code).not.toMatch(/serviceToolArgumentsProblem|serviceToolRequest/);
    expect(code).toContain('serviceToolDefinition');
  });
});

/** The file of the lazy chunk named after `module` (`embed-values` → `embed-values-XXXX.js`). */
function chunkOf(module: string): string {
  const file = libChunks.find((name) => name.startsWith(`${module}-`) && name.endsWith('.js'));
  expect(file, `a lazy chunk for ${module}`).toBeDefined();
  return file!;
}

interface Outcome {
  ok: boolean;
  result?: unknown;
  isAPICallError?: boolean;
  code?: unknown;
  isRetryable?: boolean;
  causeCode?: unknown;
  loaderCode?: unknown;
  message?: string;
}

/**
 * Runs `call` (the body of an async function given `gateway`, a provider of the split bundle on
 * the kit's emulated gateway, and `wavWithSpeech`) in a fresh process: with `chunks` moved away
 * (then also each of `whileMissing`), and again once they are back.
 */
async function withChunksMissing(
  chunks: string[],
  script: { call: string; whileMissing?: string[] },
): Promise<{ missing: Outcome; restored: Outcome; whileMissing: Outcome[] }> {
  const url = (specifier: string) => JSON.stringify(import.meta.resolve(specifier));
  const source = `
    import { rename } from 'node:fs/promises';
    const lib = await import(${JSON.stringify(pathToFileURL(join(dir, 'lib', 'index.js')).href)});
    const { emulate } = await import(${url('@infergate/emulator/testing')});
    const { wavWithSpeech } = await import(${url('@infergate/emulator/fixtures')});
    const { APICallError } = await import(${url('@ai-sdk/provider')});
    const emulated = await emulate({ baseURL: 'https://lazy-chunks.test/v1' });
    const gateway = lib.createGateway({ ...emulated.connection });
    const chunks = ${JSON.stringify(chunks.map((chunk) => join(dir, 'lib', chunk)))};
    const outcome = (run) => run().then(
      (result) => ({ ok: true, result }),
      (error) => ({
        ok: false,
        isAPICallError: APICallError.isInstance(error),
        code: error?.data?.code,
        isRetryable: error?.isRetryable,
        causeCode: error?.cause?.code,
        loaderCode: error?.cause?.cause?.code,
        message: String(error?.message),
      }),
    );
    for (const chunk of chunks) await rename(chunk, chunk + '.gone');
    let missing;
    const whileMissing = [];
    try {
      missing = await outcome(async () => { ${script.call} });
      ${(script.whileMissing ?? []).map((call) => `whileMissing.push(await outcome(async () => { ${call} }));`).join('\n')}
    } finally {
      for (const chunk of chunks) await rename(chunk + '.gone', chunk);
    }
    const restored = await outcome(async () => { ${script.call} });
    process.stdout.write(JSON.stringify({ missing, restored, whileMissing }));
  `;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--input-type=module', '-e', source],
    { timeout: 50_000, cwd: root },
  );
  return JSON.parse(stdout);
}

/** Core's `client_code_unavailable` as the AI SDK's error: an `APICallError`, retryable. */
const TYPED_MISSING = {
  ok: false,
  isAPICallError: true,
  code: 'client_code_unavailable',
  isRetryable: true,
  causeCode: 'client_code_unavailable',
  loaderCode: 'ERR_MODULE_NOT_FOUND',
};

const PROMPT = `[{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]`;
const CHAT_GENERATE = `const { content } = await gateway('community/general').doGenerate({ prompt: ${PROMPT} });
  return content.map((part) => part.text).join('');`;
const CHAT_STREAM = `const { stream } = await gateway('community/general').doStream({ prompt: ${PROMPT} });
  let text = '';
  for await (const part of stream) if (part.type === 'text-delta') text += part.delta;
  return text;`;

describe('a split bundle with a lazy chunk missing, then restored', () => {
  it('bundles exactly these lazily loaded parts', () => {
    const lazy = libChunks.filter((name) => name.endsWith('.js') && !/^(index|chunk-)/.test(name));
    // One boundary (shared/load-lazily.ts): the services' calls in one chunk.
    expect(lazy.map((name) => name.replace(/-[A-Z\d]+\.js$/, '')).sort()).toEqual([
      'service-parts',
    ]);
  });

  it('chat calls never load them', async () => {
    const chunks = [chunkOf('service-parts')];
    const { missing, whileMissing } = await withChunksMissing(chunks, {
      call: CHAT_GENERATE,
      whileMissing: [CHAT_STREAM, 'return gateway.tools.translate().description.length > 0;'],
    });
    expect(missing).toEqual({ ok: true, result: 'Echo: hi' });
    expect(whileMissing).toEqual([
      { ok: true, result: 'Echo: hi' },
      { ok: true, result: true },
    ]);
  });

  it('the embedding model: typed, and the same provider recovers', async () => {
    const { missing, restored } = await withChunksMissing([chunkOf('service-parts')], {
      call: `const model = gateway.embeddingModel('all-minilm-l6-v2');
        return (await model.doEmbed({ values: ['hi'] })).embeddings[0].length;`,
    });
    expect(missing).toMatchObject(TYPED_MISSING);
    expect(missing.message).toContain('the service calls');
    expect(restored).toEqual({ ok: true, result: 384 });
  });

  it('the transcription model: typed, and the same provider recovers', async () => {
    const { missing, restored } = await withChunksMissing([chunkOf('service-parts')], {
      call: `const audio = wavWithSpeech('hello there');
        return (await gateway.transcriptionModel().doGenerate({ audio, mediaType: 'audio/wav' })).text;`,
    });
    expect(missing).toMatchObject(TYPED_MISSING);
    expect(restored).toEqual({ ok: true, result: 'hello there' });
  });

  it("the service helpers and tools: typed (a tool's check and run too), and they recover", async () => {
    const tool = `gateway.tools.translate()`;
    const input = `{ text: 'hi', target_language: 'uk' }`;
    const { missing, restored, whileMissing } = await withChunksMissing(
      [chunkOf('service-parts')],
      {
        call: `return (await gateway.translate({ text: 'hi', targetLanguage: 'uk' })).text;`,
        whileMissing: [
          `return (await ${tool}.inputSchema.validate(${input})).success;`,
          `return (await ${tool}.execute(${input}, { toolCallId: 'x', messages: [] })).text;`,
        ],
      },
    );
    expect(missing).toMatchObject(TYPED_MISSING);
    for (const outcome of whileMissing) expect(outcome).toMatchObject(TYPED_MISSING);
    expect(restored).toEqual({ ok: true, result: '[uk] hi' });
  });
});

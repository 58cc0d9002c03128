import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCoreSource } from './core-source-build';

// A split bundle whose lazy chunk is missing (a partial deploy; a chunk request failing in a
// browser): the call that needs it fails with a typed `client_code_unavailable`, the loader's
// error as its cause, and the same client succeeds once the chunk is back (nothing cached as
// failed). Core's source is bundled with code splitting into a directory of the test's own, and
// each case runs in a fresh Node process, so Node's own module loader does the loading.
let outDir: string;
let chunks: string[];

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'infergate-lazy-chunks-'));
  await buildCoreSource(outDir, { index: 'src/index.ts' });
  chunks = await readdir(outDir);
});

afterAll(async () => {
  await rm(outDir, { recursive: true, force: true });
});

/** The file of the lazy chunk named after `module` (`call-events` → `call-events-XXXX.js`). */
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
  result?: unknown;
}

/**
 * Runs `call` (the body of an async function given `core` and the kit's `gateway`) in a fresh
 * process on the split bundle: once with `chunk` moved away, once with it back, then (when given)
 * `after` with the chunk back. `setup` runs first (it makes the client).
 */
async function withChunkMissing(
  chunk: string,
  script: { setup: string; call: string; whileMissing?: string },
): Promise<{ missing: Outcome; restored: Outcome; whileMissing?: Outcome; warnings: string[] }> {
  const testingURL = import.meta.resolve('@infergate/emulator/testing');
  const source = `
    import { rename } from 'node:fs/promises';
    const core = await import(${JSON.stringify(pathToFileURL(join(outDir, 'index.js')).href)});
    const { emulate } = await import(${JSON.stringify(testingURL)});
    const gateway = await emulate({ baseURL: 'https://lazy-chunks.test/v1' });
    const warnings = [];
    console.warn = (...args) => warnings.push(args.join(' '));
    const chunk = ${JSON.stringify(join(outDir, chunk))};
    ${script.setup}
    const outcome = (run) => run().then(
      (result) => ({ ok: true, result }),
      (error) => ({
        ok: false,
        code: error?.code,
        isGatewayError: core.isGatewayError(error),
        isRetryable: error?.isRetryable,
        causeCode: error?.cause?.code,
      }),
    );
    await rename(chunk, chunk + '.gone');
    let missing, whileMissing;
    try {
      missing = await outcome(async () => { ${script.call} });
      ${script.whileMissing ? `whileMissing = await outcome(async () => { ${script.whileMissing} });` : ''}
    } finally {
      await rename(chunk + '.gone', chunk);
    }
    const restored = await outcome(async () => { ${script.call} });
    process.stdout.write(JSON.stringify({ missing, restored, whileMissing, warnings }));
  `;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--input-type=module', '-e', source],
    { timeout: 50_000, cwd: outDir },
  );
  return JSON.parse(stdout);
}

const HTTPS_CLIENT = `const client = core.createGatewayClient({
  ...gateway.connection });`;
const CHAT = `return (await client.chat({ model: 'community/general',
  messages: [{ role: 'user', content: 'hi' }] })).answer.text;`;

function expectTypedThenRecovered(missing: Outcome, restored: Outcome, result: unknown): void {
  expect(missing).toMatchObject({
    ok: false,
    code: 'client_code_unavailable',
    isGatewayError: true,
    isRetryable: true,
    causeCode: 'ERR_MODULE_NOT_FOUND',
  });
  expect(restored).toEqual({ ok: true, result });
}

describe('a split bundle with a lazy chunk missing, then restored', () => {
  it('bundles exactly these lazily loaded parts', async () => {
    // A dynamic import may sit in index.js or in a chunk shared by several lazy parts.
    const lazy = new Set<string>();
    for (const file of chunks.filter((name) => name.endsWith('.js'))) {
      const code = await readFile(join(outDir, file), 'utf8');
      for (const m of code.matchAll(/import\("\.\/([\w-]+?)-[A-Z\d]+\.js"\)/g))
        lazy.add(m[1] ?? '');
    }
    // At most three boundaries, each for a part many apps never use (CONTRIBUTING names them).
    expect([...lazy].sort()).toEqual(['call-events', 'service-calls', 'steered-chat']);
  });

  it('the events (onEvent): typed, and the same client recovers', async () => {
    const { missing, restored } = await withChunkMissing(chunkOf('call-events'), {
      setup: `const events = []; const client = core.createGatewayClient({
        ...gateway.connection,
        onEvent: (event) => events.push(event.type) });`,
      call: `${CHAT.replace('return', 'const text =')} return { text, done: events.includes('done') };`,
    });
    expectTypedThenRecovered(missing, restored, { text: 'Echo: hi', done: true });
  });

  it('the service calls: typed, and the same client recovers', async () => {
    const { missing, restored } = await withChunkMissing(chunkOf('service-calls'), {
      setup: HTTPS_CLIENT,
      call: `return (await client.translate({ input: 'hi', target_language: 'uk' })).text.length > 0;`,
    });
    expectTypedThenRecovered(missing, restored, true);
  });

  it('the fallback-model steering: typed, and the same client recovers', async () => {
    const { missing, restored } = await withChunkMissing(chunkOf('steered-chat'), {
      setup: HTTPS_CLIENT,
      call: `return (await client.chat({ model: 'community/general',
        messages: [{ role: 'user', content: 'hi' }] },
        { fallbackModels: ['community/plain'] })).route.answeredBy;`,
    });
    expectTypedThenRecovered(missing, restored, 'community/general');
  });

  // The stall timeouts are the steering module's (steering/stall-watch.ts): a call with one loads it.
  it('the stall timeouts: typed, and the same client recovers', async () => {
    const { missing, restored } = await withChunkMissing(chunkOf('steered-chat'), {
      setup: HTTPS_CLIENT,
      call: CHAT.replace(
        "content: 'hi' }] })",
        "content: 'hi' }] }, { firstChunkTimeoutMs: 30000 })",
      ),
    });
    expectTypedThenRecovered(missing, restored, 'Echo: hi');
  });

  // A steered stream's first-content reader loads with the steering module.
  it("a steered stream's steering module and first-content reader: typed, and the same client recovers", async () => {
    const { missing, restored } = await withChunkMissing(chunkOf('steered-chat'), {
      setup: HTTPS_CLIENT,
      call: `const stream = await client.chatStream({ model: 'community/general',
        messages: [{ role: 'user', content: 'hi' }] }, { firstChunkTimeoutMs: 30000 });
        return (await stream.result()).text;`,
    });
    expectTypedThenRecovered(missing, restored, 'Echo: hi');
  });
});

import { execFile } from 'node:child_process';
import type { ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createGateway } from '@infergate/ai-sdk';
import { createGatewayClient, isGatewayError } from '@infergate/core';
import { emulate } from '@infergate/emulator/testing';
import { GatewayChatModel } from '@infergate/langchain';
import { generateText } from 'ai';
import { afterAll, beforeAll, describe, expect, onTestFinished } from 'vitest';
import { hostileSuite } from './harness/hostile-rows';
import { drain, type HostileServer, startHostileServer } from './harness/hostile-server';

/**
 * The hostile cases in core: readers that race on one stream, secrets at rest, input JSON
 * cannot carry, an isolate that stalls and a stream dropped unread. The gateway is a hostile HTTP
 * server of our own on loopback (`harness/hostile-server.ts`); the cases that need a fresh process
 * (a runtime flag, the garbage collector) run core's built entry in a child `node`.
 */

const KEY = 'sk-HOSTILE28/core+Zb4c8d2e6f0q7';
const MODEL = 'community/general';
const suite = hostileSuite('hostile-28-core');

const event = (delta: Record<string, unknown>, finish?: string) =>
  `data: ${JSON.stringify({
    object: 'chat.completion.chunk',
    model: MODEL,
    choices: [{ index: 0, delta, finish_reason: finish ?? null }],
  })}\n\n`;

/**
 * For the child processes run with --expose-gc: `collectUntil(done)` collects, then gives the
 * event loop a turn for the finalizers' callbacks, until `done()` holds (20 s is a safety net).
 */
const COLLECT_UNTIL = `
const collectUntil = async (done) => {
  const end = performance.now() + 20_000;
  while (!done() && performance.now() < end) {
    globalThis.gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
};`;

/** Streams held open after their first event, until the test lets them go on (`finish` / `cut`). */
const held: ServerResponse[] = [];

let hostile: HostileServer;
beforeAll(async () => {
  hostile = await startHostileServer(KEY, {
    held: async (req, res, endpoint) => {
      if (endpoint !== 'chat/completions') return false;
      await drain(req);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(event({ role: 'assistant', content: 'Добрий ' }));
      held.push(res);
      return true;
    },
    // The emulator answers; the case only records what reached the gateway.
    plain: () => false,
  });
});
afterAll(async () => {
  suite.write();
  await hostile?.close();
});

/** A few turns of the event loop: what needs no I/O (a reader parking on a body) is done by then. */
async function turns(count = 5): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Lets the held stream end well (`finish`) or be cut before its finish_reason (`cut`). */
async function letGo(how: 'finish' | 'cut'): Promise<void> {
  // Not a wait for the stream (it is held before its first event reaches the client): the
  // readers park on the body, the race these cases set up. No event marks a parked reader (core's
  // stream shows none), but parking takes no I/O: a few turns of the event loop see it done, not
  // a timer. No outcome depends on it: a reader that has not parked yet settles the same way.
  await turns();
  const res = held.shift();
  if (!res) throw new Error('no stream is held');
  if (how === 'finish') res.end(`${event({ content: 'день' }, 'stop')}data: [DONE]\n\n`);
  else res.destroy();
}

/** Each reader's outcome: its text, or its error's code. */
function outcomes(readers: Promise<unknown>[]): Promise<unknown[]> {
  return Promise.all(
    readers.map((reader) =>
      reader.then(
        (value) => value,
        (error: unknown) => (isGatewayError(error) ? error.code : `untyped ${String(error)}`),
      ),
    ),
  );
}

/**
 * Runs `node` with `args` in test/reliability and returns its stdout. No time limit of its own:
 * the test's timeout (the suite's) bounds it, and the child is killed when its test ends, so a
 * hang fails the test and leaves no process. (A 60 s limit of its own killed a child that passes
 * in 1 s alone on a machine at load 20–35.)
 */
async function runNode(args: string[], env: Record<string, string> = {}): Promise<string> {
  const ended = new AbortController();
  onTestFinished(() => ended.abort());
  const { stdout } = await promisify(execFile)(process.execPath, args, {
    signal: ended.signal,
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    env: { ...process.env, ...env },
  });
  return stdout;
}

/**
 * Runs `script` (an ES module importing `@infergate/core`) in a fresh `node` with `flags`; `env`
 * reaches it as process.env. Returns what it printed last, parsed as JSON.
 */
async function inChild(script: string, flags: string[], env: Record<string, string> = {}) {
  const stdout = await runNode([...flags, '--input-type=module', '-e', script], env);
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as unknown;
}

function heldStream() {
  const client = createGatewayClient({ baseURL: hostile.url('held'), apiKey: KEY, maxRetries: 0 });
  return {
    client,
    open: () => client.chatStream({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }),
  };
}

describe('hostile 28: readers that race on one stream', () => {
  suite.row(
    {
      id: 'R-two-results',
      area: 'streams',
      case: 'two result() calls pending on one stream while its body is still coming',
      expect: 'both settle with the same text; the slot is released',
      before: 'the second reader replaced the first one’s wake-up: the first never settled',
    },
    async () => {
      const { client, open } = heldStream();
      const stream = await open();
      const readers = [stream.result(), stream.result()].map((r) => r.then((a) => a.text));
      await letGo('finish');
      expect(await outcomes(readers)).toEqual(['Добрий день', 'Добрий день']);
      // (The slot is given back once the body has ended, which may come a tick after the readers.)
      await client.budget.whenIdle();
      expect(client.budget.isIdle).toBe(true);
    },
  );
  suite.row(
    {
      id: 'R-result-and-iterate',
      area: 'streams',
      case: 'result() beside a for await on one stream (the README says they can be mixed)',
      expect: 'both settle: the iterator ends, result() has the whole text',
      before: 'one of the two never settled',
    },
    async () => {
      const { open } = heldStream();
      const stream = await open();
      const iterated = (async () => {
        for await (const _ of stream) {
          // shares the events with result()
        }
        return 'ended';
      })();
      const result = stream.result().then((a) => a.text);
      await letGo('finish');
      expect(await outcomes([result, iterated])).toEqual(['Добрий день', 'ended']);
    },
  );
  suite.row(
    {
      id: 'R-readers-cancel',
      area: 'streams',
      case: 'result() ×2, for await and readBatch() pending while cancel() runs',
      expect: 'every reader rejects with the same typed error (aborted); the slot is released',
      before: 'the readers whose wake-up was replaced hung',
    },
    async () => {
      const { client, open } = heldStream();
      const stream = await open();
      const iterate = async () => {
        for await (const _ of stream) {
          // reads until the cancel
        }
      };
      const readers = [stream.result(), stream.result(), iterate(), stream.readBatch()];
      // The readers park (no event marks it, as in letGo): turns of the event loop, not a timer.
      // No outcome depends on it: a reader cancelled before it parked rejects with the same 'aborted'.
      await turns();
      await stream.cancel('enough');
      const results = await outcomes(readers);
      // A reader may have taken the first event before the cancel: it then asked again and failed.
      expect(results.filter((r) => r !== 'aborted' && typeof r !== 'object')).toEqual([]);
      expect(results.filter((r) => r === 'aborted').length).toBeGreaterThanOrEqual(3);
      await letGo('cut');
      // (A cut stream's slot comes back once the gateway can have seen the close.)
      await client.budget.whenIdle();
      expect(client.budget.isIdle).toBe(true);
    },
  );
  suite.row(
    {
      id: 'R-readers-cut',
      area: 'streams',
      case: 'two result() calls pending when the connection is cut before any finish_reason',
      expect: 'both reject with the same typed error (stream_incomplete)',
      before: 'the first reader never settled',
    },
    async () => {
      const { open } = heldStream();
      const stream = await open();
      const readers = [stream.result(), stream.result()];
      await letGo('cut');
      expect(await outcomes(readers)).toEqual(['stream_incomplete', 'stream_incomplete']);
    },
  );
});

describe('hostile 28: a stream dropped unread', () => {
  suite.row(
    {
      id: 'G-dropped-stream',
      area: 'events',
      case: 'streams opened with an onEvent hook and dropped unread (one still coming, one ended), then collected (node --expose-gc)',
      expect:
        'each call ends: released, then done (ok false, error.code abandoned), so a span ends and the handler forgets it',
      before:
        'released but never done: the OpenTelemetry span stayed open in the handler’s map until 10,000 newer calls pushed it out',
    },
    async () => {
      const script = `${COLLECT_UNTIL}
const { createGatewayClient } = await import('@infergate/core');
const events = [];
const client = createGatewayClient({
  baseURL: process.env.BASE, apiKey: process.env.KEY, maxRetries: 0,
  onEvent: (event) => events.push(event),
});
const open = async (content) => {
  await client.chatStream({ model: '${MODEL}', messages: [{ role: 'user', content }] });
};
await open('held');
await (async () => {
  const other = createGatewayClient({
    baseURL: process.env.EMULATOR, apiKey: process.env.KEY, maxRetries: 0,
    onEvent: (event) => events.push(event),
  });
  await other.chatStream({ model: '${MODEL}', messages: [{ role: 'user', content: 'ends' }] });
})();
// (Each client's first call reads the catalog first, a call of its own: only the chats count.)
const chats = () => events.filter((e) => e.operation === 'chat');
const done = () => chats().filter((e) => e.type === 'done');
await collectUntil(() => done().length >= 2);
console.log(JSON.stringify({
  released: chats().filter((e) => e.type === 'released').length,
  done: done().map((e) => e.error?.code),
}));
process.exit(0);`;
      const seen = await inChild(script, ['--expose-gc'], {
        BASE: hostile.url('held'),
        EMULATOR: hostile.url('emulator'),
        KEY,
      });
      expect(seen).toEqual({ released: 2, done: ['abandoned', 'abandoned'] });
      await letGo('cut');
    },
  );
});

describe('hostile 28: an isolate that stalls', () => {
  suite.row(
    {
      id: 'I-stall',
      area: 'isolates',
      case: 'request-bound runtime (core as in an edge isolate): 4 calls hold slots, 4 wait, then a 2.5 s synchronous task',
      expect:
        'no live slot is taken back: the 4 waiters run after the 4 holders; the gateway never sees more than 4; budget.active is 4 while 4 run',
      before:
        'a waiter’s check ran before the holders’ heartbeats and took back every live slot: 8 at the gateway, then active 0 while 4 ran',
    },
    async () => {
      const server = await emulate({ as: 'http' });
      try {
        // The child's fetch holds every chat call until the stall has been measured: the holders
        // still run after it however slow the machine (no answer time to outlast). atGateway
        // counts the chat calls sent to the gateway and not yet answered.
        // The stall is the subject and stays real: a busy loop past the budget's staleMs (2 s),
        // after which every late timer fires at once, in the order an isolate would run them (a
        // moved clock would not make them late). The 600 ms after it (over two heartbeats) let
        // the waiters' checks and the holders' heartbeats run; what is then measured is the right
        // state, which a loaded machine (a longer pause) cannot change, only delay.
        const script = `
globalThis.EdgeRuntime = 'edge-runtime'; // core then runs as in Vercel's edge runtime
const { createGatewayClient } = await import('@infergate/core');
let letGo;
const measured = new Promise((resolve) => { letGo = resolve; });
let atGateway = 0;
let maxAtGateway = 0;
const fetch = async (input, init) => {
  if (!String(input.url ?? input).includes('/chat/completions')) return globalThis.fetch(input, init);
  maxAtGateway = Math.max(maxAtGateway, ++atGateway);
  try {
    await measured;
    return await globalThis.fetch(input, init);
  } finally {
    atGateway--;
  }
};
const client = createGatewayClient({ baseURL: process.env.BASE, apiKey: process.env.KEY, maxRetries: 0, maxConcurrency: 8, fetch });
const calls = Array.from({ length: 8 }, (_, i) =>
  client.chat({ model: '${MODEL}', messages: [{ role: 'user', content: 'n' + i }] })
    .then(() => 'ok', (error) => error.code ?? String(error)));
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
while (client.budget.active !== 4 || client.budget.queued !== 4 || atGateway !== 4) await pause(5);
const end = Date.now() + 2500;
while (Date.now() < end) {} // the synchronous task
await new Promise((resolve) => setTimeout(resolve, 600));
const afterStall = { active: client.budget.active, queued: client.budget.queued };
letGo();
console.log(JSON.stringify({ afterStall, results: await Promise.all(calls), maxAtGateway }));
process.exit(0);`;
        const seen = await inChild(script, [], { BASE: server.baseURL, KEY: server.apiKey });
        expect(seen).toEqual({
          afterStall: { active: 4, queued: 4 },
          results: Array(8).fill('ok'),
          maxAtGateway: 4,
        });
        expect(server.emulator.counters.maxInflight[server.apiKey]).toBeLessThanOrEqual(4);
        expect(server.emulator.counters.concurrencyRejections).toBe(0);
      } finally {
        await server.close();
      }
    },
  );
});

describe('hostile 28: secrets at rest', () => {
  suite.row(
    {
      id: 'S-keys-at-rest',
      area: 'secrets',
      case: 'a core client, an AI SDK provider and a LangChain model, each with its own key, used against a gateway echoing the key; then dropped and collected (node --expose-gc)',
      expect:
        'while they live: errors redacted, and util.inspect(globalThis, { showHidden }) (symbol-keyed properties included) shows no key; once collected: nothing keeps a key',
      before:
        'every key sat raw in a global Symbol.for set (up to 256, kept after the client was gone), printed by util.inspect(globalThis, { showHidden: true })',
    },
    async () => {
      const script = `${COLLECT_UNTIL}
const { inspect } = await import('node:util');
const { createGatewayClient, isGatewayError } = await import('@infergate/core');
const { createGateway } = await import('@infergate/ai-sdk');
const { GatewayChatModel } = await import('@infergate/langchain');
const { generateText } = await import('ai');
const keys = ['sk-REST-core-' + 'a1B2c3D4e5F6', 'sk-REST-aisdk-' + 'g7H8i9J0k1L2', 'sk-REST-lc-' + 'm3N4o5P6q7R8'];
const echo = (key) => async () => new Response(
  JSON.stringify({ error: { code: 'invalid_api_key', message: 'bad key ' + key } }),
  { status: 401, headers: { 'content-type': 'application/json' } });
const texts = [];
const collect = (error) => { texts.push(String(error?.message), inspect(error, { showHidden: true, depth: 8 })); };
await (async () => {
  const client = createGatewayClient({ baseURL: 'https://rest.test/v1', apiKey: keys[0], fetch: echo(keys[0]), maxRetries: 0 });
  await client.chat({ model: '${MODEL}', messages: [{ role: 'user', content: 'hi' }] }).catch(collect);
  const provider = createGateway({ baseURL: 'https://rest.test/v1', apiKey: keys[1], fetch: echo(keys[1]) });
  await generateText({ model: provider('${MODEL}'), prompt: 'hi', maxRetries: 0 }).catch(collect);
  const model = new GatewayChatModel('${MODEL}', { baseURL: 'https://rest.test/v1', apiKey: keys[2], fetch: echo(keys[2]), maxRetries: 0 });
  await model.invoke('hi').catch(collect);
  const state = [inspect(globalThis, { showHidden: true, depth: 8 })];
  for (const symbol of Object.getOwnPropertySymbols(globalThis)) state.push(inspect(globalThis[symbol], { showHidden: true, depth: 12 }));
  const global = state.join('');
  console.log(JSON.stringify({ step: 'alive', errors: texts.length, leakedInErrors: keys.filter((k) => texts.some((t) => t.includes(k))), inGlobalState: keys.filter((k) => global.includes(k)) }));
})();
const registry = globalThis[Symbol.for('@infergate/core.redactors')];
await collectUntil(() => registry.live.size === 0);
console.log(JSON.stringify({ live: registry.live.size }));
process.exit(0);`;
      const stdout = await runNode(['--expose-gc', '--input-type=module', '-e', script]);
      const [alive, collected] = stdout
        .trim()
        .split('\n')
        .slice(-2)
        .map((line) => JSON.parse(line) as unknown);
      expect(alive).toEqual({ step: 'alive', errors: 6, leakedInErrors: [], inGlobalState: [] });
      expect(collected).toEqual({ live: 0 });
    },
  );
});

describe('hostile 28: input JSON cannot carry', () => {
  /** What each surface threw, as `<error type>:<code or argument>:<field>`. */
  async function everySurface(
    request: { messages: Record<string, unknown>[]; extra?: Record<string, unknown> },
    field: string,
  ): Promise<void> {
    const baseURL = hostile.url('plain');
    const outcomes: string[] = [];
    const record = (error: unknown) => {
      if (isGatewayError(error)) outcomes.push(`GatewayError:${error.code}:${error.field}`);
      else if (error instanceof Error && error.name === 'AI_InvalidArgumentError')
        outcomes.push(`InvalidArgumentError:${(error as { argument?: string }).argument}`);
      else outcomes.push(`untyped:${String(error)}`);
    };
    const client = createGatewayClient({ baseURL, apiKey: KEY, maxRetries: 0 });
    const body = { model: MODEL, messages: request.messages, ...request.extra } as never;
    await client.chat(body).then(() => outcomes.push('sent'), record);
    await client.chatStream(body).then(() => outcomes.push('sent'), record);
    // The adapters carry extra fields as provider options / modelKwargs.
    if (request.extra) {
      const provider = createGateway({ baseURL, apiKey: KEY });
      await generateText({
        model: provider(MODEL),
        prompt: 'hi',
        maxRetries: 0,
        providerOptions: { infergate: request.extra as never },
      }).then(() => outcomes.push('sent'), record);
      const model = new GatewayChatModel(MODEL, {
        baseURL,
        apiKey: KEY,
        maxRetries: 0,
        modelKwargs: request.extra,
      });
      await model.invoke('hi').then(() => outcomes.push('sent'), record);
    }
    const typed = `GatewayError:invalid_request_error:${field}`;
    const expected = request.extra
      ? [typed, typed, `InvalidArgumentError:${field}`, typed]
      : [typed, typed];
    expect(outcomes).toEqual(expected);
    expect(hostile.seen('plain').filter((endpoint) => endpoint === 'chat/completions')).toEqual([]);
  }

  suite.row(
    {
      id: 'U-circular-message',
      area: 'input',
      case: 'a message that refers to itself (circular), through chat and chatStream',
      expect: 'invalid_request_error naming messages[0].parent, before sending',
      before: 'a raw TypeError from JSON.stringify (nothing sent, but untyped, no field)',
    },
    () => {
      const message: Record<string, unknown> = { role: 'user', content: 'hi' };
      message.parent = message;
      return everySurface({ messages: [message] }, 'messages[0].parent');
    },
  );
  suite.row(
    {
      id: 'U-bigint-message',
      area: 'input',
      case: 'a BigInt in a message',
      expect: 'invalid_request_error naming messages[0].name, before sending',
      before: 'a raw TypeError (“Do not know how to serialize a BigInt”)',
    },
    () =>
      everySurface({ messages: [{ role: 'user', content: 'hi', name: 7n }] }, 'messages[0].name'),
  );
  suite.row(
    {
      id: 'U-cyclic-extra',
      area: 'input',
      case: 'a cyclic extra field: core (a field of the request), AI SDK (providerOptions.infergate), LangChain (modelKwargs)',
      expect:
        'core and LangChain: invalid_request_error naming metadata.self; AI SDK: InvalidArgumentError with that argument; nothing sent',
      before: 'a raw TypeError on every surface',
    },
    () => {
      const metadata: Record<string, unknown> = { tag: 'x' };
      metadata.self = metadata;
      return everySurface(
        { messages: [{ role: 'user', content: 'hi' }], extra: { metadata } },
        'metadata.self',
      );
    },
  );
});

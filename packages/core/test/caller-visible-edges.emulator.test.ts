// Edges a caller sees that no other test pinned (each found by a mutation review of core): a held
// structured stream's stall clock, Retry-After against the client's limit, an empty stream body,
// the default backoff, a JSON body of blanks, a malformed Content-Length (the breaker's failure
// codes: breaker-counts-proxy-and-timeout-failures). Time, where it is the subject, is the driven
// clock.
import type { ModelCapability } from '@infergate/emulator';
import { chatCompletion, emulate } from '@infergate/emulator/testing';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { GatewayClient } from '../src/client/client';
import type { GatewayClientOptions } from '../src/client/options';
import { CUT_REQUEST_GRACE_MS } from '../src/http/slot-source';
import { createGatewayClient, type GatewayError } from '../src/index';
import {
  askingPlace,
  clientOn,
  driveClock,
  faulted,
  hi,
  idle,
  recordingClient,
  settledAfter,
  slowIfFreeBudget,
  withCatalog,
} from './helpers';

beforeAll(async () => {
  // Core loads its events on a first call with onEvent, and a module load under vitest waits on
  // timers: loaded here, on real ones, before a test drives the clock.
  const gateway = await emulate();
  await recordingClient(gateway).client.chat(hi());
  await gateway.close();
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const failed = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: GatewayError) => error,
  );

const isChat = (input: RequestInfo | URL) =>
  (typeof input === 'string' ? input : input instanceof URL ? input.href : input.url).endsWith(
    '/chat/completions',
  );

let origins = 0;
/** A client on a canned `fetch` (a host of its own: a budget of its own). */
const createClient = (fetch: typeof globalThis.fetch, options: GatewayClientOptions = {}) =>
  createGatewayClient({
    baseURL: `https://canned-${++origins}.test/v1`,
    apiKey: 'sk-canned',
    fetch,
    retryBaseDelayMs: 0,
    ...options,
  });

const COMPLETION = chatCompletion('m', 'hi', {
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
});

describe('a held structured stream (docs/gateway-protocol.md §4.8)', () => {
  it('whose pieces keep coming faster than chunkTimeoutMs succeeds, however long it lasts', async () => {
    const listed = { owned_by: 'service-community', online: true } as const;
    const capabilities: ModelCapability[] = ['chat', 'streaming', 'json_schema'];
    const prose = 'community/so-prose';
    const native = 'community/so-native';
    // Its prose comes first, word by word: the map holds it (nothing reaches the caller) until
    // the fenced JSON begins.
    const proseFirst = 'community/so-prose-fence';
    const gateway = await emulate({
      scenario: {
        models: {
          [prose]: { ...listed, capabilities, jsonAnswers: { wrap: 'prose' } },
          [native]: { ...listed, capabilities },
          [proseFirst]: { ...listed, capabilities, jsonAnswers: { wrap: 'prose-fence' } },
        },
      },
    });
    const client = clientOn(gateway, { chunkTimeoutMs: 200 });
    const asked = askingPlace;
    // A first steered call, at once, loads the structured walk's lazy chunks (an import the
    // driven clock cannot wait for).
    await (await client.chatStream(asked(native), { fallbackModels: [prose] })).result();
    gateway.emulator.scenario.streamChunkDelayMs = 100;
    driveClock();
    const call = client
      .chatStream(asked(proseFirst), { fallbackModels: [native] })
      .then(async (stream) => ({ stream, result: await stream.result() }));
    const { stream, result } = await settledAfter(30_000, call);
    expect(stream.route.hops).toMatchObject([{ model: proseFirst, outcome: 'answered' }]);
    expect(JSON.parse(result.text)).toMatchObject({ city: expect.any(String) });
    await gateway.close();
  });
});

describe("Retry-After against the client's maxRetryAfterMs", () => {
  it('a 429 asking for longer than maxRetryAfterMs fails at once, not retryable', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway, { maxRetryAfterMs: 5_000 });
    gateway.emulator.injectFault({
      fault: 'rate_limit',
      endpoint: 'chat',
      times: 1,
      retryAfter: 30,
    });
    const error = await failed(client.chat(hi()));
    expect(error).toMatchObject({ code: 'client_concurrency_exceeded', isRetryable: false });
    expect(gateway.emulator.counters.requests.chat).toBe(1);
    await gateway.close();
  });
});

describe('a 200 event stream whose body is empty', () => {
  it('is a lost stream: retried, and the retry answers', async () => {
    const gateway = await emulate();
    let chats = 0;
    const fetch: typeof globalThis.fetch = (input, init) => {
      if (isChat(input) && ++chats === 1) {
        return Promise.resolve(
          new Response('', { headers: { 'content-type': 'text/event-stream' } }),
        );
      }
      return gateway.fetch(input, init);
    };
    const client = clientOn(gateway, { fetch });
    const { text } = await (await client.chatStream(hi())).result();
    expect(text.length).toBeGreaterThan(0);
    expect(chats).toBe(2);
    await gateway.close();
  });
});

describe('the default backoff (retryBaseDelayMs 500)', () => {
  it('a 502 is retried after 500 ms at most', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway, { retryBaseDelayMs: undefined });
    gateway.emulator.injectFault({ fault: 'bad_gateway', endpoint: 'chat', times: 1 });
    vi.spyOn(Math, 'random').mockReturnValue(1);
    driveClock();
    const call = client.chat(hi());
    await vi.advanceTimersByTimeAsync(499);
    expect(gateway.emulator.counters.requests.chat).toBe(1);
    const result = await settledAfter(1, call);
    expect(result.response.choices[0]?.message.content).toBeTruthy();
    expect(gateway.emulator.counters.requests.chat).toBe(2);
    await gateway.close();
  });
});

describe('a 2xx body labelled JSON that starts with blanks (streamed call)', () => {
  it('past 1 KiB of blanks it is no stream: invalid_response at once, though it never ends', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('\n'.repeat(2048)));
      },
    });
    const answer = () =>
      Promise.resolve(new Response(body, { headers: { 'content-type': 'application/json' } }));
    const client = createClient(withCatalog(answer), { maxRetries: 0, maxErrorBodyBytes: 1024 });
    driveClock();
    const error = await settledAfter(0, failed(client.chatStream(hi('m'))));
    expect(error).toMatchObject({ code: 'invalid_response' });
  });
});

describe('a Content-Length that is no number of bytes', () => {
  it('is ignored: the body is read as it is', async () => {
    const answer = () =>
      Promise.resolve(
        new Response(JSON.stringify(COMPLETION), {
          headers: { 'content-type': 'application/json', 'content-length': '1e9' },
        }),
      );
    const client = createClient(withCatalog(answer));
    const result = await client.chat(hi('m'));
    expect(result.response.choices[0]?.message.content).toBe('hi');
  });
});

/** On the driven clock: the client's `slots` slots of cut requests stay taken for the grace, then are back. */
async function expectKeptForTheGrace(client: GatewayClient, slots: number): Promise<void> {
  expect(client.budget.active).toBe(slots);
  await vi.advanceTimersByTimeAsync(CUT_REQUEST_GRACE_MS - 1);
  expect(client.budget.active).toBe(slots);
  await idle(client);
  expect(client.budget.active).toBe(0);
}

describe("a cut request's slot is kept for the grace (CUT_REQUEST_GRACE_MS)", () => {
  it('4 calls on a key of 4 aborted while their requests are in flight: the key stays full for the grace, then is free', async () => {
    const gateway = await emulate();
    gateway.emulator.injectFault({ fault: 'slow_headers', model: 'community/general', ms: 60_000 });
    const client = clientOn(gateway);
    driveClock();
    const controllers = Array.from({ length: 4 }, () => new AbortController());
    const calls = controllers.map((controller) =>
      failed(client.chat(hi(), { signal: controller.signal })),
    );
    for (let ms = 0; gateway.emulator.counters.requests.chat < 4 && ms < 100; ms++) {
      await vi.advanceTimersByTimeAsync(1);
    }
    expect(gateway.emulator.counters.requests.chat).toBe(4);
    for (const controller of controllers) controller.abort();
    const errors = await settledAfter(0, Promise.all(calls));
    expect(errors.map((error) => error?.code)).toEqual(Array(4).fill('aborted'));
    await expectKeptForTheGrace(client, 4);
    await gateway.close();
  });

  it("the last attempt's answer refused after a cut (a first-chunk stall, no retry): its slot is kept too", async () => {
    const { gateway, client } = await faulted(
      { fault: 'stall_first_chunk', ms: 60_000 },
      { maxRetries: 0, firstChunkTimeoutMs: 300 },
    );
    driveClock();
    const error = await settledAfter(300, failed(client.chatStream(hi())));
    expect(error).toMatchObject({ code: 'timeout', stall: { phase: 'first-chunk' } });
    await expectKeptForTheGrace(client, 1);
    await gateway.close();
  });
});

describe("a hedge's slot granted after the call ended", () => {
  it('the caller aborts while a shared budget answers the hedge: the call ends without waiting for it, and the slot it grants then is given back', async () => {
    const gateway = await emulate();
    // A shared budget answers `acquireIfFree` later (a Redis round trip): here, when the test says.
    const { budget, asked, answer, granted } = slowIfFreeBudget();
    const client = clientOn(gateway, { budget });
    gateway.hold(); // (never released: the gateway is not closed)
    const controller = new AbortController();
    const call = failed(
      client.chat(hi(), {
        fallbackModels: ['community/streamer'],
        hedge: { afterMs: 30, maxExtra: 1 },
        signal: controller.signal,
      }),
    );
    await asked;
    controller.abort();
    // Settled with the budget still silent (it does not listen to the signal).
    expect((await call)?.code).toBe('aborted');
    answer();
    const lease = await granted;
    expect(lease).toBeDefined();
    // (The slot source looks at the call once the grant is in.)
    await new Promise((resolve) => setImmediate(resolve));
    expect(lease?.released).toBe(true);
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createEmulator,
  DEFAULT_KEYS,
  type Emulator,
  FAULT_NAMES,
  type FaultRule,
  type ScenarioInput,
} from '../src/index';
import { call, chat, errorBodyOf, type Json, parseSse, userChat } from './helpers';

const hello = userChat('community/general', 'hello there');
const streamed = userChat('community/general', '[[words:6]]', { stream: true });

function withFault(fault: string) {
  return { headers: { 'x-emulator-fault': fault } };
}

describe('faults that replace the answer', () => {
  it.each([
    ['rate_limit', 429, 'client_concurrency_exceeded'],
    ['model_busy', 429, 'model_busy'],
    ['bad_gateway', 502, 'all_providers_failed'],
    ['provider_request_failed', 502, 'provider_request_failed'],
    ['provider_protocol_error', 502, 'provider_protocol_error'],
    ['service_unavailable', 503, 'provider_unavailable'],
    ['gateway_timeout', 504, 'request_timeout'],
  ])('%s answers %i %s with a gateway body', async (fault, status, code) => {
    const response = await chat(createEmulator(), hello, withFault(fault));
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await errorBodyOf(response)).toMatchObject({ status, code });
  });

  it('puts Retry-After (default 1, or retryAfter) on the 429 faults', async () => {
    const emulator = createEmulator();
    expect((await chat(emulator, hello, withFault('rate_limit'))).headers.get('retry-after')).toBe(
      '1',
    );
    const custom = await chat(emulator, hello, withFault('model_busy; retryAfter=7'));
    expect(custom.headers.get('retry-after')).toBe('7');
  });

  it('counts injected rate_limit 429s as concurrency rejections', async () => {
    const emulator = createEmulator();
    await chat(emulator, hello, withFault('rate_limit'));
    expect(emulator.counters.concurrencyRejections).toBe(1);
  });

  it.each([
    ['upstream_html', 502, 'text/html', /<html>/],
    ['upstream_text', 500, 'text/plain', /Internal Server Error/],
  ])('%s answers %i %s', async (fault, status, type, body) => {
    const response = await chat(createEmulator(), hello, withFault(fault));
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toContain(type);
    expect(await response.text()).toMatch(body);
  });

  it('upstream_json answers 400 with a JSON body in another shape', async () => {
    const response = await chat(createEmulator(), hello, withFault('upstream_json'));
    expect(response.status).toBe(400);
    const body = (await response.json()) as Json;
    expect(body.error).toBeUndefined();
    expect(typeof body.detail).toBe('string');
  });

  it('drop_connection rejects the fetch handler with a TypeError and frees the slot', async () => {
    const emulator = createEmulator();
    await expect(chat(emulator, hello, withFault('drop_connection'))).rejects.toBeInstanceOf(
      TypeError,
    );
    expect(emulator.counters.inflight[DEFAULT_KEYS.full]).toBe(0);
    expect(emulator.counters.requests.chat).toBe(1);
  });

  it('truncated_json sends a 200 JSON body cut in half', async () => {
    const response = await chat(createEmulator(), hello, withFault('truncated_json'));
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(() => JSON.parse(text)).toThrow();
    expect(text.startsWith('{"id":"chatcmpl-')).toBe(true);
  });

  it('slow_headers delays the headers by ms', async () => {
    vi.useFakeTimers();
    try {
      let settled = false;
      const pending = chat(createEmulator(), hello, withFault('slow_headers; ms=500')).then((r) => {
        settled = true;
        return r;
      });
      await vi.advanceTimersByTimeAsync(499);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect((await pending).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses an unknown fault name or parameter with 400 naming the header', async () => {
    const emulator = createEmulator();
    for (const header of ['nonsense', 'rate_limit; retryAfter=soon', 'stream_cut; foo=1']) {
      const error = await errorBodyOf(await chat(emulator, hello, withFault(header)));
      expect(error).toMatchObject({ status: 400, param: 'x-emulator-fault' });
    }
  });

  it('applies to every endpoint', async () => {
    const emulator = createEmulator();
    const response = await call(emulator, '/models', withFault('service_unavailable'));
    expect(response.status).toBe(503);
    const translation = await call(emulator, '/translations', {
      body: { input: 'hi', target_language: 'de' },
      ...withFault('bad_gateway'),
    });
    expect(translation.status).toBe(502);
  });
});

describe('stream faults', () => {
  async function events(fault: string) {
    const response = await chat(createEmulator(), streamed, withFault(fault));
    expect(response.status).toBe(200);
    return parseSse(await response.text()) as Json[];
  }

  it('stream_cut stops after afterChunks events with no [DONE]: the body errors', async () => {
    const response = await chat(createEmulator(), streamed, withFault('stream_cut; afterChunks=3'));
    const reader = response.body!.getReader();
    let text = '';
    const decoder = new TextDecoder();
    await expect(
      (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          text += decoder.decode(value);
        }
      })(),
    ).rejects.toBeInstanceOf(TypeError);
    const got = parseSse(text);
    expect(got).toHaveLength(3);
    expect(text).not.toContain('[DONE]');
  });

  it('malformed_event sends a broken event after afterChunks events', async () => {
    const response = await chat(createEmulator(), streamed, withFault('malformed_event'));
    const text = await response.text();
    const blocks = text.split('\n\n').filter(Boolean);
    expect(blocks).toHaveLength(4);
    expect(blocks[2]).toBe('data: {"choices":[{');
    expect(blocks[3]).toBe('data: [DONE]');
  });

  it.each([
    ['stream_error', 'provider_request_failed'],
    ['stream_protocol_error', 'provider_protocol_error'],
  ])('%s sends a %s error event then [DONE]', async (fault, code) => {
    const got = await events(fault);
    expect(got).toHaveLength(4);
    expect(got[2].error.code).toBe(code);
    expect(got[3]).toBe('[DONE]');
  });

  it('no_finish sends content and [DONE] without any finish_reason', async () => {
    const got = await events('no_finish');
    expect(got.at(-1)).toBe('[DONE]');
    const content = got
      .filter((e) => typeof e === 'object')
      .map((e) => e.choices[0].delta.content ?? '')
      .join('');
    expect(content).toBe('word1 word2 word3 word4 word5 word6');
    expect(got.some((e) => typeof e === 'object' && e.choices[0]?.finish_reason)).toBe(false);
  });

  // It used to be dropped, silently: a test asking for a cut got a whole answer. Now refused.
  it('is refused on requests that do not stream', async () => {
    const response = await chat(createEmulator(), hello, withFault('stream_cut'));
    expect(response.status).toBe(400);
    expect(((await response.json()) as Json).error.param).toBe('x-emulator-fault');
  });
});

describe('fault rules', () => {
  it('a rule with times is used that many times then dropped', async () => {
    const emulator = createEmulator();
    emulator.injectFault({ fault: 'bad_gateway', times: 2 });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await chat(emulator, hello)).status);
    expect(statuses).toEqual([502, 502, 200]);
  });

  it('matches endpoint, model and apiKey', async () => {
    const emulator = createEmulator();
    emulator.injectFault({
      fault: 'service_unavailable',
      endpoint: 'chat',
      model: 'community/plain',
    });
    emulator.injectFault({ fault: 'model_busy', apiKey: DEFAULT_KEYS.nofallback, retryAfter: 3 });
    expect((await chat(emulator, hello)).status).toBe(200);
    expect((await chat(emulator, userChat('community/plain', 'x'))).status).toBe(503);
    expect((await call(emulator, '/models')).status).toBe(200);
    const busy = await call(emulator, '/models', { key: DEFAULT_KEYS.nofallback });
    expect(busy.status).toBe(429);
    expect(busy.headers.get('retry-after')).toBe('3');
  });

  it('scenario rules apply first; clearFaults removes the run-time rules only', async () => {
    const emulator = createEmulator({ faults: [{ fault: 'gateway_timeout', endpoint: 'models' }] });
    emulator.injectFault({ fault: 'bad_gateway' });
    expect((await call(emulator, '/models')).status).toBe(504);
    expect((await chat(emulator, hello)).status).toBe(502);
    emulator.clearFaults();
    expect((await call(emulator, '/models')).status).toBe(504);
    expect((await chat(emulator, hello)).status).toBe(200);
    emulator.scenario.faults.length = 0;
    expect((await call(emulator, '/models')).status).toBe(200);
  });

  it('a stream-fault rule waits for a streamed request', async () => {
    const emulator = createEmulator();
    emulator.injectFault({ fault: 'stream_error', times: 1, afterChunks: 1 });
    expect((await chat(emulator, hello)).status).toBe(200);
    const text = await (await chat(emulator, streamed)).text();
    expect(parseSse(text)[1]).toMatchObject({ error: { code: 'provider_request_failed' } });
    expect(parseSse(await (await chat(emulator, streamed)).text()).at(-1)).toBe('[DONE]');
  });

  it('knows the 24 fault names of the contract', () => {
    expect(FAULT_NAMES).toHaveLength(24);
  });

  it('every: N applies a rule to every Nth matching request', async () => {
    const emulator = createEmulator();
    emulator.injectFault({ fault: 'bad_gateway', model: 'community/general', every: 3 });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await chat(emulator, hello)).status);
    expect(statuses).toEqual([200, 200, 502, 200, 200, 502]);
  });

  it('refuses every / afterRequests in the header with 400 naming it', async () => {
    const error = await errorBodyOf(
      await chat(createEmulator(), streamed, withFault('stall_first_chunk; every=10')),
    );
    expect(error).toMatchObject({ status: 400, param: 'x-emulator-fault' });
    expect(error.message).toMatch(/every.*only works in a fault rule/);
  });
});

describe('model_offline', () => {
  const desk = userChat('my/desk-model', 'hello');
  const listed = async (emulator: Emulator) =>
    ((await (await call(emulator, '/models')).json()) as Json).data.map((m: Json) => m.id);

  it('with afterRequests: N, answers N requests, then 503 provider_unavailable and leaves /models', async () => {
    const emulator = createEmulator();
    emulator.injectFault({ fault: 'model_offline', model: 'my/desk-model', afterRequests: 2 });
    expect((await chat(emulator, desk)).status).toBe(200);
    expect(await listed(emulator)).toContain('my/desk-model');
    expect((await chat(emulator, desk)).status).toBe(200);
    const offline = await errorBodyOf(await chat(emulator, desk));
    expect(offline).toMatchObject({ status: 503, code: 'provider_unavailable' });
    expect(offline.message).toMatch(/my\/desk-model.*offline/);
    // Offline from then on, for streams too, and gone from the catalog.
    const stream = userChat('my/desk-model', 'x', { stream: true });
    expect(await errorBodyOf(await chat(emulator, stream))).toMatchObject({ status: 503 });
    expect(await listed(emulator)).not.toContain('my/desk-model');
    expect(emulator.scenario.models['my/desk-model']!.online).toBe(false);
    // Other models are untouched.
    expect((await chat(emulator, hello)).status).toBe(200);
  });

  it('answers as the spec says an offline model answers: the key may send it to the fallback pool model', async () => {
    const emulator = createEmulator({
      models: { 'my/desk-model': { fallback: 'pool-a/llama-3-8b' } },
    });
    emulator.injectFault({ fault: 'model_offline', model: 'my/desk-model' });
    const rerouted = await chat(emulator, desk); // the full key has the offline setting
    expect(rerouted.status).toBe(200);
    expect(rerouted.headers.get('x-service-model')).toBe('pool-a/llama-3-8b');
    const refused = await chat(emulator, desk, { key: DEFAULT_KEYS.nofallback });
    expect(await errorBodyOf(refused)).toMatchObject({ status: 503, code: 'provider_unavailable' });
  });

  it('as a header, takes the named model offline; setting online back restores it', async () => {
    const emulator = createEmulator();
    const response = await chat(emulator, desk, withFault('model_offline'));
    expect(await errorBodyOf(response)).toMatchObject({ code: 'provider_unavailable' });
    expect(await listed(emulator)).not.toContain('my/desk-model');
    emulator.scenario.models['my/desk-model']!.online = true;
    expect((await chat(emulator, desk)).status).toBe(200);
  });
});

describe('stall faults', () => {
  const stream = userChat('community/streamer', '[[words:6]]', { stream: true });
  const decoder = new TextDecoder();

  /** Reads once, reporting whether the read settled by the time `ms` of fake time passed. */
  async function readAfter(reader: ReadableStreamDefaultReader<Uint8Array>, ms: number) {
    let result: ReadableStreamReadResult<Uint8Array> | undefined;
    const pending = reader.read().then((r) => {
      result = r;
    });
    await vi.advanceTimersByTimeAsync(ms);
    return { settled: () => result, pending };
  }

  afterEach(() => {
    vi.useRealTimers();
  });

  it('stall_first_chunk sends the headers, then no byte for ms, then the stream as usual', async () => {
    vi.useFakeTimers();
    const emulator = createEmulator();
    const response = await chat(emulator, stream, withFault('stall_first_chunk; ms=5000'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = response.body!.getReader();
    const first = await readAfter(reader, 4999);
    expect(first.settled()).toBeUndefined();
    // The slot is held as a real server holds it.
    expect(emulator.counters.inflight[DEFAULT_KEYS.full]).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    await first.pending;
    let text = decoder.decode(first.settled()!.value);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value);
    }
    expect(parseSse(text).at(-1)).toBe('[DONE]');
    expect(emulator.counters.inflight[DEFAULT_KEYS.full]).toBe(0);
  });

  it('stall_first_chunk: an abort during the stall frees the key slot and the model at once', async () => {
    vi.useFakeTimers();
    const emulator = createEmulator();
    const aborter = new AbortController();
    const response = await chat(emulator, stream, {
      ...withFault('stall_first_chunk; ms=60000'),
      signal: aborter.signal,
    });
    const reader = response.body!.getReader();
    void reader.read().catch(() => undefined);
    await vi.advanceTimersByTimeAsync(10);
    const models = async () =>
      ((await (await call(emulator, '/models')).json()) as Json).data.find(
        (m: Json) => m.id === 'community/streamer',
      ).inflight;
    expect(await models()).toBe(1);
    aborter.abort();
    expect(emulator.counters.inflight[DEFAULT_KEYS.full]).toBe(0);
    expect(await models()).toBe(0);
    expect(vi.getTimerCount()).toBe(0); // the stall's timer went with it
  });

  it('stall_first_chunk: cancelling the body frees the slot at once', async () => {
    vi.useFakeTimers();
    const emulator = createEmulator();
    const response = await chat(emulator, stream, withFault('stall_first_chunk; ms=60000'));
    const reader = response.body!.getReader();
    void reader.read();
    await vi.advanceTimersByTimeAsync(10);
    await reader.cancel();
    expect(emulator.counters.inflight[DEFAULT_KEYS.full]).toBe(0);
  });

  it('stall_first_chunk is bounded by the request deadline: then a request_timeout event', async () => {
    vi.useFakeTimers();
    const emulator = createEmulator({ requestTimeoutMs: 1000 });
    const response = await chat(emulator, stream, withFault('stall_first_chunk; ms=60000'));
    const text = response.text();
    await vi.advanceTimersByTimeAsync(1000);
    const events = parseSse(await text) as Json[];
    expect(events[0]).toMatchObject({ error: { code: 'request_timeout' } });
    expect(events.at(-1)).toBe('[DONE]');
    expect(emulator.counters.inflight[DEFAULT_KEYS.full]).toBe(0);
  });

  it('stall_first_chunk on a non-streamed answer delays its headers (they come with the answer)', async () => {
    vi.useFakeTimers();
    let settled = false;
    const pending = chat(createEmulator(), hello, withFault('stall_first_chunk; ms=500')).then(
      (r) => {
        settled = true;
        return r;
      },
    );
    await vi.advanceTimersByTimeAsync(499);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await pending).status).toBe(200);
  });

  it('stall_stream sends afterChunks events, falls silent for ms, then continues to [DONE]', async () => {
    vi.useFakeTimers();
    const emulator = createEmulator();
    const response = await chat(emulator, stream, withFault('stall_stream; afterChunks=3; ms=800'));
    const reader = response.body!.getReader();
    const head = await reader.read();
    expect(parseSse(decoder.decode(head.value))).toHaveLength(3);
    const next = await readAfter(reader, 799);
    expect(next.settled()).toBeUndefined();
    expect(emulator.counters.inflight[DEFAULT_KEYS.full]).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    await next.pending;
    let text = decoder.decode(next.settled()!.value);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value);
    }
    const rest = parseSse(text) as Json[];
    const content = (events: Json[]) =>
      events
        .filter((e) => typeof e === 'object')
        .map((e) => e.choices[0]?.delta.content ?? '')
        .join('');
    const before = parseSse(decoder.decode(head.value)) as Json[];
    expect(content(before) + content(rest)).toBe('word1 word2 word3 word4 word5 word6');
    expect(rest.at(-1)).toBe('[DONE]');
  });

  it('a stall rule with every: 10 stalls the 10th stream of the model only', async () => {
    vi.useFakeTimers();
    const emulator = createEmulator();
    emulator.injectFault({
      fault: 'stall_first_chunk',
      model: 'community/streamer',
      every: 10,
      ms: 60000,
    });
    const outcomes: string[] = [];
    for (let i = 0; i < 10; i++) {
      const reader = (await chat(emulator, stream)).body!.getReader();
      const read = await readAfter(reader, 0);
      outcomes.push(read.settled() ? 'sent' : 'stalled');
      await reader.cancel();
    }
    expect(outcomes.filter((o) => o === 'stalled')).toHaveLength(1);
    expect(outcomes[9]).toBe('stalled');
  });
});

describe('keep-alive comments and empty deltas (issue 45.1)', () => {
  const stream = userChat('community/streamer', '[[words:6]]', { stream: true });
  const decoder = new TextDecoder();

  afterEach(() => {
    vi.useRealTimers();
  });

  /** Reads what the body sends while `ms` of fake time pass, in steps of `step`. */
  async function readFor(reader: ReadableStreamDefaultReader<Uint8Array>, ms: number, step = 10) {
    let text = '';
    let done = false;
    const pump = (async () => {
      for (;;) {
        const read = await reader.read();
        if (read.done) break;
        text += decoder.decode(read.value);
      }
      done = true;
    })().catch(() => undefined);
    for (let t = 0; t < ms; t += step) await vi.advanceTimersByTimeAsync(step);
    return { text: () => text, done: () => done, pump };
  }

  /** SSE blocks: `: keep-alive` comments as they are, data events JSON-parsed. */
  function blocks(text: string): unknown[] {
    return text
      .split('\n\n')
      .filter((block) => block.length > 0)
      .map((block) =>
        block.startsWith(':') || block === 'data: [DONE]' ? block : JSON.parse(block.slice(6)),
      );
  }

  it('keepalive_first_chunk sends a comment at once and every intervalMs for ms, then the stream', async () => {
    vi.useFakeTimers();
    const emulator = createEmulator();
    const response = await chat(
      emulator,
      stream,
      withFault('keepalive_first_chunk; ms=350; intervalMs=100'),
    );
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const during = await readFor(reader, 340);
    // At 0, 100, 200 and 300 ms; no event yet.
    expect(blocks(during.text())).toEqual(Array(4).fill(': keep-alive'));
    await vi.advanceTimersByTimeAsync(20);
    await during.pump;
    const all = blocks(during.text()) as Json[];
    expect(all.slice(0, 4)).toEqual(Array(4).fill(': keep-alive'));
    expect(all[4]).toMatchObject({ choices: [{ delta: { role: 'assistant' } }] });
    expect(all.at(-1)).toBe('data: [DONE]');
    expect(all.filter((b) => b === ': keep-alive')).toHaveLength(4);
    expect(emulator.counters.inflight[DEFAULT_KEYS.full]).toBe(0);
  });

  it('keepalive_stream sends afterChunks events, then only comments, until the client goes', async () => {
    vi.useFakeTimers();
    const emulator = createEmulator();
    const response = await chat(
      emulator,
      stream,
      withFault('keepalive_stream; afterChunks=2; intervalMs=100'),
    );
    const reader = response.body!.getReader();
    const read = await readFor(reader, 10_000, 100);
    const got = blocks(read.text());
    expect(got.slice(0, 2)).toMatchObject([
      { choices: [{ delta: { role: 'assistant' } }] },
      { choices: [{ delta: { content: 'word1 ' } }] },
    ]);
    const comments = got.slice(2);
    expect(comments.every((b) => b === ': keep-alive')).toBe(true);
    expect(comments.length).toBeGreaterThanOrEqual(100);
    expect(read.done()).toBe(false);
    // Still running: the slot and the model are held, as a real stream's are.
    expect(emulator.counters.inflight[DEFAULT_KEYS.full]).toBe(1);
    await reader.cancel();
    expect(emulator.counters.inflight[DEFAULT_KEYS.full]).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('keepalive_stream with afterChunks=0 never sends an event; the deadline ends it', async () => {
    vi.useFakeTimers();
    const emulator = createEmulator({ requestTimeoutMs: 1000 });
    const response = await chat(
      emulator,
      stream,
      withFault('keepalive_stream; afterChunks=0; intervalMs=300'),
    );
    const read = await readFor(response.body!.getReader(), 1100, 50);
    await read.pump;
    const got = blocks(read.text()) as Json[];
    expect(got.slice(0, 4)).toEqual(Array(4).fill(': keep-alive')); // 0, 300, 600, 900 ms
    expect(got[4]).toMatchObject({ error: { code: 'request_timeout' } });
    expect(got.at(-1)).toBe('data: [DONE]');
    expect(emulator.counters.inflight[DEFAULT_KEYS.full]).toBe(0);
  });

  it('empty_delta_stream sends empty deltas ({} and content "") forever after afterChunks', async () => {
    vi.useFakeTimers();
    const emulator = createEmulator();
    const aborter = new AbortController();
    const response = await chat(emulator, stream, {
      ...withFault('empty_delta_stream; afterChunks=1; intervalMs=50'),
      signal: aborter.signal,
    });
    const read = await readFor(response.body!.getReader(), 1000, 50);
    const got = blocks(read.text()) as Json[];
    expect(got[0]).toMatchObject({ choices: [{ delta: { role: 'assistant' } }] });
    const empty = got.slice(1);
    expect(empty.length).toBeGreaterThanOrEqual(20);
    for (const [i, chunk] of empty.entries()) {
      expect(chunk).toMatchObject({ id: got[0]!.id, object: 'chat.completion.chunk' });
      expect(chunk.choices).toEqual([
        { index: 0, delta: i % 2 === 0 ? {} : { content: '' }, finish_reason: null },
      ]);
    }
    expect(read.done()).toBe(false);
    aborter.abort();
    expect(emulator.counters.inflight[DEFAULT_KEYS.full]).toBe(0);
  });

  it.each(['keepalive_first_chunk', 'keepalive_stream', 'empty_delta_stream'])(
    '%s is refused on a non-streamed request (it would do nothing there)',
    async (fault) => {
      const response = await chat(createEmulator(), hello, withFault(fault));
      expect(response.status).toBe(400);
      expect(((await response.json()) as Json).error.message).toMatch(
        `${fault} acts only on streamed chat requests (stream: true)`,
      );
    },
  );
});

describe('fault windows: afterMs and forMs (issue 46.4)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a scenario rule with forMs fails the model from the start, then heals', async () => {
    vi.useFakeTimers();
    const emulator = createEmulator({
      faults: [{ fault: 'bad_gateway', model: 'community/general', forMs: 10_000 }],
    });
    expect((await chat(emulator, hello)).status).toBe(502);
    await vi.advanceTimersByTimeAsync(9_999);
    expect((await chat(emulator, hello)).status).toBe(502);
    expect((await chat(emulator, userChat('community/plain', 'hi'))).status).toBe(200);
    await vi.advanceTimersByTimeAsync(1);
    expect((await chat(emulator, hello)).status).toBe(200);
  });

  it('an injected rule counts afterMs and forMs from the injection', async () => {
    vi.useFakeTimers();
    const emulator = createEmulator();
    await vi.advanceTimersByTimeAsync(60_000);
    emulator.injectFault({ fault: 'bad_gateway', afterMs: 500, forMs: 1000 });
    const at = async (ms: number) => {
      await vi.advanceTimersByTimeAsync(ms);
      return (await chat(emulator, hello)).status;
    };
    expect(await at(0)).toBe(200);
    expect(await at(499)).toBe(200);
    expect(await at(1)).toBe(502);
    expect(await at(999)).toBe(502);
    expect(await at(1)).toBe(200);
  });

  it('requests outside the window are not counted by every', async () => {
    vi.useFakeTimers();
    const emulator = createEmulator();
    emulator.injectFault({ fault: 'bad_gateway', afterMs: 1000, every: 2 });
    const statuses = [(await chat(emulator, hello)).status, (await chat(emulator, hello)).status];
    await vi.advanceTimersByTimeAsync(1000);
    for (let i = 0; i < 4; i++) statuses.push((await chat(emulator, hello)).status);
    expect(statuses).toEqual([200, 200, 200, 502, 200, 502]);
  });

  it('refuses afterMs / forMs in a header, and an unknown fault or field in injectFault', async () => {
    const error = await errorBodyOf(
      await chat(createEmulator(), hello, withFault('bad_gateway; forMs=5')),
    );
    expect(error).toMatchObject({ status: 400, param: 'x-emulator-fault' });
    const emulator = createEmulator();
    expect(() => emulator.injectFault({ fault: 'bad_gatway' as 'bad_gateway' })).toThrow(
      /injectFault: fault "bad_gatway" is unknown/,
    );
    expect(() =>
      emulator.injectFault({ fault: 'bad_gateway', forMS: 5 } as unknown as FaultRule),
    ).toThrow(/injectFault: unknown field forMS — did you mean forMs\?/);
  });
});

describe("a model's time to first chunk: firstChunkMs (issue 46.4)", () => {
  const spec = { distribution: 'lognormal', p50Ms: 300, p99Ms: 900 } as const;
  /** Fake time past which a first event is not coming (far above the spec's p99). */
  const FIRST_EVENT_BOUND_MS = 10_000;

  afterEach(() => {
    vi.useRealTimers();
  });

  /** The fake time from the request to the first event of a stream (headers come at once). */
  async function timeToFirstEvent(emulator: Emulator, model: string): Promise<number> {
    const start = Date.now();
    const response = await chat(emulator, userChat(model, 'hi', { stream: true }));
    expect(Date.now() - start).toBe(0);
    const reader = response.body!.getReader();
    let first: ReadableStreamReadResult<Uint8Array> | undefined;
    void reader.read().then((read) => {
      first = read;
    });
    // (Bounded: a first event that never comes fails here, not at the test's timeout.)
    while (first === undefined && Date.now() - start < FIRST_EVENT_BOUND_MS) {
      await vi.advanceTimersByTimeAsync(1);
    }
    expect(first, `a first event within ${FIRST_EVENT_BOUND_MS} ms`).toBeDefined();
    const elapsed = Date.now() - start;
    await reader.cancel();
    return elapsed;
  }

  it('draws a fresh, seeded time to the first event for each stream, per model', async () => {
    vi.useFakeTimers();
    const scenario = {
      models: {
        'pool-b/a': { capabilities: ['chat', 'streaming'], firstChunkMs: { ...spec, seed: 9 } },
        'pool-b/b': { capabilities: ['chat', 'streaming'], firstChunkMs: { ...spec, seed: 9 } },
      },
    } satisfies ScenarioInput;
    const run = async () => {
      const emulator = createEmulator(scenario);
      const a: number[] = [];
      const b: number[] = [];
      for (let i = 0; i < 5; i++) a.push(await timeToFirstEvent(emulator, 'pool-b/a'));
      for (let i = 0; i < 5; i++) b.push(await timeToFirstEvent(emulator, 'pool-b/b'));
      return { a, b };
    };
    const first = await run();
    expect(new Set(first.a).size).toBeGreaterThan(1); // drawn afresh
    expect(first.a).not.toEqual(first.b); // each model its own sequence
    expect(await run()).toEqual(first); // the same on every run
    for (const ms of [...first.a, ...first.b]) expect(ms).toBeGreaterThan(50);
  });

  it('delays the headers of a non-streamed answer by the same draw', async () => {
    vi.useFakeTimers();
    const scenario = { models: { 'pool-b/a': { firstChunkMs: { ...spec, seed: 9 } } } };
    // The first draw of this model, read from a stream of a twin emulator.
    const twin = createEmulator({
      models: {
        'pool-b/a': { capabilities: ['chat', 'streaming'], firstChunkMs: { ...spec, seed: 9 } },
      },
    });
    const expected = await timeToFirstEvent(twin, 'pool-b/a');
    const start = Date.now();
    let settled = false;
    const pending = chat(createEmulator(scenario), userChat('pool-b/a', 'hi')).then((r) => {
      settled = true;
      return r;
    });
    await vi.advanceTimersByTimeAsync(expected - 1);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await pending).status).toBe(200);
    expect(Date.now() - start).toBe(expected);
  });
});

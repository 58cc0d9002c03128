import { describe, expect, it } from 'vitest';
import { caught, type EmulateAs, type EmulatedGateway } from '../src/testing/index';
import { gatewaysPerTest } from './helpers';

// An abort of the request's signal, as fetch treats it, is the same whichever way the client
// reaches the emulator: before the headers the call rejects with the signal's reason, after them
// the next read of the body does, for every kind of body. Over HTTP and through msw the real
// fetch does it; as a fetch function (`emulate()`'s default) the emulator must do it itself.

const gatewayAs = gatewaysPerTest();

interface Ask {
  path: string;
  body?: Record<string, unknown>;
  fault?: string;
}

// A stream's first event at once, the next a minute later: still going when aborted. (Not for a
// JSON answer, which would wait out the whole generation before its headers.)
const SLOW_STREAM = { streamChunkDelayMs: 60_000 };

const chatBody = (stream: boolean) => ({
  model: 'community/general',
  messages: [{ role: 'user', content: 'one two three four' }],
  stream,
});

function ask(gateway: EmulatedGateway, { path, body, fault }: Ask, signal: AbortSignal) {
  const headers: Record<string, string> = { authorization: `Bearer ${gateway.apiKey}` };
  if (body) headers['content-type'] = 'application/json';
  if (fault) headers['x-infergate-fault'] = fault;
  return gateway.fetch(`${gateway.baseURL}${path}`, {
    method: body ? 'POST' : 'GET',
    headers,
    body: body && JSON.stringify(body),
    signal,
  });
}

const MODES: EmulateAs[] = ['fetch', 'msw', 'http'];

// `readFirst`: the client has read the first chunk before it aborts (a stream under way).
const BODIES: [string, Ask & { readFirst: boolean }][] = [
  ['a streamed chat answer', { path: '/chat/completions', body: chatBody(true), readFirst: true }],
  [
    'a streamed chat answer not read yet',
    { path: '/chat/completions', body: chatBody(true), readFirst: false },
  ],
  ['a JSON chat answer', { path: '/chat/completions', body: chatBody(false), readFirst: false }],
  [
    'an embeddings answer',
    {
      path: '/embeddings',
      body: { model: 'community/embed', input: ['a', 'b'] },
      readFirst: false,
    },
  ],
  ['the catalog', { path: '/models', readFirst: false }],
  [
    'a stream that a stream_cut fault will cut',
    {
      path: '/chat/completions',
      body: chatBody(true),
      fault: 'stream_cut; afterChunks=2',
      readFirst: true,
    },
  ],
  [
    'a stream stalled by stall_stream',
    {
      path: '/chat/completions',
      body: chatBody(true),
      fault: 'stall_stream; afterChunks=1; ms=600000',
      readFirst: true,
    },
  ],
  [
    'a truncated_json answer',
    { path: '/chat/completions', body: chatBody(false), fault: 'truncated_json', readFirst: false },
  ],
  [
    'a refusal (rate_limit)',
    { path: '/chat/completions', body: chatBody(false), fault: 'rate_limit', readFirst: false },
  ],
];

describe.each(MODES)("emulate({ as: '%s' }): an abort after the headers", (as) => {
  it.each(BODIES)(
    'errors %s with the signal reason at the next read, and frees its slot',
    async (_, { readFirst, ...what }) => {
      const gateway = await gatewayAs(as, what.body?.stream ? SLOW_STREAM : {});
      const aborter = new AbortController();
      const response = await ask(gateway, what, aborter.signal);
      const reader = response.body!.getReader();
      if (readFirst) expect((await reader.read()).done).toBe(false);
      const reason = new Error('the caller gave up');
      aborter.abort(reason);
      expect(await caught(reader.read())).toBe(reason);
      await gateway.untilIdle();
    },
  );

  it('counts an aborted stream as cancelled, as its reader cancelling it', async () => {
    const gateway = await gatewayAs(as, SLOW_STREAM);
    const aborter = new AbortController();
    const ask1 = { path: '/chat/completions', body: chatBody(true) };
    const reader = (await ask(gateway, ask1, aborter.signal)).body!.getReader();
    await reader.read();
    aborter.abort();
    expect((await caught(reader.read())).name).toBe('AbortError');
    await gateway.untilCancelled(1);
    await gateway.untilIdle();
    expect(gateway.counters.streamsCancelled).toBe(1);
  });

  it('leaves a body read to its end as it was', async () => {
    const gateway = await gatewayAs(as);
    const aborter = new AbortController();
    const response = await ask(
      gateway,
      { path: '/chat/completions', body: chatBody(false) },
      aborter.signal,
    );
    const text = await response.text();
    aborter.abort();
    expect(JSON.parse(text)).toMatchObject({ object: 'chat.completion' });
    await gateway.untilIdle();
    expect(gateway.counters.streamsCancelled).toBe(0);
  });
});

describe.each(MODES)("emulate({ as: '%s' }): an abort before the headers", (as) => {
  it('rejects the call with the signal reason', async () => {
    const gateway = await gatewayAs(as);
    gateway.hold();
    const aborter = new AbortController();
    const answer = ask(
      gateway,
      { path: '/chat/completions', body: chatBody(true) },
      aborter.signal,
    );
    await gateway.untilHeld(1);
    const reason = new Error('the caller gave up');
    aborter.abort(reason);
    expect(await caught(answer)).toBe(reason);
    await gateway.untilIdle();
  });
});

// docs/gateway-protocol.md §5.3 (a lone choice without `index` in a stream).
// One choice asked: once a chunk's lone choice came without `index`, each lone choice is the
// answer's whatever index it says, before or after it (the AI SDK reads each chunk's first choice,
// ChatOpenAI joins every chunk). Several asked: a lone choice without `index` is at its position
// (choice 0), never glued to the choice another chunk sent; after a chunk of several choices,
// too.
import { chatSse, emulate } from '@infergate/emulator/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createGatewayClient } from '../../client/client';

const USAGE = { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 };
const MODEL = 'community/general';
const ask = { model: MODEL, messages: [{ role: 'user' as const, content: 'hi' }] };
const gateway = await emulate({ hooks: { afterEach, afterAll } });

/** Core's client on the emulator (its catalog), whose chat answers are `sse`. */
function answering(sse: string) {
  const fetch: typeof globalThis.fetch = (input, init) => {
    const request = new Request(input, init);
    return request.url.endsWith('/chat/completions')
      ? Promise.resolve(new Response(sse, { headers: { 'content-type': 'text/event-stream' } }))
      : gateway.fetch(request);
  };
  return createGatewayClient({ ...gateway.connection, fetch, maxRetries: 0 });
}

/** The stream's text pieces as [choiceIndex, text], and its result's text and finish. */
async function read(sse: string, n?: number) {
  const stream = await answering(sse).chatStream(n === undefined ? ask : { ...ask, n });
  const pieces: [number, string][] = [];
  for await (const event of stream) {
    if (event.type === 'text-delta') pieces.push([event.choiceIndex, event.delta]);
  }
  const result = await stream.result();
  return { pieces, text: result.text, finish: result.finishReason };
}

describe('one choice asked, lone choices with and without index', () => {
  it('first without index, then index 1 (and its finish): one answer', async () => {
    const sse = chatSse(MODEL, [
      { choices: [{ delta: { role: 'assistant', content: 'Hel' } }] },
      { choices: [{ index: 1, delta: { content: 'lo' } }] },
      { choices: [{ index: 1, delta: {}, finish_reason: 'stop' }], usage: USAGE },
    ]);
    expect(await read(sse)).toEqual({
      pieces: [
        [0, 'Hel'],
        [0, 'lo'],
      ],
      text: 'Hello',
      finish: 'stop',
    });
  });

  it('index 1, then without index, then a finish at index 0: one answer', async () => {
    const sse = chatSse(MODEL, [
      { choices: [{ index: 1, delta: { role: 'assistant', content: 'Hel' } }] },
      { choices: [{ delta: { content: 'lo' } }] },
      { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage: USAGE },
    ]);
    expect(await read(sse, 1)).toEqual({
      pieces: [
        [0, 'Hel'],
        [0, 'lo'],
      ],
      text: 'Hello',
      finish: 'stop',
    });
  });
});

describe('two choices asked, a lone choice without index', () => {
  it('after choice 1 is choice 0 (its position), not glued to choice 1', async () => {
    const sse = chatSse(MODEL, [
      { choices: [{ index: 1, delta: { role: 'assistant', content: 'B' } }] },
      { choices: [{ delta: { role: 'assistant', content: 'A' } }] },
      {
        choices: [
          { index: 0, delta: {}, finish_reason: 'stop' },
          { index: 1, delta: {}, finish_reason: 'stop' },
        ],
        usage: USAGE,
      },
    ]);
    expect(await read(sse, 2)).toEqual({
      pieces: [
        [1, 'B'],
        [0, 'A'],
      ],
      text: 'A',
      finish: 'stop',
    });
  });
});

describe('a lone choice without index after the first chunk', () => {
  it("continues the stream's only choice so far (sent as index 1)", async () => {
    const sse = chatSse(MODEL, [
      { choices: [{ index: 1, delta: { role: 'assistant', content: 'Hel' } }] },
      { choices: [{ delta: { content: 'lo' } }] },
      { choices: [{ delta: {}, finish_reason: 'stop' }], usage: USAGE },
    ]);
    const { pieces, text, finish } = await read(sse);
    expect(pieces).toEqual([
      [0, 'Hel'],
      [0, 'lo'],
    ]);
    expect([text, finish]).toEqual(['Hello', 'stop']);
  });

  it('after two choices, is at its position (choice 0), as before', async () => {
    const sse = chatSse(MODEL, [
      {
        choices: [
          { index: 0, delta: { role: 'assistant', content: 'A' } },
          { index: 1, delta: { role: 'assistant', content: 'B' } },
        ],
      },
      { choices: [{ delta: { content: '2' } }] },
      {
        choices: [
          { index: 0, delta: {}, finish_reason: 'stop' },
          { index: 1, delta: {}, finish_reason: 'stop' },
        ],
        usage: USAGE,
      },
    ]);
    expect((await read(sse, 2)).text).toBe('A2');
  });
});

// docs/gateway-protocol.md §5.3 (a choice without `index` in a later chunk).
// A stream whose first chunk's lone choice says `index: 1` and whose later chunks carry their lone
// choice without `index`: the later pieces continue the only choice sent so far, as both anchors
// read them (the AI SDK reads each chunk's first choice, ChatOpenAI joins every chunk of
// `stream()`), so the answer is the whole text, not a stream "without a finish".
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

describe('a lone choice without index after the first chunk', () => {
  it("continues the stream's only choice so far (sent as index 1)", async () => {
    const sse = chatSse(MODEL, [
      { choices: [{ index: 1, delta: { role: 'assistant', content: 'Hel' } }] },
      { choices: [{ delta: { content: 'lo' } }] },
      { choices: [{ delta: {}, finish_reason: 'stop' }], usage: USAGE },
    ]);
    const stream = await answering(sse).chatStream(ask);
    const pieces: [number, string][] = [];
    for await (const event of stream) {
      if (event.type === 'text-delta') pieces.push([event.choiceIndex, event.delta]);
    }
    expect(pieces).toEqual([
      [0, 'Hel'],
      [0, 'lo'],
    ]);
    const result = await stream.result();
    expect([result.text, result.finishReason]).toEqual(['Hello', 'stop']);
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
    const result = await (await answering(sse).chatStream({ ...ask, n: 2 })).result();
    expect(result.text).toBe('A2');
  });
});

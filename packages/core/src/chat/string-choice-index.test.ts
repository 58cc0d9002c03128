// docs/gateway-protocol.md §5.3: a choice's `index` sent as the text of a whole number (`"1"`) is
// that number, as ChatOpenAI reads it (it groups a stream's chunks by it: `"1"` and 1 are one
// choice); `null`, or an index of any other kind, is none: the choice's position places it, as the
// AI SDK (which reads no index) answers the same stream.
import { chatCompletion, chatSse, chatsAnsweredBy, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { type ChatRequest, createGatewayClient } from '../index';

const MODEL = 'community/general';

/** A client whose chat answers are `body` (an event stream when `stream`, else JSON). */
async function answering(body: string, stream = true) {
  const { connection } = await emulate();
  const type = stream ? 'text/event-stream' : 'application/json';
  const fetch = chatsAnsweredBy(
    connection,
    () => new Response(body, { headers: { 'content-type': type } }),
  );
  return createGatewayClient({ ...connection, maxRetries: 0, fetch });
}

const ask = (n?: number): ChatRequest => ({
  model: MODEL,
  messages: [{ role: 'user', content: 'hi' }],
  ...(n === undefined ? {} : { n }),
});

/** A stream's texts by choice, and its answer's text and finish. */
async function streamed(body: string, n?: number) {
  const stream = await (await answering(body)).chatStream(ask(n));
  const texts: Record<number, string> = {};
  for await (const event of stream) {
    if (event.type === 'text-delta') {
      texts[event.choiceIndex] = (texts[event.choiceIndex] ?? '') + event.delta;
    }
  }
  const result = await stream.result();
  return { texts, text: result.text, finish: result.finishReason };
}

describe('a choice index sent as text', () => {
  it('two choices asked: "1" is choice 1, null choice 0 (by its position)', async () => {
    const body = chatSse(MODEL, [
      { choices: [{ index: null, delta: { role: 'assistant', content: 'A' } }] },
      { choices: [{ index: '1', delta: { content: 'B' } }] },
      { choices: [{ index: 1, delta: { content: 'C' }, finish_reason: 'stop' }] },
      { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
    ]);
    expect(await streamed(body, 2)).toEqual({
      texts: { 0: 'A', 1: 'BC' },
      text: 'A',
      finish: 'stop',
    });
  });

  it('two choices asked: "0" and "1" in one chunk are choices 0 and 1, whichever comes first', async () => {
    const body = chatSse(MODEL, [
      {
        choices: [
          { index: '1', delta: { content: 'B' } },
          { index: '0', delta: { content: 'A' } },
        ],
      },
      {
        choices: [
          { index: '1', delta: {}, finish_reason: 'length' },
          { index: '0', delta: {}, finish_reason: 'stop' },
        ],
      },
    ]);
    expect(await streamed(body, 2)).toEqual({
      texts: { 0: 'A', 1: 'B' },
      text: 'A',
      finish: 'stop',
    });
  });

  it('a whole answer of two: the choice sent as "0" is the answer', async () => {
    const message = (content: string) => ({ role: 'assistant', content });
    const body = chatCompletion(MODEL, '', {
      choices: [
        { index: '1', message: message('B'), finish_reason: 'stop' },
        { index: '0', message: message('A'), finish_reason: 'stop' },
      ],
    });
    const result = await (await answering(JSON.stringify(body), false)).chat(ask(2));
    expect(result.answer.text).toBe('A');
  });

  it.each([['x'], ['01'], [' 1'], ['-1'], [true], [{}], [[1]]])(
    'one choice asked: an index of another kind (%j) names no choice, the answer goes on by position',
    async (index) => {
      const body = chatSse(MODEL, [
        { choices: [{ index: 0, delta: { role: 'assistant', content: 'A' } }] },
        { choices: [{ index, delta: { content: 'B' }, finish_reason: 'stop' }] },
      ]);
      expect(await streamed(body)).toEqual({ texts: { 0: 'AB' }, text: 'AB', finish: 'stop' });
    },
  );
});

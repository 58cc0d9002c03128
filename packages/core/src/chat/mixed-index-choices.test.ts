// A chunk (or a whole answer) where some choices carry `index` and one does not: the one without
// takes the lowest index none was sent with, never one sent, so two choices are not glued into one
// answer (rv-2d F3, rv-last F1: by its position it could take `[{ index: 1 }, {}]`'s 1, and as 0
// `[{ index: 0 }, {}]`'s 0). Where none carries an index, that is its position
// (indexless-choices.test.ts).
import { chatCompletion, chatSse } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { withCatalog } from '../../test/helpers';
import { createGatewayClient } from '../client/client';

const USAGE = { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 };
const ask = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }] };

/** A client whose chat answers are `body` (SSE when `stream`, else JSON). */
function answering(body: string, stream: boolean) {
  const type = stream ? 'text/event-stream' : 'application/json';
  return createGatewayClient({
    baseURL: `https://mixed-index-${Math.random()}.test`,
    apiKey: 'k',
    maxRetries: 0,
    fetch: withCatalog(async () => new Response(body, { headers: { 'content-type': type } })),
  });
}

describe('choices some of which carry index', () => {
  it('streamed: one sent as index 1 and one without are two choices, not one text', async () => {
    const sse = chatSse('m', [
      {
        choices: [
          { index: 1, delta: { role: 'assistant', content: 'B' } },
          { delta: { role: 'assistant', content: 'A' } },
        ],
      },
      {
        choices: [
          { index: 1, delta: {}, finish_reason: 'stop' },
          { delta: {}, finish_reason: 'stop' },
        ],
        usage: USAGE,
      },
    ]);
    const stream = await answering(sse, true).chatStream(ask);
    for await (const _event of stream) {
      // (Read to its end.)
    }
    expect((await stream.result()).text).toBe('A');
  });

  it('streamed: one sent as index 0 and one without are two choices, not one text', async () => {
    const sse = chatSse('m', [
      { choices: [{ index: 0, delta: { content: 'A1' } }, { delta: { content: 'B1' } }] },
      { choices: [{ index: 0, delta: { content: 'A2' } }, { delta: { content: 'B2' } }] },
      {
        choices: [
          { index: 0, delta: {}, finish_reason: 'stop' },
          { delta: {}, finish_reason: 'stop' },
        ],
        usage: USAGE,
      },
    ]);
    const stream = await answering(sse, true).chatStream(ask);
    for await (const _event of stream) {
      // (Read to its end.)
    }
    expect((await stream.result()).text).toBe('A1A2');
  });

  it('whole: the one without index is choice 0, the other kept as choice 1', async () => {
    const message = (content: string) => ({ role: 'assistant', content });
    const body = chatCompletion('m', '', {
      choices: [
        { index: 1, message: message('B'), finish_reason: 'stop' },
        { message: message('A'), finish_reason: 'stop' },
      ],
      usage: USAGE,
    });
    const result = await answering(JSON.stringify(body), false).chat({ ...ask, n: 2 });
    expect(result.answer.text).toBe('A');
    expect(result.choices?.map((choice) => choice.text)).toEqual(['A', 'B']);
  });
});

// A server that omits each choice's `index` lists them in order: a choice without one is at its
// position in `choices` (docs/gateway-protocol.md §4.3, §5.2), so the answer is the first, as the
// anchors read it, and the others are not glued into it; a lone one per chunk stays choice 0.
import { chatSse } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { withCatalog } from '../../test/helpers';
import { createGatewayClient } from '../client/client';

const USAGE = { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 };
const ask = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }] };
const call = (id: string, city: string) => ({
  index: 0,
  id,
  type: 'function',
  function: { name: 'get_weather', arguments: JSON.stringify({ city }) },
});

/** A client whose chat answers are `body` (SSE when `stream`, else JSON). */
function answering(body: string, stream: boolean) {
  const type = stream ? 'text/event-stream' : 'application/json';
  return createGatewayClient({
    baseURL: `https://indexless-${Math.random()}.test`,
    apiKey: 'k',
    maxRetries: 0,
    fetch: withCatalog(async () => new Response(body, { headers: { 'content-type': type } })),
  });
}

describe('streamed choices without index', () => {
  it('two per chunk: the answer is the first, its text alone', async () => {
    const sse = chatSse('m', [
      {
        choices: [
          { delta: { role: 'assistant', content: 'The answer is yes.' } },
          { delta: { role: 'assistant', content: 'The answer is no.' } },
        ],
      },
      {
        choices: [
          { delta: {}, finish_reason: 'stop' },
          { delta: {}, finish_reason: 'stop' },
        ],
        usage: USAGE,
      },
    ]);
    const stream = await answering(sse, true).chatStream(ask);
    const texts: string[] = [];
    for await (const event of stream) {
      if (event.type === 'text-delta') texts[event.choiceIndex] = event.delta;
    }
    expect(texts).toEqual(['The answer is yes.', 'The answer is no.']);
    expect((await stream.result()).text).toBe('The answer is yes.');
  });

  it("two per chunk with tool calls: the first choice's call only", async () => {
    const sse = chatSse('m', [
      {
        choices: [
          { delta: { role: 'assistant', tool_calls: [call('call_a', 'Oslo')] } },
          { delta: { role: 'assistant', tool_calls: [call('call_b', 'Rome')] } },
        ],
      },
      {
        choices: [
          { delta: {}, finish_reason: 'tool_calls' },
          { delta: {}, finish_reason: 'tool_calls' },
        ],
        usage: USAGE,
      },
    ]);
    const result = await (await answering(sse, true).chatStream(ask)).result();
    expect(result.toolCalls.map((each) => [each.id, each.arguments])).toEqual([
      ['call_a', '{"city":"Oslo"}'],
    ]);
  });

  it('one per chunk, chunk after chunk: all of it choice 0', async () => {
    const sse = chatSse('m', [
      { choices: [{ delta: { role: 'assistant', content: 'Hel' } }] },
      { choices: [{ delta: { content: 'lo' } }] },
      { choices: [{ delta: {}, finish_reason: 'stop' }], usage: USAGE },
    ]);
    const result = await (await answering(sse, true).chatStream(ask)).result();
    expect(result.text).toBe('Hello');
    expect(result.finishReason).toBe('stop');
  });
});

describe('whole-answer choices without index', () => {
  const answer = (choices: object[]) =>
    JSON.stringify({ id: 'c1', object: 'chat.completion', model: 'm', choices, usage: USAGE });
  const choice = (content: string) => ({
    message: { role: 'assistant', content },
    finish_reason: 'stop',
  });

  it('the answer is the first', async () => {
    const result = await answering(answer([choice('A'), choice('B')]), false).chat(ask);
    expect(result.answer.text).toBe('A');
  });

  it('with n asked, every choice in its position', async () => {
    const body = answer([choice('A'), choice('B'), choice('C')]);
    const result = await answering(body, false).chat({ ...ask, n: 3 });
    expect(result.choices?.map((each) => each.text)).toEqual(['A', 'B', 'C']);
  });

  it('indexes sent, none 0: refused, in words that say so', async () => {
    const body = answer([
      { index: 1, ...choice('A') },
      { index: 2, ...choice('B') },
    ]);
    await expect(answering(body, false).chat(ask)).rejects.toMatchObject({
      code: 'invalid_response',
      message: expect.stringContaining('no choice of index 0'),
    });
  });
});

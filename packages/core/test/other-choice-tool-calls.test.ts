// An answer with several choices (`n` > 1, or a server that sends them unasked): the answer is
// choice 0 (docs/gateway-protocol.md §4.3), its tool calls too. Another choice's tool-call pieces
// must not join choice 0's calls, streamed or whole.
import { describe, expect, it } from 'vitest';
import { type ChatRequest, createGatewayClient } from '../src/index';
import { withCatalog } from './helpers';

const call = (id: string | undefined, name: string | undefined, args: string) => ({
  index: 0,
  ...(id && { id, type: 'function' }),
  function: { ...(name && { name }), arguments: args },
});
const both = (zero: object, one: object, finish: string | null = null) => ({
  id: 'c1',
  object: 'chat.completion.chunk',
  model: 'm/x',
  choices: [
    { index: 0, delta: zero, finish_reason: finish },
    { index: 1, delta: one, finish_reason: finish },
  ],
});

/** Two choices, each calling `weather`: choice 0 for Kyiv, choice 1 for Lviv, in the same chunks. */
const TWO_CHOICES_SSE = [
  both(
    { tool_calls: [call('call_a', 'weather', '{"city":"Ky')] },
    { tool_calls: [call('call_b', 'weather', '{"city":"Lv')] },
  ),
  both(
    { tool_calls: [call(undefined, undefined, 'iv"}')] },
    { tool_calls: [call(undefined, undefined, 'iv"}')] },
  ),
  both({}, {}, 'tool_calls'),
]
  .map((event) => `data: ${JSON.stringify(event)}\n\n`)
  .join('')
  .concat('data: [DONE]\n\n');

const message = (id: string, city: string) => ({
  role: 'assistant',
  content: null,
  tool_calls: [
    { id, type: 'function', function: { name: 'weather', arguments: `{"city":"${city}"}` } },
  ],
});
const TWO_CHOICES_JSON = {
  id: 'c1',
  object: 'chat.completion',
  model: 'm/x',
  choices: [
    { index: 1, message: message('call_b', 'Lviv'), finish_reason: 'tool_calls' },
    { index: 0, message: message('call_a', 'Kyiv'), finish_reason: 'tool_calls' },
  ],
};

const client = createGatewayClient({
  baseURL: 'https://choices.test/v1',
  apiKey: 'k',
  fetch: withCatalog(
    async (_input, init) => {
      const body = JSON.parse(String(init?.body));
      return body.stream
        ? new Response(TWO_CHOICES_SSE, { headers: { 'content-type': 'text/event-stream' } })
        : Response.json(TWO_CHOICES_JSON);
    },
    ['m/x'],
  ),
});

const req: ChatRequest = {
  model: 'm/x',
  messages: [{ role: 'user', content: 'weather in Kyiv' }],
  tools: [{ type: 'function', function: { name: 'weather', parameters: { type: 'object' } } }],
  n: 2,
} as ChatRequest;

const KYIV_CALL = { id: 'call_a', name: 'weather', arguments: '{"city":"Kyiv"}' };

describe('two choices with tool calls', () => {
  it("chatStream: choice 0's call, whole; choice 1's pieces are not among its events", async () => {
    const stream = await client.chatStream(req);
    const pieces: string[] = [];
    for await (const event of stream) {
      if (event.type === 'tool-call-delta') pieces.push(`${event.call}:${event.argumentsDelta}`);
    }
    expect(pieces).toEqual(['0:{"city":"Ky', '0:iv"}']);
    const result = await stream.result();
    expect(result.toolCalls).toEqual([KYIV_CALL]);
  });

  it("chat: choice 0's call (by its index, not its place)", async () => {
    const result = await client.chat(req);
    expect(result.answer.toolCalls).toEqual([KYIV_CALL]);
  });
});

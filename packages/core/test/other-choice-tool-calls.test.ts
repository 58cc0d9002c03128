// An answer with several choices (`n` > 1, or a server that sends them unasked): the answer is
// choice 0 (docs/gateway-protocol.md §4.3), its tool calls too. Another choice's tool-call pieces
// must not join choice 0's calls, streamed or whole.

import { twoChoicesAnswer } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { type ChatRequest, createGatewayClient } from '../src/index';
import { withCatalog } from './helpers';

const client = createGatewayClient({
  baseURL: 'https://choices.test/v1',
  apiKey: 'k',
  fetch: withCatalog(
    async (_input, init) => {
      const body = JSON.parse(String(init?.body));
      return twoChoicesAnswer('m/x', body.stream === true);
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

describe('two choices with tool-call arguments sent as JSON objects (llama.cpp)', () => {
  const call = (id: string) => ({
    id,
    type: 'function',
    function: { name: 'weather', arguments: { city: 'Kyiv' } },
  });
  const choice = (index: number, id: string) => ({
    index,
    message: { role: 'assistant', content: null, tool_calls: [call(id)] },
    finish_reason: 'tool_calls',
  });
  const objects = createGatewayClient({
    baseURL: 'https://choices.test/v1',
    apiKey: 'k',
    fetch: withCatalog(
      async () =>
        Response.json({
          id: 'c',
          object: 'chat.completion',
          created: 1,
          model: 'm/x',
          choices: [choice(0, 'a'), choice(1, 'b')],
        }),
      ['m/x'],
    ),
  });

  it("chat: every choice's arguments are JSON text in the response, as its type says", async () => {
    const result = await objects.chat(req);
    const args = result.response.choices.map((c) => c.message.tool_calls?.[0]?.function.arguments);
    expect(args).toEqual(['{"city":"Kyiv"}', '{"city":"Kyiv"}']);
  });
});

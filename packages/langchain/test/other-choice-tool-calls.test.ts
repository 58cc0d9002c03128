// A streamed answer with two choices (a server sending them unasked, or `n: 2` in modelKwargs): the
// message's tool calls are choice 0's, whole (docs/gateway-protocol.md §4.3); choice 1's pieces
// never join them. Core decides; the adapter maps.
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { intercepting } from './helpers';

const call = (id: string | undefined, name: string | undefined, args: string) => ({
  index: 0,
  ...(id && { id, type: 'function' }),
  function: { ...(name && { name }), arguments: args },
});
const both = (zero: object, one: object, finish: string | null = null) =>
  `data: ${JSON.stringify({
    id: 'c1',
    object: 'chat.completion.chunk',
    model: 'community/general',
    choices: [
      { index: 0, delta: zero, finish_reason: finish },
      { index: 1, delta: one, finish_reason: finish },
    ],
  })}\n\n`;

function twoChoices(): Response {
  const body = [
    both(
      { tool_calls: [call('call_a', 'weather', '{"city":"Ky')] },
      { tool_calls: [call('call_b', 'weather', '{"city":"Lv')] },
    ),
    both(
      { tool_calls: [call(undefined, undefined, 'iv"}')] },
      { tool_calls: [call(undefined, undefined, 'iv"}')] },
    ),
    both({}, {}, 'tool_calls'),
    'data: [DONE]\n\n',
  ].join('');
  return new Response(body, {
    headers: { 'content-type': 'text/event-stream', 'x-service-model': 'community/general' },
  });
}

describe('two choices with tool calls, streamed', () => {
  it("stream(): one call, choice 0's, its arguments whole", async () => {
    const connection = intercepting(await emulate(), async (request) =>
      request.url.endsWith('/chat/completions') ? twoChoices() : undefined,
    );
    const model = new GatewayChatModel('community/general', connection);
    const chunks = [];
    for await (const chunk of await model.stream('weather in Kyiv?')) chunks.push(chunk);
    const merged = chunks.reduce((a, b) => a.concat(b));
    expect(merged.tool_calls).toEqual([
      { type: 'tool_call', id: 'call_a', name: 'weather', args: { city: 'Kyiv' } },
    ]);
    expect(merged.invalid_tool_calls ?? []).toEqual([]);
  });
});

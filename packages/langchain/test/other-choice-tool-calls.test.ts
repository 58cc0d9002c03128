// A streamed answer with two choices (a server sending them unasked; asked with `n: 2` in
// modelKwargs, a stream is refused: streamed-choices-refused.test.ts): the
// message's tool calls are choice 0's, whole (docs/gateway-protocol.md §4.3); choice 1's pieces
// never join them. Core decides; the adapter maps.
import { emulate, twoChoicesAnswer } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { intercepting } from './helpers';

describe('two choices with tool calls, streamed', () => {
  it("stream(): one call, choice 0's, its arguments whole", async () => {
    const connection = intercepting(await emulate(), async (request) =>
      request.url.endsWith('/chat/completions')
        ? twoChoicesAnswer('community/general', true)
        : undefined,
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

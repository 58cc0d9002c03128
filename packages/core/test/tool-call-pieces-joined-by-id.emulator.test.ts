import { idOnlyToolCallsSse } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { chatAnsweredWith, hi } from './helpers';

// docs/gateway-protocol.md §5.4: a server that tells parallel calls apart only by `id` interleaves
// their pieces without `index`, or with `index: 0` on every one. A piece carrying the id of an
// earlier call joins that call: `chatStream`'s result and its events name two calls, each with its
// own arguments. The emulator serves the catalog; a stub answers the stream with those bytes.
const MODEL = 'community/general';
const SSE = { 'content-type': 'text/event-stream' };

describe('streamed tool-call pieces told apart only by id', () => {
  for (const [shape, index] of [
    ['without index', undefined],
    ['all at index 0', 0],
  ] as const) {
    it(`joins each piece to the call its id names (${shape})`, async () => {
      const client = await chatAnsweredWith(idOnlyToolCallsSse(MODEL, index), SSE);
      const stream = await client.chatStream(hi(MODEL));
      const calls: [number, string][] = [];
      for await (const event of stream)
        if (event.type === 'tool-call-delta') calls.push([event.call, event.argumentsDelta]);
      expect(calls).toEqual([
        [0, '{"city":'],
        [1, '{"city":'],
        [0, '"Rome"}'],
        [1, '"Paris"}'],
      ]);
      const result = await stream.result();
      expect(result.toolCalls).toEqual([
        { id: 'call_a', name: 'weather', arguments: '{"city":"Rome"}' },
        { id: 'call_b', name: 'time', arguments: '{"city":"Paris"}' },
      ]);
    });
  }
});

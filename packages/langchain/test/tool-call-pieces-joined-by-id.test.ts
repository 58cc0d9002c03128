// Parallel calls a server tells apart only by `id` (docs/gateway-protocol.md §5.4): their pieces
// interleaved without `index`, or all at `index: 0`, each carrying its call's id. Through
// `.stream()` of a model with tools bound, the joined chunks give each call with its own
// arguments. Core joins the pieces; the adapter maps.

import { emulate, idOnlyToolCallsSse } from '@infergate/emulator/testing';
import type { AIMessageChunk } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { concat } from '@langchain/core/utils/stream';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { GatewayChatModel } from '../src/index';
import { intercepting } from './helpers';

const MODEL = 'community/general';

/** The stream of the two calls' pieces, interleaved, with `index` on each when given. */
function interleaved(index?: number): Response {
  return new Response(idOnlyToolCallsSse(MODEL, index), {
    headers: { 'content-type': 'text/event-stream', 'x-service-model': MODEL },
  });
}

const CITY = z.object({ city: z.string() });
const tools = [
  tool(async ({ city }) => `sunny in ${city}`, { name: 'weather', schema: CITY }),
  tool(async ({ city }) => `noon in ${city}`, { name: 'time', schema: CITY }),
];

describe('tool-call pieces told apart only by id, through .stream()', () => {
  for (const [shape, index] of [
    ['without index', undefined],
    ['all at index 0', 0],
  ] as const) {
    it(`the joined chunks give each call its own arguments (${shape})`, async () => {
      const gateway = await emulate();
      const connection = intercepting(gateway, async (request) =>
        request.url.endsWith('/chat/completions') ? interleaved(index) : undefined,
      );
      const model = (await GatewayChatModel.create(MODEL, connection)).bindTools(tools);
      let joined: AIMessageChunk | undefined;
      for await (const chunk of await model.stream('weather and time?'))
        joined = joined ? concat(joined, chunk) : chunk;
      expect(joined?.invalid_tool_calls ?? []).toEqual([]);
      expect(joined?.tool_calls?.map(({ id, name, args }) => ({ id, name, args }))).toEqual([
        { id: 'call_a', name: 'weather', args: { city: 'Rome' } },
        { id: 'call_b', name: 'time', args: { city: 'Paris' } },
      ]);
    });
  }
});

// Parallel calls a server tells apart only by `id` (docs/gateway-protocol.md §5.4): their pieces
// interleaved without `index`, or all at `index: 0`, each carrying its call's id. Through
// `.stream()` of a model with tools bound, the joined chunks give each call with its own
// arguments. Core joins the pieces; the adapter maps.

import { chatSse, emulate, type StreamChunk } from '@infergate/emulator/testing';
import type { AIMessageChunk } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { concat } from '@langchain/core/utils/stream';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { GatewayChatModel } from '../src/index';
import { intercepting } from './helpers';

const MODEL = 'community/general';

type Piece = Record<string, unknown>;
const pieceChunk = (piece: Piece): StreamChunk => ({
  choices: [{ index: 0, delta: { tool_calls: [piece] }, finish_reason: null }],
});

/** The stream of the two calls' pieces, interleaved, with `index` on each when given. */
function interleaved(index?: number): Response {
  const at = index === undefined ? {} : { index };
  const pieces: Piece[] = [
    { ...at, id: 'call_a', type: 'function', function: { name: 'weather', arguments: '{"city":' } },
    { ...at, id: 'call_b', type: 'function', function: { name: 'time', arguments: '{"city":' } },
    { ...at, id: 'call_a', function: { arguments: '"Rome"}' } },
    { ...at, id: 'call_b', function: { arguments: '"Paris"}' } },
  ];
  const body = chatSse(MODEL, [
    ...pieces.map(pieceChunk),
    { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
  ]);
  return new Response(body, {
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

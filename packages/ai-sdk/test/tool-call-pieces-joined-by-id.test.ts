// Parallel calls a server tells apart only by `id` (docs/gateway-protocol.md §5.4): their pieces
// interleaved without `index`, or all at `index: 0`, each carrying its call's id. Through
// `streamText` of both entries, each call comes whole with its own arguments. Core joins the
// pieces; the adapter maps.

import { idOnlyToolCallsSse } from '@infergate/emulator/testing';
import { streamText, tool } from 'ai';
import { streamText as streamTextV6, tool as toolV6 } from 'ai-v6';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { answeringChats, providersOnMsw } from './providers';

const { gateway, gatewayV3 } = await providersOnMsw();
const MODEL = 'community/general';

/** The stream of the two calls' pieces, interleaved, with `index` on each when given. */
function interleaved(index?: number): Response {
  return new Response(idOnlyToolCallsSse(MODEL, index), {
    headers: { 'content-type': 'text/event-stream', 'x-service-model': MODEL },
  });
}

const CITY = z.object({ city: z.string() });
const EXPECTED = ['call_a weather {"city":"Rome"}', 'call_b time {"city":"Paris"}'];
const SHAPES = [
  ['without index', undefined],
  ['all at index 0', 0],
] as const;

describe('tool-call pieces told apart only by id, through streamText', () => {
  for (const [shape, index] of SHAPES) {
    it(`each call keeps its own arguments (${shape})`, async () => {
      const result = streamText({
        model: gateway({ fetch: answeringChats(() => interleaved(index)) })(MODEL),
        prompt: 'weather and time',
        tools: { weather: tool({ inputSchema: CITY }), time: tool({ inputSchema: CITY }) },
      });
      const calls: string[] = [];
      for await (const part of result.fullStream)
        if (part.type === 'tool-call' && !part.invalid)
          calls.push(`${part.toolCallId} ${part.toolName} ${JSON.stringify(part.input)}`);
      expect(calls).toEqual(EXPECTED);
    });

    it(`each call keeps its own arguments through /v6 (${shape})`, async () => {
      const result = streamTextV6({
        model: gatewayV3({ fetch: answeringChats(() => interleaved(index)) })(MODEL),
        prompt: 'weather and time',
        tools: { weather: toolV6({ inputSchema: CITY }), time: toolV6({ inputSchema: CITY }) },
      });
      const calls: string[] = [];
      for await (const part of result.fullStream)
        if (part.type === 'tool-call' && !part.invalid)
          calls.push(`${part.toolCallId} ${part.toolName} ${JSON.stringify(part.input)}`);
      expect(calls).toEqual(EXPECTED);
    });
  }
});

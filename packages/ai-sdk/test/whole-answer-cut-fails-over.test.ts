// A whole (not streamed) 200 answer cut mid-JSON (the emulator's `truncated_json`), through ai's
// generateText with and without `Output.object`: core reads it within its attempt, so a call with
// fallbackModels moves on to the next listed model (docs/gateway-protocol.md §4.7, reason
// `invalid_response`), as a stream's unreadable event does; without a list it still fails.

import { emulate } from '@infergate/emulator/testing';
import { APICallError, generateText, Output } from 'ai';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { createGateway } from '../src';

const CUT = 'community/general';
const NEXT = 'community/json-schema';
const emulated = await emulate({ hooks: { afterEach, afterAll } });
const gateway = createGateway({ ...emulated.connection, circuitBreaker: false });
const Place = z.object({ city: z.string() });

describe('generateText of a model whose 200 answer is cut mid-JSON', () => {
  it.each([
    ['Output.object', true],
    ['plain text', false],
  ])('%s: moves on to the next listed model', async (_, structured) => {
    emulated.emulator.injectFault({ fault: 'truncated_json', model: CUT });
    const result = await generateText({
      model: gateway(CUT),
      prompt: 'Where is "Kyiv"?',
      maxRetries: 0,
      ...(structured ? { output: Output.object({ schema: Place }) } : {}),
      providerOptions: { infergate: { fallbackModels: [NEXT] } },
    });
    const hops = result.finalStep.providerMetadata?.infergate?.route as unknown as {
      hops: { model: string; outcome: string; reason?: string }[];
    };
    expect(hops.hops.map(({ model, outcome, reason }) => ({ model, outcome, reason }))).toEqual([
      { model: CUT, outcome: 'failed', reason: 'invalid_response' },
      { model: NEXT, outcome: 'answered', reason: undefined },
    ]);
    if (structured) expect(Place.parse(result.output)).toEqual(result.output);
    expect(emulated.counters.requests.chat).toBe(2);
  });

  it('without a list, fails with invalid_response after one request', async () => {
    emulated.emulator.injectFault({ fault: 'truncated_json', model: CUT });
    const error = await generateText({
      model: gateway(CUT),
      prompt: 'Where is "Kyiv"?',
      maxRetries: 0,
    }).catch((caught: unknown) => caught);
    expect(APICallError.isInstance(error)).toBe(true);
    expect((error as APICallError).data).toMatchObject({ code: 'invalid_response' });
    expect(emulated.counters.requests.chat).toBe(1);
  });
});

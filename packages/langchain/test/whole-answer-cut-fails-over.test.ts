// A whole (not streamed) 200 answer cut mid-JSON (the emulator's `truncated_json`), through
// withStructuredOutput(...).invoke and invoke: core reads it within its attempt, so a call with
// fallbackModels moves on to the next listed model (docs/gateway-protocol.md §4.7, reason
// `invalid_response`); without a list it still fails with invalid_response.

import { emulate } from '@infergate/emulator/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel } from '../src/index';

const CUT = 'community/general';
const NEXT = 'community/json-schema';
const emulated = await emulate({ hooks: { afterEach, afterAll } });
const model = new GatewayChatModel({ model: CUT, ...emulated.connection, maxRetries: 0 });
const Place = z.object({ city: z.string() });

describe('a model whose 200 answer is cut mid-JSON', () => {
  it('withStructuredOutput().invoke moves on to the next listed model', async () => {
    emulated.emulator.injectFault({ fault: 'truncated_json', model: CUT });
    const place = await model
      .withStructuredOutput(Place)
      .invoke('Where is "Kyiv"?', { fallbackModels: [NEXT] });
    expect(Place.parse(place)).toEqual(place);
    expect(emulated.counters.requests.chat).toBe(2);
  });

  it('invoke moves on too, its route naming the failed hop', async () => {
    emulated.emulator.injectFault({ fault: 'truncated_json', model: CUT });
    const message = await model.invoke('Where is "Kyiv"?', { fallbackModels: [NEXT] });
    const route = message.response_metadata.route as { hops: { model: string; reason?: string }[] };
    expect(route.hops[0]).toMatchObject({ model: CUT, reason: 'invalid_response' });
    expect(emulated.counters.requests.chat).toBe(2);
  });

  it('without a list, invoke fails with invalid_response after one request', async () => {
    emulated.emulator.injectFault({ fault: 'truncated_json', model: CUT });
    const error = await model.invoke('Where is "Kyiv"?').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'invalid_response' });
    expect(emulated.counters.requests.chat).toBe(1);
  });
});

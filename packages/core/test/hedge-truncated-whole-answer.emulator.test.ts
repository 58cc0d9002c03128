// docs/gateway-protocol.md §4.7 (a hedged call), §10.3 (a body that is not JSON): in a hedged call
// read whole, a run whose 200 answer is cut mid-JSON (the emulator's `truncated_json`) has its
// attempt reported when its read fails, as an unhedged call's is: `response` not ok, `invalid_response`
// — not at the call's end with the call's outcome (ok, or the other run's code). The other run's
// answer, coming later, is still the call's. Time is the subject: the driven clock.
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { GatewayEvent } from '../src';
import {
  caught,
  driveClock,
  hedgesOnDrivenClock,
  hi,
  only,
  recordingClient,
  STRUCTURED_MODELS,
  settledAfter,
} from './helpers';

const SLOW = 'community/so-claimed';
const CUT = 'community/so-native';
const JSON_TYPE = { 'content-type': 'application/json' };

/** The `response` events: each attempt's outcome, and when after the call's start. */
const responsesOf = (events: GatewayEvent[]) => {
  const start = events[0]!.time;
  return only(events, 'response').map((event) => ({
    attempt: event.attempt,
    ok: event.ok,
    code: event.code,
    atMs: event.time - start,
  }));
};

/**
 * A hedged whole call over [SLOW, CUT]: SLOW answers after 300 ms (`slowFails`: a 502 then), CUT's
 * answer is cut mid-JSON.
 */
async function hedgedOverCut(slowFails = false) {
  const models = {
    ...STRUCTURED_MODELS,
    [SLOW]: { ...STRUCTURED_MODELS[SLOW]!, firstChunkMs: 300 },
  };
  const gateway = await emulate({ scenario: { models } });
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const asked = init?.method === 'POST' ? JSON.parse(String(init.body)).model : undefined;
    if (!slowFails || asked !== SLOW) return gateway.connection.fetch(input, init);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const error = { code: 'all_providers_failed', message: 'All providers failed' };
    return new Response(JSON.stringify({ error }), { status: 502, headers: JSON_TYPE });
  };
  const { client, events } = recordingClient(gateway, { maxRetries: 0, fetch });
  await client.models();
  gateway.emulator.injectFault({ fault: 'truncated_json', model: CUT });
  driveClock();
  const call = client.chat(hi(SLOW), {
    fallbackModels: [CUT],
    hedge: { afterMs: 30, maxExtra: 1 },
  });
  return { events, call };
}

describe('a hedged chat() whose hedge answers a 200 cut mid-JSON', () => {
  hedgesOnDrivenClock();

  it("tells the hedge's attempt failed with invalid_response as it fails; the first run answers", async () => {
    const { events, call } = await hedgedOverCut();
    const answer = await settledAfter(1_000, call);
    expect(answer.servedModel).toBe(SLOW);
    expect(responsesOf(events)).toEqual([
      { attempt: 2, ok: false, code: 'invalid_response', atMs: 30 },
      { attempt: 1, ok: true, code: undefined, atMs: 300 },
    ]);
    // Its slot's `released` follows its `response`, before the first run's.
    const ends = events.filter((event) => event.type === 'response' || event.type === 'released');
    expect(ends.map((event) => `${event.type} ${(event as { attempt: number }).attempt}`)).toEqual([
      'response 2',
      'released 2',
      'response 1',
      'released 1',
    ]);
    expect(answer.route?.hops).toEqual([
      { model: CUT, outcome: 'failed', reason: 'invalid_response' },
      { model: SLOW, outcome: 'answered' },
    ]);
  });

  it("both runs failed: the hedge's attempt tells its own code, not the call's", async () => {
    const { events, call } = await hedgedOverCut(true);
    const error = await settledAfter(
      1_000,
      caught(() => call),
    );
    expect(responsesOf(events)).toEqual([
      { attempt: 2, ok: false, code: 'invalid_response', atMs: 30 },
      { attempt: 1, ok: false, code: 'all_providers_failed', atMs: 300 },
    ]);
    expect(error.route?.hops.map((hop) => hop.model).sort()).toEqual([SLOW, CUT].sort());
  });
});

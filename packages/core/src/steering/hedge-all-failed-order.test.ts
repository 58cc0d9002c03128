// docs/gateway-protocol.md §4.7 (a hedged call whose runs both fail): its message names the
// failures in the order the attempts ended, as its route's hops and the `response` events do, the
// one that ended the call last: its model's sample is that failure's (the one whose code the error
// carries), not the other run's. Here the hedge fails first (a 500), the first attempt then
// stalls before its first chunk (`timeout`) and ends the call. The models are named once each, in
// the order of their last failure, so the message closes with the failure that ended the call even
// when that model had failed before the other did (the last case). Time is the subject: the driven
// clock.
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import {
  caught,
  driveClock,
  FOREVER,
  hedgesOnDrivenClock,
  hi,
  only,
  recordingClient,
  settledAfter,
} from '../../test/helpers';
import type { GatewayError } from '../errors/errors';

const FIRST = 'community/general';
const SPARE = 'community/tools';
const STALL_MS = 300;

/** A hedged stream of `FIRST` (its first request stalls), the hedge to `hedgeModel` (a 500). */
async function stallThenHedgeFails(fallbackModels: string[], hedgeModel: string) {
  const gateway = await emulate();
  gateway.emulator.injectFault({ fault: 'stall_first_chunk', ms: FOREVER, times: 1, model: FIRST });
  gateway.emulator.injectFault({ fault: 'upstream_text', model: hedgeModel });
  const { client, events } = recordingClient(gateway, { maxRetries: 0, circuitBreaker: false });
  await client.models();
  driveClock();
  const call = caught(() =>
    client
      .chatStream(hi(FIRST), {
        fallbackModels,
        hedge: { afterMs: 30, maxExtra: 1 },
        firstChunkTimeoutMs: STALL_MS,
      })
      .then((stream) => stream.result()),
  );
  const error = (await settledAfter(STALL_MS + 100, call)) as GatewayError;
  await gateway.close();
  return { error, events };
}

/** The codes of the `response` events, in the order the attempts ended. */
const endedAs = (events: Parameters<typeof only>[0]) =>
  only(events, 'response').map((event) => event.code);

describe('a hedged call whose hedge failed before the first attempt ended it', () => {
  hedgesOnDrivenClock();

  it("one model: the message's sample is the stall that ended the call, in the hops' order", async () => {
    const { error, events } = await stallThenHedgeFails([], FIRST);
    expect(error.code).toBe('timeout');
    expect(endedAs(events)).toEqual(['upstream_error', 'timeout']);
    expect(error.route?.hops).toEqual([
      { model: FIRST, outcome: 'ended', code: 'upstream_error' },
      { model: FIRST, outcome: 'failed', reason: 'first_chunk_stall' },
    ]);
    expect(error.message).toMatch(
      /^Every model tried failed \(2 attempts\): "community\/general": upstream_error, first_chunk_stall \(No answer from model "community\/general" within firstChunkTimeoutMs/,
    );
    expect(error.message).not.toContain('HTTP 500');
  });

  it('a list: the message closes with the failure that ended the call', async () => {
    const { error, events } = await stallThenHedgeFails([SPARE], SPARE);
    expect(error.code).toBe('timeout');
    const hops = error.route?.hops.map((hop) => `${hop.model} ${hop.outcome}`);
    expect(hops?.at(-1)).toBe(`${FIRST} failed`);
    expect(endedAs(events).at(-1)).toBe('timeout');
    expect(error.message).toMatch(
      /; "community\/general": first_chunk_stall \(No answer from model .* the request was aborted\)$/,
    );
  });
});

describe("a hedged call ended by a model that had failed before the other's failures", () => {
  hedgesOnDrivenClock();

  it('closes its message with that model, its sample the failure that ended the call', async () => {
    const gateway = await emulate();
    gateway.emulator.injectFault({
      fault: 'stall_first_chunk',
      ms: FOREVER,
      times: 9,
      model: FIRST,
    });
    gateway.emulator.injectFault({ fault: 'upstream_text', model: SPARE });
    const { client, events } = recordingClient(gateway, {
      maxRetries: 2,
      circuitBreaker: false,
      retryBaseDelayMs: 1,
    });
    await client.models();
    driveClock();
    const call = caught(() =>
      client
        .chatStream(hi(FIRST), {
          fallbackModels: [SPARE],
          hedge: { afterMs: 30, maxExtra: 1 },
          firstChunkTimeoutMs: STALL_MS,
        })
        .then((stream) => stream.result()),
    );
    const error = (await settledAfter(3 * STALL_MS, call)) as GatewayError;
    await gateway.close();
    expect(error.code).toBe('upstream_error');
    // The call's end: the spare's 500, after the first model's stalls.
    expect(only(events, 'response').at(-1)).toMatchObject({ code: 'upstream_error' });
    expect(error.route?.hops.at(-1)).toMatchObject({ model: SPARE });
    expect(error.message).toMatch(
      /: "community\/general": 2 × first_chunk_stall \(.*\); "community\/tools": 3 × upstream_error \(Gateway answered HTTP 500: [^;]*\)$/,
    );
  });
});

// docs/gateway-protocol.md §4.7 (a hedged call whose runs both fail): its message names each model
// once, the models in the order of their last failure, so it closes with the failure that ended
// the call (README), its model's sample that failure — though that model failed before the other
// did too. Here the hedge's model answers 500 (retried), the first model stalls before its first
// chunk (retried), and the hedge's model's last 500 ends the call. Time is the subject: the driven
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

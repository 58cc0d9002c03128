import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { hi, only, recordingClient } from './helpers';

// A `retry` event names the model the retry asks again (`model`) and, when its `reason` is not the
// failed attempt's own (a round retrying an earlier failure), the attempt that reason came from
// (`reasonAttempt`): its `attempt` and `reason` may belong to different attempts, and the event
// links them (docs/gateway-protocol.md §10.5, rv-5hedge F4).
const GENERAL = 'community/general';
const PLAIN = 'community/plain';

describe('a `retry` event names the model it retries and the attempt its reason came from', () => {
  it('a round retrying the busy first model after the second refused: its model and attempt', async () => {
    const gateway = await emulate();
    const { client, events } = recordingClient(gateway);
    gateway.emulator.injectFault({ fault: 'model_busy', model: GENERAL, times: 1, retryAfter: 0 });
    gateway.emulator.injectFault({ fault: 'model_offline', model: PLAIN, times: 1 });
    await client.chat(hi(), { fallbackModels: [PLAIN] });
    expect(only(events, 'retry')).toEqual([
      expect.objectContaining({
        attempt: 2,
        reason: 'model_busy',
        model: GENERAL,
        reasonAttempt: 1,
      }),
    ]);
    expect(only(events, 'attempt').at(-1)).toMatchObject({ attempt: 3, model: GENERAL });
  });

  it('a retry of the failed attempt’s own model: that model, no other attempt', async () => {
    const gateway = await emulate();
    const { client, events } = recordingClient(gateway, { retryBaseDelayMs: 1 });
    gateway.emulator.injectFault({ fault: 'upstream_text', model: GENERAL, times: 1 });
    await client.chat(hi());
    const [retry] = only(events, 'retry');
    expect(retry).toMatchObject({ attempt: 1, reason: 'upstream_error', model: GENERAL });
    expect(retry).not.toHaveProperty('reasonAttempt');
  });
});

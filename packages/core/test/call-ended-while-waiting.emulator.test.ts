// A steered call that ends while it waits (the caller's abort during the retry wait of a round
// whose every model failed): its route ends with its error's hop, and its message counts only the
// attempts sent, as the `attempt` events do.
import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { GatewayEvent } from '../src/index';
import { isGatewayError } from '../src/index';
import { clientOn, hi, only } from './helpers';

describe('a steered call ended during its retry wait', () => {
  it('the route ends with the error, the message counts the attempts sent', async () => {
    const gateway = await emulate();
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'bad_gateway', model: 'community/general', times: 1 });
    emulator.injectFault({ fault: 'bad_gateway', model: 'community/streamer', times: 1 });
    const controller = new AbortController();
    const events: GatewayEvent[] = [];
    // The round's wait is the backoff, far longer than the test: the caller aborts once it is
    // scheduled (its `retry` event).
    const client = clientOn(gateway, {
      retryBaseDelayMs: 60_000,
      onEvent: (event) => {
        if (event.operation !== 'chat') return;
        events.push(event);
        if (event.type === 'retry') controller.abort();
      },
    });
    const error = await caught(
      () =>
        client.chat(hi(), { signal: controller.signal, fallbackModels: ['community/streamer'] }),
      isGatewayError,
    );
    expect(error.code).toBe('aborted');
    expect(only(events, 'attempt')).toHaveLength(2);
    expect(emulator.counters.requests.chat).toBe(2);
    expect(error.route?.hops).toEqual([
      { model: 'community/general', outcome: 'failed', reason: 'all_providers_failed' },
      { model: 'community/streamer', outcome: 'failed', reason: 'all_providers_failed' },
      { model: 'community/general', outcome: 'ended', code: 'aborted' },
    ]);
    // (The models in the order of their last failure: the one whose wait the abort ended, last.)
    expect(error.message).toMatch(
      /^Every model tried failed \(2 attempts\): "community\/streamer": all_providers_failed \(.*\); "community\/general": all_providers_failed, then aborted while waiting to retry \(The call was aborted\)$/,
    );
  });
});

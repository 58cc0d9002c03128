// A hedge's `waitedMs` (rv-steer7 F3): how long `from`, the attempt it races, had gone without
// content when the hedge was sent; measured on the call's clock, not the configured delay (which
// counts from the call's first request, maybe on another model before a failover).
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { GatewayEvent } from '../src/index';
import {
  beforeEachChat,
  clientOn,
  driveClock,
  hedgesOnDrivenClock,
  hi,
  only,
  settledAfter,
} from './helpers';

describe("a hedge's waitedMs is the time its `from` attempt waited", () => {
  hedgesOnDrivenClock();

  it('after a failover: the time on the model it failed over to, not the delay', async () => {
    const gateway = await emulate();
    const { emulator } = gateway;
    // community/general answers 502 after 80 ms; community/streamer holds its first chunk.
    emulator.injectFault({ fault: 'bad_gateway', model: 'community/general' });
    emulator.injectFault({ fault: 'stall_first_chunk', model: 'community/streamer', ms: 60_000 });
    const fetch = beforeEachChat(emulator, async (chat) => {
      if (chat === 1) await new Promise((resolve) => setTimeout(resolve, 80));
    });
    const events: GatewayEvent[] = [];
    const client = clientOn(gateway, {
      fetch,
      maxRetries: 0,
      onEvent: (event) => {
        if (event.operation === 'chat') events.push(event);
      },
    });
    driveClock();
    const answered = client.chat(hi(), {
      fallbackModels: ['community/streamer', 'community/tools'],
      hedge: { afterMs: 100, maxExtra: 1 },
    });
    const result = await settledAfter(100, answered);
    expect(result.route.hops.map((hop) => [hop.model, hop.outcome])).toEqual([
      ['community/general', 'failed'],
      ['community/streamer', 'lost'],
      ['community/tools', 'answered'],
    ]);
    expect(only(events, 'failover')).toMatchObject([
      { from: 'community/general', to: 'community/streamer', waitedMs: 80 },
    ]);
    // Sent 100 ms after the call's first request: 20 ms after community/streamer's.
    expect(only(events, 'hedge')[0]).toMatchObject({
      phase: 'sent',
      from: 'community/streamer',
      model: 'community/tools',
      waitedMs: 20,
    });
  });
});

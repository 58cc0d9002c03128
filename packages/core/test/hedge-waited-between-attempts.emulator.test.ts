// A hedge due while its first run is between attempts (its failover waiting for a slot): no
// attempt of `from` has run, so its `waitedMs` is 0 — not the time since the failed attempt before
// it began (docs/gateway-protocol.md §4.7; README, the `hedge` and `hedge-skipped` events).
import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { GatewayEvent } from '../src/index';
import {
  beforeEachChat,
  clientOn,
  deferred,
  driveClock,
  hedgesOnDrivenClock,
  hi,
  settledAfter,
} from './helpers';

describe("a hedge's waitedMs while its failover waits for a slot", () => {
  hedgesOnDrivenClock();

  it('is 0: the attempt it would race has not begun', async () => {
    const gateway = await emulate();
    const { emulator } = gateway;
    // community/general answers 502 after 80 ms; community/tools holds its first chunk for ever.
    emulator.injectFault({ fault: 'bad_gateway', model: 'community/general' });
    emulator.injectFault({ fault: 'stall_first_chunk', model: 'community/tools', ms: 60_000 });
    const fetch = beforeEachChat(emulator, async (chat) => {
      if (chat === 1) await new Promise((resolve) => setTimeout(resolve, 80));
    });
    const events: GatewayEvent[] = [];
    const { promise: sent, resolve: firstSent } = deferred();
    // One slot: the other call takes it when the first attempt gives it back.
    const client = clientOn(gateway, {
      fetch,
      maxRetries: 0,
      maxConcurrency: 1,
      onEvent: (event) => {
        if (event.type === 'attempt') firstSent();
        if (event.operation === 'chat' && event.type.startsWith('hedge')) events.push(event);
      },
    });
    driveClock();
    const stop = new AbortController();
    const hedged = caught(() =>
      client.chat(hi(), {
        fallbackModels: ['community/streamer'],
        hedge: { afterMs: 100, maxExtra: 1 },
        signal: stop.signal,
      }),
    );
    // The other call queues once the hedged call holds the slot.
    await settledAfter(0, sent);
    const other = caught(() => client.chat(hi('community/tools'), { signal: stop.signal }));
    // At 80 ms the first attempt fails over; its next attempt waits behind the other call, and at
    // 100 ms the hedge is due, with no free slot.
    await settledAfter(100, Promise.resolve());
    expect(events).toMatchObject([
      { type: 'hedge-skipped', reason: 'no_free_slot', model: 'community/streamer', waitedMs: 0 },
    ]);
    stop.abort();
    await settledAfter(0, Promise.all([hedged, other]));
  });
});

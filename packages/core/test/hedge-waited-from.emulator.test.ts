// A hedge's `waitedMs` (rv-steer7 F3): how long `from`, the attempt it races, had gone without
// content when the hedge was sent; measured on the call's clock, not the configured delay (which
// counts from the call's first request, maybe on another model before a failover). A hedge due
// while its first run is between attempts (its failover waiting for a slot): no attempt of `from`
// has run, so its `waitedMs` is 0 — not the time since the failed attempt before it began
// (docs/gateway-protocol.md §4.7; README, the `hedge` and `hedge-skipped` events).
import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { GatewayClientOptions, GatewayEvent } from '../src/index';
import {
  beforeEachChat,
  clientOn,
  deferred,
  driveClock,
  hedgesOnDrivenClock,
  hi,
  only,
  settledAfter,
} from './helpers';

/**
 * A client (no retries, `options` over that) on a fresh gateway whose community/general answers
 * 502 after 80 ms and whose `stalled` model holds its first chunk for ever; the events of its chat
 * calls in `events`. The clock is driven.
 */
async function failingOverAfter80ms(stalled: string, options: GatewayClientOptions = {}) {
  const gateway = await emulate();
  const { emulator } = gateway;
  emulator.injectFault({ fault: 'bad_gateway', model: 'community/general' });
  emulator.injectFault({ fault: 'stall_first_chunk', model: stalled, ms: 60_000 });
  const fetch = beforeEachChat(emulator, async (chat) => {
    if (chat === 1) await new Promise((resolve) => setTimeout(resolve, 80));
  });
  const events: GatewayEvent[] = [];
  const client = clientOn(gateway, {
    fetch,
    maxRetries: 0,
    ...options,
    onEvent: (event) => {
      options.onEvent?.(event);
      if (event.operation === 'chat') events.push(event);
    },
  });
  driveClock();
  return { client, events };
}

describe("a hedge's waitedMs is the time its `from` attempt waited", () => {
  hedgesOnDrivenClock();

  it('after a failover: the time on the model it failed over to, not the delay', async () => {
    const { client, events } = await failingOverAfter80ms('community/streamer');
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

  it('while its failover waits for a slot: 0, the attempt it would race has not begun', async () => {
    const { promise: sent, resolve: firstSent } = deferred();
    // One slot: the other call takes it when the first attempt gives it back.
    const { client, events } = await failingOverAfter80ms('community/tools', {
      maxConcurrency: 1,
      onEvent: (event) => {
        if (event.type === 'attempt') firstSent();
      },
    });
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
    expect(events.filter((event) => event.type.startsWith('hedge'))).toMatchObject([
      { type: 'hedge-skipped', reason: 'no_free_slot', model: 'community/streamer', waitedMs: 0 },
    ]);
    stop.abort();
    await settledAfter(0, Promise.all([hedged, other]));
  });
});

// A hedge's pick puts a listed model behind its own (a `deferred` hop in the route, a
// `model-deferred` event): a call aborted by the caller's handler of the hedge's `sent` still
// tells each deferred hop of its error's route (the hedge's run reaches its attempt's events
// before it stops), so the route never names a deferral the events did not.
import { emulate } from '@infergate/emulator/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type GatewayEvent, isGatewayError } from '../src/index';
import { driveClock, hi, only, recordingClient, settledAfter } from './helpers';

/** Far longer than any test: a stall the hedge must beat, never one that ends by itself. */
const FOREVER = 60_000;

describe('a hedged call aborted as its hedge is sent', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('each deferred hop of its route was told by a model-deferred event', async () => {
    const gateway = await emulate({
      scenario: { models: { 'my/desk-model': { online: false } } },
    });
    gateway.emulator.injectFault({
      fault: 'stall_first_chunk',
      model: 'community/general',
      ms: FOREVER,
    });
    const stop = new AbortController();
    const events: GatewayEvent[] = [];
    const { client } = recordingClient(
      gateway,
      {
        onEvent: (event) => {
          if (event.operation !== 'chat') return;
          events.push(event);
          if (event.type === 'hedge' && event.phase === 'sent') stop.abort();
        },
      },
      events,
    );
    // Steering's code is loaded on a call's first use: once, on the real clock.
    await client.chat(hi('community/plain'), { fallbackModels: ['community/streamer'] });
    events.length = 0;
    driveClock();
    const call = client
      .chat(hi(), {
        fallbackModels: ['my/desk-model', 'community/streamer'],
        hedge: { afterMs: 50, maxExtra: 1 },
        signal: stop.signal,
      })
      .catch((error: unknown) => error);
    const error = await settledAfter(50, call);
    if (!isGatewayError(error)) throw error;
    const deferredHops = (error.route?.hops ?? []).filter((hop) => hop.outcome === 'deferred');
    const told = only(events, 'model-deferred').map((event) => event.model);
    expect(told).toEqual(['my/desk-model']);
    expect(deferredHops.map((hop) => hop.model)).toEqual(told);
  });
});

import { describe, expect, it } from 'vitest';
import { otelEvents } from '../src/otel';
import {
  askedWhen,
  drivenHedge,
  hedgesOnDrivenClock,
  only,
  settledHedgeToldKeyLimit,
} from './helpers';
import { otelRecorder } from './otel-recorder';

// A hedged call's move to the next model held back to the key's own Retry-After (a 429
// `client_concurrency_exceeded` told to the hedge, docs/gateway-protocol.md §4.7, §10.5) is no
// retry: its `failover` event, sent once the next model's request goes, says how long it was held
// (`heldMs`), where before nothing told the wait (rv-9hedge F4). The driven clock gives each time.
const FIRST = 'community/so-native';
const HEDGE = 'community/so-plain';
const NEXT = 'community/so-object';

describe('a held move to the next model', () => {
  hedgesOnDrivenClock();

  it('says how long it was held on its failover event and span event', async () => {
    const started = await drivenHedge({
      first: FIRST,
      fallbacks: [HEDGE, NEXT],
      whole: false,
      options: { maxRetries: 1, retryBaseDelayMs: 50 },
      faults: [
        { fault: 'service_unavailable', model: FIRST, times: 1 },
        { fault: 'rate_limit', model: HEDGE, times: 1, retryAfter: 1 },
      ],
    });
    const { gateway, events } = started;
    // (The first request stays held; the hedge's 429 comes at once, at 30 ms.)
    await settledHedgeToldKeyLimit(started);

    expect(askedWhen(events)).toEqual([`0 ${FIRST}`, `30 ${HEDGE}`, `1030 ${NEXT}`]);
    expect(only(events, 'retry')).toEqual([]);
    // Released at 40 ms, held until the key's not-before at 1030 ms.
    expect(only(events, 'failover')).toMatchObject([{ from: FIRST, to: NEXT, heldMs: 990 }]);
    // (OpenTelemetry given the call's events, as its handler would be.)
    const recorder = otelRecorder();
    const otel = otelEvents({ tracer: recorder.tracer });
    for (const event of events) otel(event);
    const failover = recorder
      .spans()
      .flatMap((span) => span.events)
      .find((event) => event.name === 'infergate.failover');
    expect(failover?.attributes?.['infergate.failover.held_ms']).toBe(990);
    await gateway.close();
  });
});

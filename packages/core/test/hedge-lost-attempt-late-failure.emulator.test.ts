import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { GatewayEvent } from '../src/index';
import { otelEvents } from '../src/otel';
import { driveClock, hedgesOnDrivenClock, hi, settledAfter } from './helpers';
import { clientUntilChatDone, otelRecorder } from './otel-recorder';

// A hedged stream whose race is decided by the hedge's first content while the first attempt is in
// flight: that attempt lost (docs/gateway-protocol.md §4.7). A failure it answers with in the same
// moment (a 429 released together with the hedge's content) comes after the race was decided: it
// is told as the cut it is — no failed hop, no `retry` (none is ever sent), its `response`
// `aborted` — as the `hedge` `won` event's `lost` already said (rv-obs6 F1).
describe('a hedged stream: the lost attempt fails as the hedge answers', () => {
  hedgesOnDrivenClock();

  it('tells that attempt lost: its response aborted, no retry, its hop lost', async () => {
    const gateway = await emulate();
    const recorder = otelRecorder();
    const otel = otelEvents({ tracer: recorder.tracer, meter: recorder.meter });
    const events: GatewayEvent[] = [];
    const { client, done } = clientUntilChatDone(
      gateway,
      (event) => {
        otel(event);
        if (event.operation === 'chat') events.push(event);
      },
      { hedge: { afterMs: 60, maxExtra: 1 } },
    );
    await client.models();
    gateway.emulator.injectFault({
      fault: 'model_busy',
      model: 'community/general',
      times: 1,
      retryAfter: 1,
    });
    driveClock();
    const release = gateway.hold('chat', { faults: true });
    const streamed = client.chatStream(hi(), {}).then(async (stream) => {
      await stream.result();
      return stream;
    });
    // Both held (the first's 429, the hedge sent after 60 ms), then answered together.
    await settledAfter(100, gateway.untilHeld(2));
    release();
    const stream = await settledAfter(100, streamed);
    await settledAfter(100, done);

    expect(stream.route?.hops).toEqual([
      { model: 'community/general', outcome: 'lost' },
      { model: 'community/general', outcome: 'answered' },
    ]);
    const told = events
      .filter((event) => ['hedge', 'response', 'retry', 'done'].includes(event.type))
      .map((event) => {
        if (event.type === 'hedge') return [event.phase, event.winner, event.lost];
        if (event.type === 'response') return ['response', event.attempt, event.ok, event.code];
        return [event.type];
      });
    expect(told).toEqual([
      ['sent', undefined, undefined],
      ['won', 'hedge', 'community/general'],
      ['response', 1, false, 'aborted'],
      ['response', 2, true, undefined],
      ['done'],
    ]);
    const [call] = recorder.spans('chat community/general');
    expect(call?.events.map((event) => event.name)).toEqual([
      'infergate.hedge.sent',
      'infergate.hedge.won',
    ]);
    expect(await recorder.points('infergate.client.retries')).toEqual([]);
    // (Only the two requests raced: the retry the 429 asked for is never sent.)
    expect(gateway.counters.requests.chat).toBe(2);
    await gateway.close();
  });
});

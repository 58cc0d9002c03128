import { emulate, inflightOf } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import {
  askingPlace,
  driveClock,
  hedgesOnDrivenClock,
  only,
  recordingClient,
  STRUCTURED_MODELS,
  settledAfter,
} from './helpers';

// A hedged stream's race is decided by a run's first content (docs/gateway-protocol.md §4.7): its
// `hedge` `won` event is sent then, naming that run, not once the call answers. A structured
// stream is held past that content to its check and may fail over in its run: the `won` event came
// after those `failover` events, as if the race had been decided by the failover (rv-2hedge F3c).

const FOREVER = 60_000;
const SILENT_MS = 1_000;
const HEDGE = { afterMs: 30, maxExtra: 1 };

describe('a hedged structured stream: its `hedge` `won` event when its first content decided the race', () => {
  hedgesOnDrivenClock();

  it('the first run’s held content cut the hedge: `won` then, before its refused answer fails over', async () => {
    // so-claimed: its first content after 100 ms, then silent while held, then off the schema.
    const models = {
      ...STRUCTURED_MODELS,
      'community/so-claimed': { ...STRUCTURED_MODELS['community/so-claimed']!, firstChunkMs: 100 },
    };
    const gateway = await emulate({ scenario: { models } });
    const { client, events } = recordingClient(gateway);
    await client.models();
    gateway.emulator.injectFault({
      fault: 'stall_stream',
      model: 'community/so-claimed',
      afterChunks: 3,
      ms: SILENT_MS,
    });
    gateway.emulator.injectFault({
      fault: 'stall_first_chunk',
      model: 'community/so-object',
      ms: FOREVER,
      times: 1,
    });
    driveClock();
    const opened = client.chatStream(askingPlace('community/so-claimed'), {
      fallbackModels: ['community/so-object', 'community/so-native'],
      hedge: HEDGE,
    });
    await settledAfter(50, gateway.untilInflight(2));
    // At 100 ms so-claimed's first content decides the race: the hedge is cut, `won` is told now,
    // while the answer is held.
    await settledAfter(
      60,
      gateway.until((counters) => inflightOf(counters) === 1),
    );
    expect(only(events, 'hedge')).toMatchObject([
      { phase: 'sent', model: 'community/so-object' },
      { phase: 'won', model: 'community/so-claimed', winner: 'first', lost: 'community/so-object' },
    ]);
    const stream = await settledAfter(SILENT_MS + 100, opened);
    expect((await stream.result()).structured?.value).toMatchObject({ city: expect.any(String) });
    expect(stream.servedModel).toBe('community/so-object');
    const order = events
      .filter((event) => event.type === 'hedge' || event.type === 'failover')
      .map((event) => (event.type === 'hedge' ? event.phase : event.type));
    expect(order).toEqual(['sent', 'won', 'failover']);
  });
});

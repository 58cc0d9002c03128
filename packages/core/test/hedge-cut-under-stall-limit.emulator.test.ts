// A hedged call's cut run is stopped at once under a stall limit too (rv-2hedge F1). An attempt's
// first-content watch (`firstChunkTimeoutMs`) makes the signal its request is sent with; it
// followed the call's scope, not the run's, so the race's abort of the losing run never reached
// its fetch: the request and its key slot stayed until the watch's own limit ran out, and the
// call's `done` came at the end of the cut request's grace without the loser's end.
import { emulate, inflightOf } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { ChatCallOptions, GatewayEvent } from '../src/index';
import {
  askingPlace,
  driveClock,
  FOREVER,
  hedgesOnDrivenClock,
  hi,
  idle,
  only,
  recordingClient,
  STRUCTURED_MODELS,
  settledAfter,
  stalledOnce,
  untilEvents,
} from './helpers';

/** The first run's first content comes this long after its request (direction: the hedge is cut). */
const SLOW_MS = 200;
const HEDGE = { afterMs: 50, maxExtra: 1 };
/** Stall limits far above the test's clock: only the race may stop a run. */
const LIMITS: [string, ChatCallOptions][] = [
  ['firstChunkTimeoutMs', { firstChunkTimeoutMs: 10_000 }],
  [
    'firstChunkTimeoutMs and chunkTimeoutMs',
    { firstChunkTimeoutMs: 10_000, chunkTimeoutMs: 5_000 },
  ],
];

/** The call's own `done` (not an attempt's). */
const isCallDone = (event: GatewayEvent) => event.type === 'done' && 'requestedModel' in event;

/**
 * The events up to the call's `done`: the cut run (attempt `cutAttempt`) reported its aborted
 * `response` and its `released` before it.
 */
function expectCutRunEndedBeforeDone(events: GatewayEvent[], cutAttempt: number): void {
  const upToDone = events.slice(0, events.findIndex(isCallDone) + 1);
  const cutEnds = upToDone.filter(
    (event) =>
      (event.type === 'response' || event.type === 'released') && event.attempt === cutAttempt,
  );
  expect(cutEnds).toMatchObject([
    { type: 'response', ok: false, code: 'aborted' },
    { type: 'released' },
  ]);
}

/**
 * A hedged call (`first` slow to its first content by `firstMs`, the hedge's model by `hedgeMs`),
 * under `limits`: its answer, once the clock passed the winner's first content, and its events once
 * its `done` came.
 */
async function hedgedRace(
  stream: boolean,
  limits: ChatCallOptions,
  stalls: { firstMs: number; hedgeMs: number },
  structured = false,
) {
  const models = {
    ...STRUCTURED_MODELS,
    'community/so-native-2': STRUCTURED_MODELS['community/so-native']!,
  };
  const gateway = await emulate(structured ? { scenario: { models } } : undefined);
  const [first, spare] = structured
    ? ['community/so-native', 'community/so-native-2']
    : ['community/general', 'community/streamer'];
  const { client, events } = recordingClient(gateway);
  const done = untilEvents(events, (events) => events.some(isCallDone));
  await client.models();
  stalledOnce(gateway.emulator, first, stalls.firstMs);
  stalledOnce(gateway.emulator, spare, stalls.hedgeMs);
  driveClock();
  const request = structured ? askingPlace(first) : hi(first);
  const options = { ...limits, fallbackModels: [spare], hedge: HEDGE };
  const answered = stream
    ? client.chatStream(request, options).then((opened) => opened.result())
    : client.chat(request, options).then((result) => result.answer);
  const answer = await settledAfter(
    Math.min(stalls.firstMs, HEDGE.afterMs + stalls.hedgeMs),
    answered,
  );
  // The loser's end is what `done` waits for: it comes without the clock moving on.
  await settledAfter(0, done);
  await idle(client);
  expect(client.budget.active).toBe(0);
  expect(inflightOf(gateway.emulator.counters)).toBe(0);
  return { answer, events };
}

describe('a hedged call under a stall limit stops the run it cut at once', () => {
  hedgesOnDrivenClock();

  for (const [limitsName, limits] of LIMITS) {
    for (const [way, stream] of [
      ['chat', false],
      ['chatStream', true],
    ] as const) {
      it(`${way}, ${limitsName}: the first run's content cuts the hedge; its request ends before done`, async () => {
        const { answer, events } = await hedgedRace(stream, limits, {
          firstMs: SLOW_MS,
          hedgeMs: FOREVER,
        });
        expect(answer.text).toBe('Echo: hello there');
        expect(only(events, 'hedge')).toMatchObject([
          { phase: 'sent', model: 'community/streamer' },
          { phase: 'won', winner: 'first', lost: 'community/streamer' },
        ]);
        expectCutRunEndedBeforeDone(events, 2);
      });

      it(`${way}, ${limitsName}: the hedge's content cuts the first run; its request ends before done`, async () => {
        const { answer, events } = await hedgedRace(stream, limits, {
          firstMs: FOREVER,
          hedgeMs: 0,
        });
        expect(answer.text).toBe('Echo: hello there');
        expect(only(events, 'hedge')).toMatchObject([
          { phase: 'sent', model: 'community/streamer' },
          { phase: 'won', winner: 'hedge', lost: 'community/general' },
        ]);
        expectCutRunEndedBeforeDone(events, 1);
      });
    }
  }

  it('a structured stream held to its check: the hedge it cut ends before done', async () => {
    const { answer, events } = await hedgedRace(
      true,
      LIMITS[1]![1],
      { firstMs: SLOW_MS, hedgeMs: FOREVER },
      true,
    );
    expect(JSON.parse(answer.text)).toMatchObject({ city: expect.any(String) });
    expectCutRunEndedBeforeDone(events, 2);
  });
});

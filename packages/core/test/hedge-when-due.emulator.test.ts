// 'auto' hedging under a first-content limit (rv-steer7 F1): its wait is capped at half of the
// first attempt's stall timeout (or of the deadline left), so the hedge races the slow start
// before the stall moves the call on, instead of never being due.
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { ChatCallOptions } from '../src/index';
import { AUTO_HEDGE } from '../src/steering/hedge-delay';
import {
  driveClock,
  hedgesOnDrivenClock,
  hi,
  only,
  recordingClient,
  settledAfter,
  stalledOnce,
} from './helpers';

/**
 * A call to a held `community/general` listing `community/streamer`, hedged with 'auto' on a fresh
 * gateway (nothing learned: the prior applies) under `options`: answered by the streamer's hedge
 * once the driven clock has moved `hedgedAt` ms. Its `hedge` events and route.
 */
async function autoHedgedAt(stream: boolean, options: ChatCallOptions, hedgedAt: number) {
  const gateway = await emulate();
  const { client, events } = recordingClient(gateway, { maxRetries: 0 });
  // Its one request (no retries) stalls FOREVER: a stall the hedge must beat.
  stalledOnce(gateway.emulator, 'community/general');
  driveClock();
  const call = {
    ...options,
    fallbackModels: ['community/streamer'],
    hedge: { afterMs: 'auto' as const, maxExtra: 1 },
  };
  const answered = stream
    ? client.chatStream(hi(), call).then(async (opened) => {
        const result = await opened.result();
        return { text: result.text, route: opened.route };
      })
    : client.chat(hi(), call).then((result) => ({ text: result.answer.text, route: result.route }));
  const { text, route } = await settledAfter(hedgedAt, answered);
  expect(text).toBe('Echo: hello there');
  return { hedges: only(events, 'hedge'), route, skipped: only(events, 'hedge-skipped') };
}

describe("hedge 'auto' under a first-content limit: half of it at most", () => {
  hedgesOnDrivenClock();

  it.each([
    ['streamed', true, 1_500],
    ['read whole', false, 5_000],
  ] as const)(
    '%s, firstChunkTimeoutMs below the prior: hedged at half of it, before the stall',
    async (_, stream, limit) => {
      const prior = stream ? AUTO_HEDGE.priorMs.stream : AUTO_HEDGE.priorMs.whole;
      expect(limit).toBeLessThan(prior);
      const { hedges, route, skipped } = await autoHedgedAt(
        stream,
        { firstChunkTimeoutMs: limit },
        limit / 2,
      );
      expect(hedges[0]).toMatchObject({
        phase: 'sent',
        from: 'community/general',
        model: 'community/streamer',
        waitedMs: limit / 2,
      });
      expect(hedges[1]).toMatchObject({ phase: 'won', winner: 'hedge', lost: 'community/general' });
      expect(skipped).toEqual([]);
      // The first attempt was cut by the hedge's win, not failed by its stall.
      expect(route.hops).toEqual([
        { model: 'community/general', outcome: 'lost' },
        { model: 'community/streamer', outcome: 'answered' },
      ]);
    },
  );

  it('a deadline below the prior: hedged at half of it', async () => {
    const { hedges } = await autoHedgedAt(false, { timeoutMs: 3_000 }, 1_500);
    expect(hedges[0]).toMatchObject({ phase: 'sent', waitedMs: 1_500 });
  });

  it('a stall timeout above twice the prior leaves the prior as it is', async () => {
    const { hedges } = await autoHedgedAt(true, { firstChunkTimeoutMs: 30_000 }, 2_000);
    expect(hedges[0]).toMatchObject({ phase: 'sent', waitedMs: AUTO_HEDGE.priorMs.stream });
  });
});

// When a hedge is due, on the driven clock (time is the subject).
//
// 'auto' hedging under a first-content limit (rv-steer7 F1): its wait is capped at half of the
// first attempt's stall timeout (or of the deadline left), so the hedge races the slow start
// before the stall moves the call on, instead of never being due.
//
// docs/gateway-protocol.md §4.7 (a hedged call: the hedge's delay counts to the first content), §10.1:
// an error answer (a non-2xx status) is no content, even while its body is still being read. A
// hedged call whose first model answers a 502 at once and trickles its JSON body sends its hedge at
// `afterMs` and answers from it, with no first-chunk limit set (before, the headers counted as the
// attempt's start: the call waited for its deadline).
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { ChatCallOptions, GatewayClient } from '../src/index';
import { AUTO_HEDGE } from '../src/steering/hedge-delay';
import {
  askedWhen,
  driveClock,
  hedgesOnDrivenClock,
  hi,
  only,
  recordingClient,
  settledAfter,
  stalledOnce,
} from './helpers';
import { answeringModel, trickled502 } from './trickled-answers';

hedgesOnDrivenClock();

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

const GENERAL = 'community/general';
const TOOLS = 'community/tools';

/** A recording client whose chat POSTs for GENERAL get a trickled 502 (the others: the emulator's). */
async function trickledGeneral() {
  const gateway = await emulate();
  const { fetch, sent } = answeringModel(gateway, GENERAL, trickled502);
  const { client, events } = recordingClient(gateway, { fetch, maxRetries: 0 });
  await client.models();
  return { client, events, sent };
}

const hedged = { fallbackModels: [TOOLS], hedge: { afterMs: 30, maxExtra: 1 }, timeoutMs: 15_000 };

const calls = [
  {
    name: 'chatStream()',
    call: async (client: GatewayClient) => {
      const stream = await client.chatStream(hi(GENERAL), hedged);
      await stream.result();
      return stream.servedModel;
    },
  },
  {
    name: 'chat()',
    call: async (client: GatewayClient) => (await client.chat(hi(GENERAL), hedged)).servedModel,
  },
];

describe('a hedged call whose first model answers a 502, its JSON body trickling in', () => {
  it.each(calls)('$name: the hedge goes at afterMs and answers', async ({ call }) => {
    const { client, events, sent } = await trickledGeneral();
    driveClock();
    const served = await settledAfter(500, call(client));
    expect(served).toBe(TOOLS);
    expect(sent).toEqual([GENERAL, TOOLS]);
    expect(only(events, 'hedge').map((event) => event.phase)).toEqual(['sent', 'won']);
    expect(askedWhen(events)).toEqual([`0 ${GENERAL}`, `30 ${TOOLS}`]);
  });
});

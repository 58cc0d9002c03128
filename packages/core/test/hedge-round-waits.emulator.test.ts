import type { FaultRule } from '@infergate/emulator';
import { describe, expect, it } from 'vitest';
import {
  askedHeld,
  askedWhen,
  askingPlace,
  caught,
  drivenHedge,
  hedgesOnDrivenClock,
  only,
  STREAMED_OR_WHOLE,
  settledAfter,
  settledHedgeToldKeyLimit,
  untilEvents,
} from './helpers';

// A hedged call whose first run waits between its attempts (a round's backoff, a Retry-After): when
// its hedge goes, what the hedge's failure does to that wait, what the hedge is told that the first
// run must wait for too (docs/gateway-protocol.md §4.8). The driven clock gives each request's time.
const FIRST = 'community/so-native';
const HEDGE = 'community/so-plain';
const NEXT = 'community/so-object';

describe.each(STREAMED_OR_WHOLE)('%s', (_, whole) => {
  hedgesOnDrivenClock();

  /** Over [FIRST, ...`fallbacks`] (else [FIRST, HEDGE]), asked as this block asks: `drivenHedge`. */
  const hedged = (
    setup: Omit<Parameters<typeof drivenHedge>[0], 'first' | 'fallbacks' | 'whole'> & {
      fallbacks?: string[];
    },
  ) => drivenHedge({ first: FIRST, fallbacks: [HEDGE], ...setup, whole });

  /**
   * `askedHeld`, then the hedge's request held too; FIRST's request released (failing, its run
   * fixes its next round and waits its backoff) and the hedge's released inside that wait. The
   * call, not yet awaited.
   */
  async function hedgeReleasedInRoundWait(setup: Awaited<ReturnType<typeof hedged>>) {
    const { gateway, events } = setup;
    const { call, releaseFirst } = await askedHeld(setup);
    const releaseHedge = gateway.hold('chat', { faults: true });
    await settledAfter(30, gateway.untilHeld(2));
    releaseFirst();
    await settledAfter(
      20,
      untilEvents(events, (all) => only(all, 'retry').length === 1),
    );
    releaseHedge();
    return { call };
  }

  // A hedge due while the first run has no request in flight and no model to hedge to (waiting to
  // retry a round: every model in its backoff) is skipped (`no_candidate`, reported once) and its
  // delay starts again at the run's next request: `afterMs` counts from the request actually slow.
  // Before, it was never considered again, though the round's retry was slow and the other model
  // free by then (rv-6hedge F2).
  describe('a hedge whose delay ran out in a round wait', () => {
    it("is sent afterMs after the round's request, once", async () => {
      // Over [first, hedge]: both fail their first request (503); the round retries first after its
      // 200 ms backoff, whose answer takes 3 s; hedge answers its next request.
      const failed = [FIRST, HEDGE].map((model) => ({
        fault: 'service_unavailable' as const,
        model,
        times: 1,
      }));
      const slowHeaders = { fault: 'slow_headers', model: FIRST, ms: 3_000 } as const;
      const { events, ask } = await hedged({
        changed: { [FIRST]: { firstChunkMs: 3_000 } },
        options: { maxRetries: 1, retryBaseDelayMs: 200 },
        faults: whole ? [...failed, slowHeaders] : failed,
      });
      await settledAfter(5_000, ask());
      const attempts = only(events, 'attempt');
      expect(attempts.map((attempt) => attempt.model)).toEqual([FIRST, HEDGE, FIRST, HEDGE]);
      const [, , round, hedge] = attempts.map((attempt) => attempt.time);
      expect(hedge! - round!).toBe(30);
      // (The hedge due during the wait went later: no `hedge-skipped` says it was not sent.)
      expect(only(events, 'hedge-skipped')).toEqual([]);
      const sent = only(events, 'hedge').filter((event) => event.phase === 'sent');
      expect(sent).toMatchObject([{ from: FIRST, model: HEDGE, waitedMs: 30 }]);
      expect(only(events, 'hedge').at(-1)).toMatchObject({ phase: 'won', winner: 'hedge' });
    });
  });

  // A hedge due while the first run waits between its attempts, with no model to go to, is due
  // again afterMs after the run's next request. Its `hedge-skipped` event is told only when no hedge
  // follows, at the call's end, naming the request the delay counted from and the wait it had then;
  // before, it went at once, `waitedMs: 0` (no attempt in flight) and naming the model waited for,
  // even when the hedge was sent later (rv-7hedge).
  describe('a hedge skipped while due again', () => {
    it('not due again before the answer: told once, as it was due', async () => {
      // FIRST's first request: the key's 429 at once (Retry-After 1 s); its retry answers at once.
      const { events, ask } = await hedged({
        options: { maxRetries: 1 },
        faults: [{ fault: 'rate_limit', model: FIRST, times: 1, retryAfter: 1 }],
      });
      await settledAfter(2_000, ask());
      expect(only(events, 'hedge')).toEqual([]);
      expect(only(events, 'hedge-skipped')).toMatchObject([
        { model: FIRST, reason: 'no_candidate', waitedMs: 30 },
      ]);
      // (Told at the call's end: after the retry's attempt, before `done`.)
      const types = events.map((event) => event.type);
      expect(types.lastIndexOf('attempt')).toBeLessThan(types.indexOf('hedge-skipped'));
    });
  });

  // A hedge's failure that comes while the first run waits for a next round it fixed already joins
  // that round, as the unhedged walk's round has it: before, it went to the round after — one more
  // retry, so with maxRetries 1 the call failed where the unhedged one answers, and with 2 it asked
  // the first model a third time (rv-7hedge F3).
  describe('a hedge failing while the first run waits for its next round', () => {
    it.each([1, 2])(
      'maxRetries %i: its model is asked in that round, which answers',
      async (maxRetries) => {
        // FIRST always 503; the hedge's HEDGE a 500 once, which comes 20 ms after FIRST's 503
        // (the first run then waits for its round's backoff, 100 to 200 ms).
        const setup = await hedged({
          options: { maxRetries, retryBaseDelayMs: 200 },
          faults: [
            { fault: 'service_unavailable', model: FIRST },
            { fault: 'upstream_text', model: HEDGE, times: 1 },
          ],
        });
        const { events } = setup;
        // (A failed call rejects here: the test fails with its error.)
        const { call } = await hedgeReleasedInRoundWait(setup);
        await settledAfter(1_000, call);
        const asked = only(events, 'attempt').map((attempt) => attempt.model);
        expect(asked).toEqual([FIRST, HEDGE, FIRST, HEDGE]);
        // One round retried, as unhedged (FIRST, HEDGE, HEDGE again after the 500).
        expect(only(events, 'retry')).toHaveLength(1);
        expect(only(events, 'done')).toMatchObject([{ ok: true }]);
      },
    );
  });

  // A hedge's failure that comes while the first run waits for a next round it fixed joins that
  // round only if the retry policy would retry it, as every other model of a round is weighed: a
  // 400 or a refused answer is never asked again, as unhedged. Before, the round took it once its
  // (absent) Retry-After had passed, so the hedged call asked it twice (rv-9hedge F1).
  describe('a hedge failing unretryably while the first run waits for its next round', () => {
    /**
     * FIRST always 503; the hedge on `hedge` (failing always with `faults`, or by its answer)
     * released inside FIRST's round wait (`hedgeReleasedInRoundWait`); `structured`: the call
     * asks for the place schema (`askingPlace`), else plain text. The call's error.
     */
    async function hedgeFailsInTheWait(
      hedge: string,
      faults: { fault: FaultRule['fault'] }[],
      structured: boolean,
    ) {
      const setup = await hedged({
        fallbacks: [hedge],
        options: { maxRetries: 1, retryBaseDelayMs: 200 },
        faults: [
          { fault: 'service_unavailable', model: FIRST },
          ...faults.map((fault) => ({ ...fault, model: hedge }) as FaultRule),
        ],
        ...(structured ? { request: askingPlace } : {}),
      });
      const { call } = await hedgeReleasedInRoundWait(setup);
      const error = await settledAfter(
        1_000,
        caught(() => call),
      );
      return { events: setup.events, error };
    }

    it('a 400 of its model is not asked again in that round', async () => {
      const hedge = 'community/so-plain';
      const { events, error } = await hedgeFailsInTheWait(
        hedge,
        [{ fault: 'upstream_json' }],
        false,
      );
      expect(only(events, 'attempt').map((attempt) => attempt.model)).toEqual([
        FIRST,
        hedge,
        FIRST,
      ]);
      expect(error.code).toBe('provider_unavailable');
    });

    it('a refused answer (off-schema) is not asked again; the call ends as unhedged', async () => {
      const hedge = 'community/so-claimed';
      const { events, error } = await hedgeFailsInTheWait(hedge, [], true);
      expect(only(events, 'attempt').map((attempt) => attempt.model)).toEqual([
        FIRST,
        hedge,
        FIRST,
      ]);
      // Unhedged: FIRST, so-claimed refused, FIRST again in the round: its 503 ends the call.
      expect(error.code).toBe('provider_unavailable');
    });
  });

  // The key's own Retry-After (a 429 `client_concurrency_exceeded`, the same for every model) told
  // to one run of a hedged call is a not-before for the other run's next request too: before, the
  // first run sent its retry (or its next model) into it, though the unhedged call, told it, waits
  // it out (rv-6hedge F3). Only while it fits: one above `maxRetryAfterMs`, or past the deadline,
  // leaves the run on its own schedule, as unhedged — it never ends a call the unhedged one answers
  // (rv-7hedge R1–R3, which a first try failed).
  describe("the key's Retry-After told to a hedge", () => {
    /**
     * Over [FIRST, ...fallbacks], hedged after 30 ms: FIRST's request held until the hedge (on
     * HEDGE) got the key's 429 with `retryAfter` s, then failing with `faultA`; later requests answer.
     */
    async function hedgeToldKeyLimit(setup: {
      faultA: FaultRule['fault'];
      retryAfter: number;
      fallbacks: string[];
      options?: { maxRetryAfterMs?: number; timeoutMs?: number };
      /** FIRST's retry answers after this many ms. */
      slowRetryMs?: number;
    }) {
      const slowRetry: FaultRule[] = setup.slowRetryMs
        ? [
            {
              fault: 'slow_headers',
              model: FIRST,
              ms: setup.slowRetryMs,
              times: 1,
              afterRequests: 1,
            },
          ]
        : [];
      const started = await hedged({
        fallbacks: setup.fallbacks,
        options: { maxRetries: 1, retryBaseDelayMs: 50, ...setup.options },
        faults: [
          { fault: setup.faultA, model: FIRST, times: 1 },
          ...slowRetry,
          { fault: 'rate_limit', model: HEDGE, times: 1, retryAfter: setup.retryAfter },
        ],
      });
      // (The first request stays held; the hedge's 429 comes at once. A failed call rejects here:
      // the test fails with its error.)
      await settledHedgeToldKeyLimit(started);
      return { asked: askedWhen(started.events), events: started.events };
    }

    it("holds the first run's retry until it passed, when it fits", async () => {
      const { asked, events } = await hedgeToldKeyLimit({
        faultA: 'upstream_text',
        retryAfter: 1,
        fallbacks: [HEDGE],
      });
      // The hedge's 429 came at 30 ms: the 500's retry waits for 1030, not its 50 ms backoff.
      expect(asked).toEqual([`0 ${FIRST}`, `30 ${HEDGE}`, `1030 ${FIRST}`]);
      expect(only(events, 'retry')).toMatchObject([{ model: FIRST, reason: 'upstream_error' }]);
    });

    it("holds the first run's next model too (R1), as the unhedged call waits it out", async () => {
      const { asked, events } = await hedgeToldKeyLimit({
        faultA: 'service_unavailable',
        retryAfter: 1,
        fallbacks: [HEDGE, NEXT],
      });
      expect(asked).toEqual([`0 ${FIRST}`, `30 ${HEDGE}`, `1030 ${NEXT}`]);
      // A move to the next model held back is no retry: no `retry` event, none counted.
      expect(only(events, 'retry')).toEqual([]);
      expect(only(events, 'failover')).toMatchObject([{ from: FIRST, to: NEXT }]);
    });

    it.each([
      ['above maxRetryAfterMs (R2)', { maxRetryAfterMs: 2_000 }],
      ['past the deadline (R3)', { timeoutMs: 3_000 }],
    ])('one %s leaves the retry on its own schedule: it answers', async (_, options) => {
      const { asked } = await hedgeToldKeyLimit({
        faultA: 'upstream_text',
        retryAfter: 5,
        fallbacks: [HEDGE],
        options,
      });
      expect(asked.map((at) => at.split(' ')[1])).toEqual([FIRST, HEDGE, FIRST]);
      // (Released at 40 ms, retried after its backoff of at most 50 ms.)
      expect(Number(asked[2]!.split(' ')[0])).toBeLessThanOrEqual(90);
    });

    // It holds the first run's next request back only while the held request keeps a fair chance
    // of the deadline: as much time after the hold as the hold itself. Before, any hold that ended
    // before the deadline was taken, so a retry held to 1030 ms of a 1300 ms deadline timed out
    // where the unhedged call, never told the key's limit, retried after its backoff and answered
    // (rv-9hedge F2). FIRST's retry answers after 400 ms.
    describe('near the deadline', () => {
      const nearDeadline = (timeoutMs: number) =>
        hedgeToldKeyLimit({
          faultA: 'upstream_text',
          retryAfter: 1,
          fallbacks: [HEDGE],
          options: { timeoutMs },
          slowRetryMs: 400,
        });

      it('a hold leaving less after it than itself is not taken: the retry answers', async () => {
        const { asked } = await nearDeadline(1_300);
        expect(asked.map((at) => at.split(' ')[1])).toEqual([FIRST, HEDGE, FIRST]);
        // (Released at 40 ms, retried after its backoff of at most 50 ms, as unhedged.)
        expect(Number(asked[2]!.split(' ')[0])).toBeLessThanOrEqual(90);
      });

      it('one leaving as much after it is taken: the retry waits for the key', async () => {
        const { asked } = await nearDeadline(2_500);
        expect(asked).toEqual([`0 ${FIRST}`, `30 ${HEDGE}`, `1030 ${FIRST}`]);
      });
    });
  });
});

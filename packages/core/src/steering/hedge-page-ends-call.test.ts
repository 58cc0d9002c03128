// docs/gateway-protocol.md §4.7 (a hedged call), §10.4 (`invalid_response`): a page answered 200
// (text/html, text/plain that is no event stream; for a whole answer, an HTML page, handed on
// unread) ends a hedged call, streamed or whole, as it ends an unhedged one: at once, with that
// `invalid_response`, the other leg cancelled and its slot given back — not at the deadline,
// waiting for a leg whose answer would not be the call's (the other leg here never answers). A
// whole answer read in its attempt (text that is no JSON, HTML labelled JSON, JSON cut mid-way) is a
// step of the walk, as a 502: the other leg may still answer, as the unhedged call moves on.
// Time is the subject: the driven clock.
import { chatCompletion, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import {
  caught,
  deferred,
  driveClock,
  hedgesOnDrivenClock,
  hi,
  idle,
  only,
  recordingClient,
  settledAfter,
  slowIfFreeBudget,
  untilEvents,
} from '../../test/helpers';
import type { GatewayError } from '../errors/errors';

const MODEL = 'community/general';
const HEDGE = { hedge: { afterMs: 30, maxExtra: 1 }, timeoutMs: 60_000 };
const PAGES: [string, string][] = [
  ['text/html', '<html><body>Service under maintenance</body></html>'],
  ['text/plain', 'Service under maintenance'],
];
/** Each page, on the first leg (the hedge slow) and on the hedge (the first leg slow). */
const legsOf = (pages: [string, string][]) =>
  pages.flatMap(([type, page]) =>
    (['first', 'hedge'] as const).map((leg) => [leg, type, page] as const),
  );
const CASES = legsOf(PAGES);
/** A whole answer's page handed on unread (HTML: not read in its attempt), on either leg. */
const WHOLE_CASES = legsOf([PAGES[0]!]);
/**
 * Whole answers read in their attempt (text that is no JSON, an HTML page labelled JSON, JSON cut
 * mid-way): a step of the walk, as a 502 — the other leg may still answer.
 */
const READ_IN_ATTEMPT: [string, string][] = [
  ['text/plain', 'Service under maintenance'],
  ['application/json', '<html><body>Service under maintenance</body></html>'],
  ['application/json', '{"id":"c1","choices":['],
];

/** Rejects as `signal` aborts (with its reason); never without one. */
function abortOf(signal: AbortSignal | null | undefined): Promise<never> {
  return new Promise((_, reject) => {
    signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/**
 * A client whose two chat requests (the first, then the hedge) are answered once both were sent:
 * the one of leg `on` 200 with `body` as `type`; the other with `other()` once that answer failed
 * (its `response` told), or never (until aborted) without one. `signals`: each request's signal.
 */
async function oneLegAnswers(
  on: 'first' | 'hedge',
  type: string,
  body: string,
  other?: () => Response,
) {
  const gateway = await emulate();
  const hedgeSent = deferred();
  const signals: (AbortSignal | null | undefined)[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    if (!String(input instanceof Request ? input.url : input).endsWith('/chat/completions')) {
      return gateway.connection.fetch(input, init);
    }
    signals.push(init?.signal);
    const leg = signals.length === 1 ? 'first' : 'hedge';
    if (leg === 'hedge') hedgeSent.resolve();
    await hedgeSent.promise;
    if (leg === on) return new Response(body, { headers: { 'content-type': type } });
    if (other === undefined) return abortOf(init?.signal);
    await untilEvents(events, (told) =>
      told.some((event) => event.type === 'response' && event.code === 'invalid_response'),
    );
    return other();
  };
  const { client, events } = recordingClient(gateway, { fetch, maxRetries: 0 });
  return { gateway, client, events, signals, hedgeSent };
}

/**
 * What a call ended at once by a page on leg `leg` leaves: the other leg's request aborted, every
 * slot given back, each leg's `response` told, `done` with the page's error.
 */
async function expectOtherLegCut(
  setup: Awaited<ReturnType<typeof oneLegAnswers>>,
  leg: 'first' | 'hedge',
  error: GatewayError,
) {
  const { client, events, signals } = setup;
  expect(error).toMatchObject({ code: 'invalid_response', status: 200 });
  expect(signals[leg === 'first' ? 1 : 0]?.aborted).toBe(true);
  // Its slot given back (a cut request's, after its grace).
  await idle(client);
  const responses = only(events, 'response').map((event) => [event.attempt, event.code]);
  expect(responses).toEqual(
    expect.arrayContaining([
      [leg === 'first' ? 1 : 2, 'invalid_response'],
      [leg === 'first' ? 2 : 1, 'aborted'],
    ]),
  );
  expect(only(events, 'done').at(-1)).toMatchObject({ error: { code: 'invalid_response' } });
}

describe('a hedged stream one of whose legs is answered with a page', () => {
  hedgesOnDrivenClock();

  it.each(CASES)('on the %s leg, %s: fails at once, the other leg cut', async (leg, type, page) => {
    const setup = await oneLegAnswers(leg, type, page);
    driveClock();
    const call = caught(() =>
      setup.client.chatStream(hi(MODEL), HEDGE).then((stream) => stream.result()),
    );
    await settledAfter(30, setup.hedgeSent.promise);
    // The other leg has not answered: the call settles without it, the clock not moved.
    const error = (await settledAfter(0, call)) as GatewayError;
    await expectOtherLegCut(setup, leg, error);
    expect(error.route?.hops).toEqual([
      { model: MODEL, outcome: 'lost' },
      { model: MODEL, outcome: 'ended', code: 'invalid_response' },
    ]);
    await setup.gateway.close();
  });

  it('while the hedge waits for its slot: fails at once, no hedge sent, its slot given back', async () => {
    const gateway = await emulate();
    const { budget, asked, answer, granted, givenBack } = slowIfFreeBudget();
    const page = new TextEncoder().encode('Service under maintenance');
    let sent = 0;
    const fetch: typeof globalThis.fetch = async (input, init) => {
      if (!String(input instanceof Request ? input.url : input).endsWith('/chat/completions')) {
        return gateway.connection.fetch(input, init);
      }
      sent++;
      // The first leg's page comes while the hedge's ask for a free slot is unanswered.
      await asked;
      return new Response(page, { headers: { 'content-type': 'text/plain' } });
    };
    const { client, events } = recordingClient(gateway, { fetch, budget, maxRetries: 0 });
    driveClock();
    const call = caught(() =>
      client.chatStream(hi(MODEL), HEDGE).then((stream) => stream.result()),
    );
    await settledAfter(30, asked);
    // The budget has not answered the hedge's ask: the call settles without it.
    const error = (await settledAfter(0, call)) as GatewayError;
    expect(error).toMatchObject({ code: 'invalid_response', status: 200 });
    // The budget answers only now: the slot it grants is given back, no hedge sent on it.
    answer();
    expect(await granted).toBeDefined();
    await givenBack;
    expect(sent).toBe(1);
    expect(only(events, 'hedge')).toEqual([]);
    expect(error.route?.hops).toEqual([
      { model: MODEL, outcome: 'ended', code: 'invalid_response' },
    ]);
    await gateway.close();
  });
});

describe('a hedged chat() one of whose legs is answered with a page', () => {
  hedgesOnDrivenClock();

  it.each(WHOLE_CASES)(
    'on the %s leg, %s: fails at once, the other leg cut',
    async (leg, type, page) => {
      const setup = await oneLegAnswers(leg, type, page);
      driveClock();
      const call = caught(() => setup.client.chat(hi(MODEL), HEDGE));
      await settledAfter(30, setup.hedgeSent.promise);
      // The other leg has not answered: the call settles without it, the clock not moved.
      const error = (await settledAfter(0, call)) as GatewayError;
      expect(error.message).toMatch(/^The gateway's \/chat\/completions answer is not valid JSON/);
      await expectOtherLegCut(setup, leg, error);
      const hops = error.route?.hops ?? [];
      expect(hops).toHaveLength(2);
      expect(hops[0]).toEqual({ model: MODEL, outcome: 'lost' });
      expect(hops[1]).toMatchObject({ model: MODEL });
      expect(JSON.stringify(hops[1])).toContain('invalid_response');
      await setup.gateway.close();
    },
  );
});

describe('a hedged chat() one of whose legs is answered with a body read in its attempt', () => {
  hedgesOnDrivenClock();

  it.each(legsOf(READ_IN_ATTEMPT))(
    'on the %s leg, %s %s: a failover step, the other leg answers',
    async (leg, type, body) => {
      const answer = () => Response.json(chatCompletion(MODEL, 'Hello'));
      const setup = await oneLegAnswers(leg, type, body, answer);
      driveClock();
      const call = setup.client.chat(hi(MODEL), HEDGE);
      await settledAfter(30, setup.hedgeSent.promise);
      const result = await settledAfter(0, call);
      expect(result.answer.text).toBe('Hello');
      const responses = only(setup.events, 'response').map((event) => [event.attempt, event.code]);
      expect(responses).toEqual([
        [leg === 'first' ? 1 : 2, 'invalid_response'],
        [leg === 'first' ? 2 : 1, undefined],
      ]);
      await setup.gateway.close();
    },
  );
});

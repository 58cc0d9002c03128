// docs/gateway-protocol.md §4.7 (a hedged call), §10.4 (`invalid_response`): a stream answered
// 200 with a page (text/html, or text/plain that is no event stream) ends a steered call, hedged
// too: the call fails at once with that `invalid_response`, the other leg is cancelled and its slot
// given back — not at the deadline, waiting for a leg whose answer would not be the call's (the
// other leg here never answers). Time is the subject: the driven clock.
import { emulate } from '@infergate/emulator/testing';
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
} from '../../test/helpers';
import type { GatewayError } from '../errors/errors';

const MODEL = 'community/general';
const PAGES: [string, string][] = [
  ['text/html', '<html><body>Service under maintenance</body></html>'],
  ['text/plain', 'Service under maintenance'],
];
/** Each page, on the first leg (the hedge slow) and on the hedge (the first leg slow). */
const CASES = PAGES.flatMap(([type, page]) =>
  (['first', 'hedge'] as const).map((leg) => [leg, type, page] as const),
);

/** Rejects as `signal` aborts (with its reason); never without one. */
function abortOf(signal: AbortSignal | null | undefined): Promise<never> {
  return new Promise((_, reject) => {
    signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/**
 * A client whose two chat requests (the first, then the hedge) are answered once both were sent:
 * the one of leg `pageOn` 200 with `page` as `type`; the other never (until aborted). `signals`:
 * each request's signal, in the order sent.
 */
async function pageOnOneLeg(pageOn: 'first' | 'hedge', type: string, page: string) {
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
    if (leg === pageOn) {
      return new Response(new TextEncoder().encode(page), { headers: { 'content-type': type } });
    }
    // The slow leg: no answer before its abort (heard, as the platform's fetch does).
    return abortOf(init?.signal);
  };
  const { client, events } = recordingClient(gateway, { fetch, maxRetries: 0 });
  return { gateway, client, events, signals, hedgeSent };
}

describe('a hedged stream one of whose legs is answered with a page', () => {
  hedgesOnDrivenClock();

  it.each(CASES)('on the %s leg, %s: fails at once, the other leg cut', async (leg, type, page) => {
    const setup = await pageOnOneLeg(leg, type, page);
    const { gateway, client, events, signals } = setup;
    driveClock();
    const call = caught(() =>
      client
        .chatStream(hi(MODEL), { hedge: { afterMs: 30, maxExtra: 1 }, timeoutMs: 60_000 })
        .then((stream) => stream.result()),
    );
    await settledAfter(30, setup.hedgeSent.promise);
    // The other leg has not answered: the call settles without it, the clock not moved.
    const error = (await settledAfter(0, call)) as GatewayError;
    expect(error).toMatchObject({ code: 'invalid_response', status: 200 });
    const other = leg === 'first' ? 1 : 0;
    expect(signals[other]?.aborted).toBe(true);
    // Its slot given back (a cut request's, after its grace).
    await idle(client);
    const responses = only(events, 'response').map((event) => [event.attempt, event.code]);
    expect(responses).toEqual(
      expect.arrayContaining([
        [leg === 'first' ? 1 : 2, 'invalid_response'],
        [leg === 'first' ? 2 : 1, 'aborted'],
      ]),
    );
    expect(error.route?.hops).toEqual([
      { model: MODEL, outcome: 'lost' },
      { model: MODEL, outcome: 'ended', code: 'invalid_response' },
    ]);
    expect(only(events, 'done').at(-1)).toMatchObject({ error: { code: 'invalid_response' } });
    await gateway.close();
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
      client
        .chatStream(hi(MODEL), { hedge: { afterMs: 30, maxExtra: 1 }, timeoutMs: 60_000 })
        .then((stream) => stream.result()),
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

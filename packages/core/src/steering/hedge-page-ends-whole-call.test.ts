// docs/gateway-protocol.md §4.7 (a hedged call), §10.4 (`invalid_response`): a whole answer
// (`chat()`) answered 200 with a page (an HTML page, whatever its label, or text that is no JSON)
// ends a hedged call as it ends the unhedged one and a hedged stream: at once, with that
// `invalid_response`, the other leg cancelled and its slot given back — not at the deadline. A
// whole answer cut mid-JSON is the model's failure, not a page: the other leg may still answer.
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
  untilEvents,
} from '../../test/helpers';
import type { GatewayError } from '../errors/errors';

const MODEL = 'community/general';
const HEDGE = { hedge: { afterMs: 30, maxExtra: 1 }, timeoutMs: 60_000 };
const PAGES: [string, string][] = [
  ['text/html', '<html><body>Service under maintenance</body></html>'],
  ['text/plain', 'Service under maintenance'],
  ['application/json', '<html><body>Service under maintenance</body></html>'],
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

describe('a hedged chat() one of whose legs is answered with a page', () => {
  hedgesOnDrivenClock();

  it.each(CASES)('on the %s leg, %s: fails at once, the other leg cut', async (leg, type, page) => {
    const setup = await oneLegAnswers(leg, type, page);
    const { gateway, client, events, signals } = setup;
    driveClock();
    const call = caught(() => client.chat(hi(MODEL), HEDGE));
    await settledAfter(30, setup.hedgeSent.promise);
    // The other leg has not answered: the call settles without it, the clock not moved.
    const error = (await settledAfter(0, call)) as GatewayError;
    expect(error).toMatchObject({ code: 'invalid_response', status: 200 });
    expect(error.message).toMatch(/^The gateway's \/chat\/completions answer is not valid JSON/);
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
    const hops = error.route?.hops ?? [];
    expect(hops).toHaveLength(2);
    expect(hops[0]).toEqual({ model: MODEL, outcome: 'lost' });
    expect(hops[1]).toMatchObject({ model: MODEL });
    expect(JSON.stringify(hops[1])).toContain('invalid_response');
    expect(only(events, 'done').at(-1)).toMatchObject({ error: { code: 'invalid_response' } });
    await gateway.close();
  });
});

describe('a hedged chat() one of whose legs is answered cut mid-JSON', () => {
  hedgesOnDrivenClock();

  it.each(['first', 'hedge'] as const)('on the %s leg: the other leg answers', async (leg) => {
    const answer = () => Response.json(chatCompletion(MODEL, 'Hello'));
    const cut = '{"id":"c1","choices":[';
    const setup = await oneLegAnswers(leg, 'application/json', cut, answer);
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
  });
});

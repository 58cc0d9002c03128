import { describe, expect, it } from 'vitest';
import { askedWhen, hedgedPlaceStream, hedgesOnDrivenClock, only, settledAfter } from './helpers';

// A hedge is never sent to a model whose Retry-After the first run waits for, nor on the key
// while the key's own Retry-After runs (a 429 `client_concurrency_exceeded`: the same for every
// model) — docs/gateway-protocol.md §4.8. Before, a hedge due during such a wait went to the model
// the walk was waiting to retry, or on the busy key (rv-5hedge F2). With no other model, the hedge
// is skipped (`no_candidate`), and the call asks as the unhedged one does.
const BAD = 'community/so-claimed';
const GOOD = 'community/so-native';

/** Over [good, bad] with a hedge after 30 ms, `faults` first: what the call asked, and when. */
async function hedgedAfter(faults: { fault: 'model_busy' | 'rate_limit'; model: string }[]) {
  const { events, opened } = await hedgedPlaceStream({
    first: GOOD,
    fallbacks: [BAD],
    options: { maxRetries: 1 },
    faults: faults.map((fault) => ({ ...fault, times: 1, retryAfter: 1 })),
  });
  const result = await settledAfter(
    3_000,
    opened.then((stream) => stream.result()),
  );
  expect(result.structured?.value).toMatchObject({ city: expect.any(String) });
  return { events, asked: askedWhen(events) };
}

describe('a hedge due while the first run waits for a Retry-After', () => {
  hedgesOnDrivenClock();

  it('is not sent to a model of the round waiting for its Retry-After', async () => {
    const { events, asked } = await hedgedAfter([
      { fault: 'model_busy', model: GOOD },
      { fault: 'model_busy', model: BAD },
    ]);
    expect(only(events, 'hedge')).toEqual([]);
    expect(only(events, 'hedge-skipped')).toMatchObject([{ reason: 'no_candidate' }]);
    expect(asked).toEqual([`0 ${GOOD}`, `0 ${BAD}`, `1000 ${GOOD}`]);
  });

  it('is not sent on the key while the key’s own Retry-After runs', async () => {
    const { events, asked } = await hedgedAfter([{ fault: 'rate_limit', model: GOOD }]);
    expect(only(events, 'response')[0]).toMatchObject({ code: 'client_concurrency_exceeded' });
    expect(only(events, 'hedge')).toEqual([]);
    expect(only(events, 'hedge-skipped')).toMatchObject([{ reason: 'no_candidate' }]);
    expect(asked).toEqual([`0 ${GOOD}`, `1000 ${GOOD}`]);
  });
});

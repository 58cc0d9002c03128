// A server making a client per user key: the realm's per-key steering state (hedge timings, hedge
// allowances, breakers' observations) keeps the keys in use, within a cap, not every key ever seen.
import { describe, expect, it } from 'vitest';
import { serverFailure, sizeOf } from '../../test/helpers';
import { CircuitBreakers, MAX_ENTRIES } from './circuit-breaker';
import { earnHedge, HEDGE_ALLOWANCES_KEPT, spendHedge } from './hedge-allowance';
import { AUTO_HEDGE, HEDGE_TIMINGS_KEPT, hedgeDelay, recordFirstContent } from './hedge-delay';

const badGateway = serverFailure('provider_unavailable', 503);
const options = { failures: 3, cooldownMs: 60_000, maxCooldownMs: 60_000, failureShare: 0.2 };
const strict = { ...options, failures: 1 };

describe('hedge timings per (key, model, kind)', () => {
  it('stay within their cap as keys come and go; a key in use keeps learning', () => {
    for (let key = 0; key < HEDGE_TIMINGS_KEPT * 3; key++) {
      recordFirstContent(`timings-churn-${key}`, 'm', false, 40);
      // The key in use answers as often as 1 in 4 of the others.
      if (key % 4 === 0) recordFirstContent('timings-in-use', 'm', true, 300);
    }
    expect(sizeOf('hedgeTimings')).toBeLessThanOrEqual(HEDGE_TIMINGS_KEPT);
    expect(hedgeDelay('auto', 'timings-in-use', 'm', true)).toBe(300);
    // The first keys are forgotten: they start again from the prior.
    expect(hedgeDelay('auto', 'timings-churn-0', 'm', false)).toBe(AUTO_HEDGE.priorMs.whole);
  });
});

describe('hedge allowances per key', () => {
  it('stay within their cap as keys come and go; a key in use keeps what it earned', () => {
    for (let i = 0; i < 40; i++) earnHedge('allowance-in-use', 0.1);
    for (let key = 0; key < HEDGE_ALLOWANCES_KEPT * 3; key++) {
      earnHedge(`allowance-churn-${key}`, 0.1);
      if (key % 4 === 0) earnHedge('allowance-in-use', 0.1);
    }
    expect(sizeOf('hedgeBuckets')).toBeLessThanOrEqual(HEDGE_ALLOWANCES_KEPT);
    // Saved up to its capacity (4 at 0.1): more than a fresh key's one.
    const spent = [1, 2, 3, 4, 5].filter(() => spendHedge('allowance-in-use')).length;
    expect(spent).toBe(4);
  });
});

describe("the breakers' observations per (key, base URL, model)", () => {
  it('stay within their cap when every key saw a failure: old streaks are forgotten', () => {
    for (let key = 0; key < MAX_ENTRIES * 2; key++) {
      new CircuitBreakers(options, `streaks-${key}`, undefined).record('m', badGateway, 0);
    }
    expect(sizeOf('circuit-observations')).toBeLessThanOrEqual(MAX_ENTRIES);
    // The first key's streak is forgotten: judged afresh, one failure does not open it.
    const first = new CircuitBreakers(strict, 'streaks-0', undefined);
    expect(first.skip('m', ['m', 'other'])).toBeUndefined();
  });

  it("open for a model failing in a key in use while other keys' failures churn", () => {
    const inUse = new CircuitBreakers(options, 'streaks-in-use', undefined);
    for (let key = 0; key < MAX_ENTRIES * 2; key++) {
      new CircuitBreakers(options, `churn-${key}`, undefined).record('m', badGateway, 0);
      if (key % 1000 === 0) inUse.record('m', badGateway, 0);
    }
    expect(sizeOf('circuit-observations')).toBeLessThanOrEqual(MAX_ENTRIES);
    expect(inUse.skip('m', ['m', 'other'])).toMatchObject({ reason: 'circuit_open' });
  });

  it('keep an open breaker planned around while other keys churn', () => {
    const inUse = new CircuitBreakers(strict, 'open-in-use', undefined);
    inUse.record('m', badGateway, 0);
    for (let key = 0; key < MAX_ENTRIES * 2; key++) {
      new CircuitBreakers(options, `open-churn-${key}`, undefined).record('m', badGateway, 0);
      if (key % 1000 === 0) expect(inUse.skip('m', ['m', 'other'])).toBeDefined();
    }
    expect(inUse.skip('m', ['m', 'other'])).toMatchObject({ reason: 'circuit_open' });
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { serverFailure } from '../../test/helpers';
import { realmValue } from '../budget/realm';
import { CircuitBreakers } from './circuit-breaker';

const options = { failures: 1, cooldownMs: 60_000, maxCooldownMs: 60_000, failureShare: 0.2 };
const badGateway = serverFailure('upstream_error', 502);

describe('CircuitBreakers: the realm-wide observations', () => {
  it('stay bounded across many keys: healthy models are forgotten first, failing ones kept', () => {
    const failing = new CircuitBreakers(options, 'bounded-failing', undefined);
    failing.record('m', badGateway, 0);
    for (let i = 0; i < 5_000; i++) {
      new CircuitBreakers(options, `bounded-healthy-${i}`, undefined).record('m', undefined, 0);
    }
    const observed = realmValue('circuit-observations', () => new Map<string, unknown>());
    expect(observed.size).toBeLessThanOrEqual(4_096);
    expect(failing.skip('m', ['m', 'other'])).toMatchObject({ reason: 'circuit_open' });
  });
});

describe('CircuitBreakers.failsOften: a model failing often, never in a row', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const lenient = { ...options, failures: 3 };
  /** `outcomes` of `model` recorded under `scope`: `x` a 502, `.` an answer. */
  function recorded(scope: string, outcomes: string) {
    const breakers = new CircuitBreakers(lenient, scope, undefined);
    for (const outcome of outcomes) {
      breakers.record('m', outcome === 'x' ? badGateway : undefined, 0);
    }
    return breakers;
  }

  it("says so from its 10th recent attempt on, at the client's share (1 in 5 by default)", () => {
    expect(recorded('often-9', 'x..x..x..').failsOften('m')).toBe(false);
    expect(recorded('often-10', 'x..x..x...').failsOften('m')).toBe(true);
    expect(recorded('often-healthy', 'x.........').failsOften('m')).toBe(false);
    // Its breaker never trips: the failures are not in a row.
    expect(recorded('often-open', 'x..x..x...').skip('m', ['m', 'other'])).toBeUndefined();
  });

  it('judges the last 20 attempts only, and forgets those older than a minute', () => {
    expect(recorded('often-last-20', `xxxxx${'.'.repeat(20)}`).failsOften('m')).toBe(false);
    const breakers = recorded('often-forgotten', 'x..x..x...');
    const real = performance.now.bind(performance);
    vi.spyOn(performance, 'now').mockImplementation(() => real() + 60_001);
    expect(breakers.failsOften('m')).toBe(false);
  });

  it("reads the share with each client's own threshold", () => {
    recorded('often-thresholds', 'x..x......');
    const strict = new CircuitBreakers(
      { ...lenient, failureShare: 0.2 },
      'often-thresholds',
      undefined,
    );
    const tolerant = new CircuitBreakers(
      { ...lenient, failureShare: 0.5 },
      'often-thresholds',
      undefined,
    );
    expect(strict.failsOften('m')).toBe(true);
    expect(tolerant.failsOften('m')).toBe(false);
  });
});

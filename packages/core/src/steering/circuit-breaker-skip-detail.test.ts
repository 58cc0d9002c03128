import { afterEach, describe, expect, it, vi } from 'vitest';
import { serverFailure } from '../../test/helpers';
import { CircuitBreakers } from './circuit-breaker';

// A call takes one probe at most: past both cooldowns, the call probing one model skips the other,
// whose probe is free and left to the next call. Its detail said "its one probe in flight", which
// was untrue (rv-2hedge F3b).

const options = { failures: 1, cooldownMs: 1_000, maxCooldownMs: 1_000, failureShare: 0.2 };
const badGateway = serverFailure('upstream_error', 502);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('CircuitBreakers.skip: the detail of a model skipped past its cooldown', () => {
  it('says its probe is left to the next call when this call probes another model', () => {
    const tripping = new CircuitBreakers(options, 'skip-detail', undefined);
    tripping.record('x', badGateway, 0);
    tripping.record('y', badGateway, 0);
    const real = performance.now.bind(performance);
    vi.spyOn(performance, 'now').mockImplementation(() => real() + 1_001);
    const call = new CircuitBreakers(options, 'skip-detail', undefined);
    expect(call.skip('x', ['x', 'y', 'z'])).toBeUndefined();
    const skipped = call.skip('y', ['x', 'y', 'z']);
    expect(skipped?.reason).toBe('circuit_open');
    expect(skipped?.detail).toBe(
      'Model "y" failed 1 times in a row: its circuit breaker is open past its cooldown, its probe left to the next call (this call probes "x")',
    );
    expect(skipped?.detail).not.toContain('in flight');
    // Another call finds y's probe free and takes it; a third skips y with its probe in flight.
    const next = new CircuitBreakers(options, 'skip-detail', undefined);
    expect(next.skip('y', ['y', 'z'])).toBeUndefined();
    const third = new CircuitBreakers(options, 'skip-detail', undefined);
    expect(third.skip('y', ['y', 'z'])?.detail).toContain('its one probe in flight');
  });
});

import { describe, expect, it } from 'vitest';
import { realmValue } from '../budget/realm';
import { GatewayError } from '../errors/errors';
import { CircuitBreakers } from './circuit-breaker';

const options = { failures: 1, cooldownMs: 60_000, maxCooldownMs: 60_000 };
const badGateway = new GatewayError({
  code: 'upstream_error',
  message: 'bad gateway',
  status: 502,
});

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

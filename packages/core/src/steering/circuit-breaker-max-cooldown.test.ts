import { afterEach, expect, it, vi } from 'vitest';
import { serverFailure } from '../../test/helpers';
import type { CallEvents } from '../events/call-events';
import { CircuitBreakers } from './circuit-breaker';

// core README: each failed probe doubles the cooldown, up to `maxCooldownMs`. The clock is
// core's monotonic one (`performance.now()`), moved by hand.
const badGateway = serverFailure('upstream_error', 502);

afterEach(() => {
  vi.restoreAllMocks();
});

it('a failing probe doubles the cooldown until maxCooldownMs, then the next probe comes at maxCooldownMs', () => {
  const clock = { now: 1_000_000 };
  vi.spyOn(performance, 'now').mockImplementation(() => clock.now);
  const options = { failures: 1, cooldownMs: 1_000, maxCooldownMs: 3_000, failureShare: 0.2 };
  const opened: number[] = [];
  // The cooldown each opening announces (`circuit-open`'s `cooldownMs`).
  const events: Pick<CallEvents, 'circuitOpen' | 'circuit'> = {
    circuitOpen: (_model, ms) => opened.push(ms),
    circuit: () => {},
  };
  const breakers = () => new CircuitBreakers(options, 'max-cooldown', events as CallEvents);
  /** Whether a call at `at` ms from the first failure may send its probe to `m`. */
  const probeAllowed = (at: number) => {
    clock.now = 1_000_000 + at;
    const call = breakers();
    const skipped = call.skip('m', ['m', 'other']);
    return { call, allowed: skipped === undefined };
  };
  breakers().record('m', badGateway, 0);
  // Cooldowns 1 s, then 2 s, then 4 s capped at 3 s, and 3 s again: probes due at 1, 3, 6, 9 s.
  let due = 0;
  for (const cooldown of [1_000, 2_000, 3_000, 3_000]) {
    due += cooldown;
    expect(probeAllowed(due - 1).allowed).toBe(false);
    const { call, allowed } = probeAllowed(due);
    expect(allowed).toBe(true);
    call.record('m', badGateway, 0);
  }
  expect(opened).toEqual([1_000, 2_000, 3_000, 3_000, 3_000]);
});

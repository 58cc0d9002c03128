import { describe, expect, it } from 'vitest';
import { maxReconnectDelayFor, reconnectPause } from './redis-connection';

describe('maxReconnectDelayFor', () => {
  // A restart that lost the leases: an acquire waits at most 2/3 of a TTL for the holders. A
  // holder that just missed Redis coming back must retry within half that window (the other half
  // covers its two round trips on a loaded machine). With the former fixed 2 s, a 3 s TTL's 2 s
  // window was missed under load (hostile-28 Q-restart-queued: 4 × 429).
  it.each([300, 1000, 2000, 3000, 6000, 15_000, 60_000])(
    'TTL %i ms: within the settle window',
    (ttl) => {
      const settleWindow = Math.floor((ttl * 2) / 3);
      expect(maxReconnectDelayFor(ttl)).toBeLessThanOrEqual(settleWindow / 2);
    },
  );

  it('backs off to 2 s at most (a long TTL keeps the gentle pace)', () => {
    expect(maxReconnectDelayFor(15_000)).toBe(2000);
    expect(maxReconnectDelayFor(60_000)).toBe(2000);
  });
});

describe('reconnectPause (herd19 f2)', () => {
  /** When the attempts of an outage happen (ms into it), the strategy asked after each one. */
  function attempts(commandTimeout: number, maxReconnectDelay: number, until: number): number[] {
    const at: number[] = [];
    for (let tries = 0, t = 0; t < until; tries++) {
      t += reconnectPause(tries, t, { commandTimeout, maxReconnectDelay });
      at.push(t);
    }
    return at;
  }

  // The calls queued when Redis began refusing connections wait for it for one command timeout
  // from the outage's start: a Redis back before then must be tried before then. Before the fix,
  // 100 ms doubled up to 2 s tried at 1.5 s and 3.1 s: a restart back at 1.7 s was missed.
  it.each([
    [2000, 2000],
    [2000, 500],
    [5000, 2000],
    [1000, 2000],
    [120_000, 2000],
    [300, 50],
  ])(
    'commandTimeoutMs %i, back-off up to %i ms: one attempt shortly before the bound',
    (commandTimeout, maxDelay) => {
      const at = attempts(commandTimeout, maxDelay, commandTimeout * 3);
      const margin = Math.min(100, commandTimeout / 10);
      expect(at.some((t) => t >= commandTimeout - margin && t < commandTimeout)).toBe(true);
    },
  );

  it('a Redis that stays away gets one attempt more than the back-off alone, no more', () => {
    const plain = (tries: number) => Math.min(100 * 2 ** tries, 2000);
    let backOffOnly = 0;
    for (let tries = 0, t = 0; t < 60_000; tries++, backOffOnly++) t += plain(tries);
    expect(attempts(2000, 2000, 60_000).length).toBeLessThanOrEqual(backOffOnly + 1);
  });

  it('outside an outage, the plain back-off', () => {
    expect(reconnectPause(0, undefined, { commandTimeout: 2000, maxReconnectDelay: 2000 })).toBe(
      100,
    );
    expect(reconnectPause(5, undefined, { commandTimeout: 2000, maxReconnectDelay: 2000 })).toBe(
      2000,
    );
  });
});

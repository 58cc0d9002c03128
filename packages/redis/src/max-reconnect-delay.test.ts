import { describe, expect, it } from 'vitest';
import { maxReconnectDelayFor } from './redis-connection';

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

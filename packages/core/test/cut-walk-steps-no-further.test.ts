import { describe, expect, it } from 'vitest';
import { GatewayError } from '../src/errors/errors';
import { FailoverWalk } from '../src/steering/failover-walk';

// A hedged call's run cut by the other's first content (docs/gateway-protocol.md §4.7): what its
// attempt in flight answers with after that moves it nowhere (rv-obs6 F1).
const limits = {
  maxRetries: 2,
  maxRetryAfterMs: 60_000,
  retryBaseDelayMs: 0,
  remainingMs: 300_000,
};
const busy = () =>
  new GatewayError({ code: 'model_busy', message: 'busy', status: 429, retryAfterMs: 1000 });

function cutInFlight(lost: boolean): FailoverWalk {
  const walk = new FailoverWalk({ models: ['a', 'b'], bodyFor: (model) => model });
  walk.startAttempt();
  walk.cut(lost);
  return walk;
}

describe('FailoverWalk cut by the race', () => {
  it('lost in flight: its late failure records no hop and gives no step; its hop stays lost', () => {
    const walk = cutInFlight(true);
    const failure = busy();
    expect(walk.next(failure, 0, limits)).toBeUndefined();
    expect(walk.hops).toEqual([]);
    expect(walk.unlistedHop(failure)).toEqual({ model: 'a', outcome: 'lost' });
  });

  it('its failure told before the race was decided: its hop, and no step (no retry, no failover)', () => {
    const walk = cutInFlight(false);
    expect(walk.next(busy(), 0, limits)).toBeUndefined();
    expect(walk.hops).toEqual([{ model: 'a', outcome: 'failed', reason: 'model_busy' }]);
  });
});

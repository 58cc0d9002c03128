import { afterEach, describe, expect, it, vi } from 'vitest';
import { CallScope } from '../call/call-scope';
import { MAX_TIMEOUT_MS } from '../call/timer-limit';
import { raceWithHedge } from './hedged-race';

afterEach(() => {
  vi.useRealTimers();
});

/** A race whose first run answers only when told, counting the hedges asked for. */
function race(delayMs: number) {
  let answer: (value: string) => void = () => {};
  const hedge = vi.fn(async () => undefined);
  const scope = new CallScope(undefined, 60_000, true);
  const raced = raceWithHedge<string>({
    scope,
    events: undefined,
    first: () => new Promise<string>((resolve) => (answer = resolve)),
    hedge,
    delayMs,
    discard: () => {},
  });
  return { raced, hedge, answer: (value: string) => answer(value), scope };
}

describe('hedged race: the hedge clock', () => {
  it('clamps afterMs ≥ 2^31 ms to the longest timer (Node fires a longer one after 1 ms)', async () => {
    // Fake timers fire an overlong timer after 1 ms, as Node does.
    vi.useFakeTimers();
    const { raced, hedge, answer, scope } = race(2 ** 31);
    await vi.advanceTimersByTimeAsync(0);
    raced.sent();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(hedge).not.toHaveBeenCalled();
    answer('first');
    expect((await raced.result).winner).toBe('first');
    scope.dispose();
  });

  it('asks for the hedge once the (clamped) delay has passed', async () => {
    vi.useFakeTimers();
    const { raced, hedge, answer, scope } = race(MAX_TIMEOUT_MS);
    await vi.advanceTimersByTimeAsync(0);
    raced.sent();
    await vi.advanceTimersByTimeAsync(MAX_TIMEOUT_MS - 1);
    expect(hedge).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(hedge).toHaveBeenCalledTimes(1);
    answer('first');
    await raced.result;
    scope.dispose();
  });
});

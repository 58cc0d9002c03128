import { afterEach, describe, expect, it, vi } from 'vitest';
import { CallScope } from '../call/call-scope';
import { GatewayError, isGatewayError } from '../errors/errors';
import type { AttemptAnswer } from '../http/attempt-policy';
import { FailoverWalk } from './failover-walk';
import { modelInflight } from './model-inflight';
import { walkPolicy } from './walk-policy';

afterEach(() => {
  vi.useRealTimers();
});

const retry = { maxRetries: 2, maxRetryAfterMs: 60_000, retryBaseDelayMs: 0 };

function policyOver(
  models: string[],
  extra: { firstChunkMs?: number; stream?: boolean; firstContent?: () => Promise<undefined> } = {},
) {
  // (A per-call timer: the shared deadline timer is not this test's.)
  const scope = new CallScope(undefined, 600_000, true);
  const walk = new FailoverWalk({ models, bodyFor: (model) => JSON.stringify({ model }) });
  const budgetId = `walk-policy-${Math.random()}`;
  const policy = walkPolicy({
    walk,
    scope,
    budgetId,
    retry,
    stream: extra.stream ?? false,
    firstChunkMs: extra.firstChunkMs,
    firstContent: extra.firstContent ?? (async () => undefined),
  });
  return { scope, walk, budgetId, policy };
}

const answer = { response: new Response('{}') } as AttemptAnswer;

describe('walkPolicy (the attempts of a steered call)', () => {
  it("sends the walk's model, counts it while the slot is held, and moves on at once after a busy one", () => {
    const { policy, budgetId, scope } = policyOver(['a', 'b']);
    const first = policy.request(1, undefined, {});
    expect(first).toMatchObject({ body: '{"model":"a"}', requestedModel: 'a', model: 'a' });
    expect(modelInflight(budgetId, 'a')).toBe(1);
    policy.released?.(first);
    expect(modelInflight(budgetId, 'a')).toBe(0);
    const busy = new GatewayError({ code: 'model_busy', message: 'busy', status: 429 });
    expect(policy.next(busy, 0, 60_000)).toEqual({ now: true });
    expect(policy.request(2, undefined, {})).toMatchObject({ requestedModel: 'b' });
    scope.dispose();
  });

  it('fails an attempt with no content within firstChunkTimeoutMs with its stall, on its own signal', async () => {
    vi.useFakeTimers();
    const { policy, scope } = policyOver(['a', 'b'], { firstChunkMs: 1_000 });
    const request = policy.request(1, undefined, {});
    await vi.advanceTimersByTimeAsync(1_000);
    const stall: unknown = request.signal?.reason;
    expect(isGatewayError(stall) && stall.stall).toMatchObject({ phase: 'first-chunk' });
    expect(scope.signal.aborted).toBe(false);
    scope.dispose();
  });

  it("stops an attempt's first-content clock when its slot is given back, however it ended", async () => {
    vi.useFakeTimers();
    const { policy, scope } = policyOver(['a'], { firstChunkMs: 30_000 });
    const timers = vi.getTimerCount();
    const request = policy.request(1, undefined, {});
    expect(vi.getTimerCount()).toBe(timers + 1);
    // A failure the transport throws (an unreadable answer, a chunk that failed to load) never
    // reaches `next`: the slot's release is what the attempt always has.
    policy.released?.(request);
    expect(vi.getTimerCount()).toBe(timers);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(request.signal?.aborted).toBe(false);
    scope.dispose();
  });

  it('takes a stream once its first content came, and its clock stops then', async () => {
    vi.useFakeTimers();
    let read = 0;
    const { policy, scope } = policyOver(['a'], {
      firstChunkMs: 1_000,
      stream: true,
      firstContent: async () => {
        read++;
        return undefined;
      },
    });
    const request = policy.request(1, undefined, {});
    expect(await policy.accept?.(answer, request)).toBeUndefined();
    expect(read).toBe(1);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(request.signal?.aborted).toBe(false);
    scope.dispose();
  });
});

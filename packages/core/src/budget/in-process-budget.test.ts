import { describe, expect, it } from 'vitest';
import { createInProcessBudget, defaultBudget } from './in-process-budget';
import { tryAcquireNow } from './key-budget';

describe('the in-process key budget', () => {
  it('the in-process KeyBudget counts per id and keeps the limit it is asked for', async () => {
    const budget = createInProcessBudget();
    const signal = new AbortController().signal;
    const request = { id: 'a', limit: 2, signal, deadline: Date.now() + 1000 };
    const leases = await Promise.all([budget.acquire(request), budget.acquire(request)]);
    const third = budget.acquire(request);
    const other = await budget.acquire({ ...request, id: 'b' });
    expect(budget.state?.('a')).toEqual({ active: 2, queued: 1 });
    leases[0]!.release();
    leases[0]!.release();
    (await third).release();
    leases[1]!.release();
    other.release();
    expect(budget.state?.('a')).toEqual({ active: 0, queued: 0 });
  });

  it('the default budget is one per realm, kept off enumerable globals', () => {
    expect(defaultBudget()).toBe(defaultBudget());
    expect(Object.keys(globalThis).some((name) => name.includes('infergate'))).toBe(false);
  });

  it("the in-process budget offers it; a budget of the user's own is awaited instead", async () => {
    const budget = createInProcessBudget();
    const releases = [1, 2, 3, 4].map(() => tryAcquireNow(budget, 'k', 4));
    expect(releases.every((release) => typeof release === 'function')).toBe(true);
    expect(tryAcquireNow(budget, 'k', 4)).toBeUndefined();
    expect(budget.state?.('k')).toEqual({ active: 4, queued: 0 });
    for (const release of releases) release?.();
    expect(budget.state?.('k')).toEqual({ active: 0, queued: 0 });
    const own = { acquire: async () => ({ release: () => {} }), tryAcquire: () => () => {} };
    expect(tryAcquireNow(own, 'k', 4)).toBeUndefined();
  });
});

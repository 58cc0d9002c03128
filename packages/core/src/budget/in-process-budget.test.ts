import { describe, expect, it } from 'vitest';
import { createInProcessBudget, defaultBudget, InProcessBudget } from './in-process-budget';
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

describe('idle ids leave the in-process budget (a key per tenant, made per request)', () => {
  const signal = new AbortController().signal;
  const ask = (id: string, aborted = signal) => ({ id, limit: 4, signal: aborted, deadline: 0 });

  it('keeps a semaphore only while a slot of the id is held or waited for: 10,000 ids', async () => {
    const budget = new InProcessBudget();
    for (let i = 0; i < 10_000; i++) {
      const id = `tenant-${i}`;
      const lease = await budget.acquire(ask(id));
      const now = tryAcquireNow(budget, id, 4);
      if (i % 1000 === 0) expect(budget.size).toBe(1);
      lease.release();
      now?.();
    }
    expect(budget.size).toBe(0);
    expect(budget.state('tenant-7')).toEqual({ active: 0, queued: 0 });
  });

  it('forgets an id whose last waiter gave up, and one asked with a signal already aborted', async () => {
    const budget = new InProcessBudget();
    const held = await Promise.all([1, 2, 3, 4].map(() => budget.acquire(ask('busy'))));
    const controller = new AbortController();
    const waiting = budget.acquire(ask('busy', controller.signal));
    expect(budget.state('busy')).toEqual({ active: 4, queued: 1 });
    controller.abort('gave up');
    await expect(waiting).rejects.toBe('gave up');
    for (const lease of held) lease.release();
    expect(budget.size).toBe(0);
    await expect(budget.acquire(ask('late', AbortSignal.abort('late')))).rejects.toBe('late');
    expect(tryAcquireNow(budget, 'none', 0)).toBeUndefined();
    expect(budget.size).toBe(0);
  });

  it('an id that comes back is served first come, first served, at most 4 at once', async () => {
    const budget = new InProcessBudget();
    (await budget.acquire(ask('again'))).release();
    expect(budget.size).toBe(0);
    const order: number[] = [];
    let active = 0;
    let most = 0;
    const calls = Array.from({ length: 10 }, (_, i) =>
      budget.acquire(ask('again')).then(async (lease) => {
        order.push(i);
        most = Math.max(most, ++active);
        await new Promise((resolve) => setTimeout(resolve, 1));
        active--;
        lease.release();
      }),
    );
    expect(budget.state('again')).toEqual({ active: 4, queued: 6 });
    await Promise.all(calls);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(most).toBe(4);
    expect(budget.size).toBe(0);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConcurrencyBudget, sharedBudget } from './concurrency-budget';

describe('ConcurrencyBudget', () => {
  it('grants in FIFO order and never more than the limit', async () => {
    const budget = new ConcurrencyBudget();
    const order: number[] = [];
    const releases = await Promise.all([budget.acquire(2), budget.acquire(2)]);
    const waiting = [0, 1, 2].map((i) =>
      budget.acquire(2).then((release) => {
        order.push(i);
        return release;
      }),
    );
    expect(budget.active).toBe(2);
    expect(budget.queued).toBe(3);
    releases[0]!();
    releases[0]!(); // a second call is harmless
    const first = await waiting[0]!;
    expect(budget.active).toBe(2);
    releases[1]!();
    first();
    const [, second, third] = await Promise.all(waiting);
    expect(order).toEqual([0, 1, 2]);
    second!();
    third!();
    expect(budget.isIdle).toBe(true);
  });

  it('drops an aborted waiter and rejects it with the reason', async () => {
    const budget = new ConcurrencyBudget();
    const release = await budget.acquire(1);
    const controller = new AbortController();
    const queued = budget.acquire(1, controller.signal);
    controller.abort('gone');
    await expect(queued).rejects.toBe('gone');
    expect(budget.queued).toBe(0);
    const idle = budget.whenIdle();
    release();
    await idle;
    expect(budget.isIdle).toBe(true);
  });

  it('shares one budget per base URL and key, without holding the key', () => {
    const a = sharedBudget('https://x/v1', 'key-1');
    expect(sharedBudget('https://x/v1', 'key-1')).toBe(a);
    expect(sharedBudget('https://x/v1', 'key-2')).not.toBe(a);
    expect(sharedBudget('https://y/v1', 'key-1')).not.toBe(a);
    const registry = (globalThis as unknown as Record<symbol, Map<string, unknown>>)[
      Symbol.for('@infergate/core.concurrencyBudgets')
    ];
    expect([...registry!.keys()].join(' ')).not.toContain('key-1');
  });

  it('property: any schedule of acquire / release / abort keeps active ≤ limit and ends idle', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.constantFrom('acquire', 'release', 'abort'), { maxLength: 60 }),
        async (limit, steps) => {
          const budget = new ConcurrencyBudget();
          const held: (() => void)[] = [];
          const controllers: AbortController[] = [];
          const pending: Promise<unknown>[] = [];
          let maxActive = 0;
          for (const step of steps) {
            if (step === 'acquire') {
              const controller = new AbortController();
              controllers.push(controller);
              pending.push(
                budget.acquire(limit, controller.signal).then(
                  (release) => held.push(release),
                  () => {},
                ),
              );
            } else if (step === 'release') {
              held.shift()?.();
            } else {
              controllers.shift()?.abort();
            }
            await Promise.resolve();
            maxActive = Math.max(maxActive, budget.active);
          }
          for (const controller of controllers) controller.abort();
          await Promise.all(pending);
          for (const release of held) release();
          expect(maxActive).toBeLessThanOrEqual(limit);
          expect(budget.isIdle).toBe(true);
        },
      ),
      { seed: 17, numRuns: 200 },
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSemaphore } from './runtime-semaphore';

describe('FifoSemaphore', () => {
  it('grants in FIFO order and never more than the limit', async () => {
    const budget = createSemaphore();
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

  it('serves a waiter that asks to go ahead before the others, in arrival order among such', async () => {
    const budget = createSemaphore();
    const held = await budget.acquire(1);
    const order: string[] = [];
    const take = (name: string, ahead?: boolean) =>
      budget.acquire(1, undefined, ahead).then((release) => {
        order.push(name);
        release();
      });
    const all = [take('plain-1'), take('plain-2'), take('ahead-1', true), take('ahead-2', true)];
    held();
    await Promise.all(all);
    expect(order).toEqual(['ahead-1', 'ahead-2', 'plain-1', 'plain-2']);
    expect(budget.isIdle).toBe(true);
  });

  it('drops an aborted waiter and rejects it with the reason', async () => {
    const budget = createSemaphore();
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

  it('never makes a waiter wait behind one whose lower limit is reached (no head-of-line blocking)', async () => {
    const budget = createSemaphore();
    const held = await budget.acquire(1);
    const small = budget.acquire(1);
    let bigGranted = false;
    const big = budget.acquire(4).then((release) => {
      bigGranted = true;
      return release;
    });
    await Promise.resolve();
    expect(bigGranted).toBe(true);
    expect(budget.queued).toBe(1);
    (await big)();
    held();
    (await small)();
    expect(budget.isIdle).toBe(true);
  });

  it('property: any schedule of acquire / release / abort keeps active ≤ limit and ends idle', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.constantFrom('acquire', 'release', 'abort'), { maxLength: 60 }),
        async (limit, steps) => {
          const budget = createSemaphore();
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

describe("a free slot taken synchronously (the transport's fast path)", () => {
  it('grants while under the limit, then leaves the caller to queue; a release frees it', async () => {
    const slots = createSemaphore({ requestBound: false });
    const first = slots.tryAcquire(2);
    const second = slots.tryAcquire(2);
    expect(first).toBeTypeOf('function');
    expect(second).toBeTypeOf('function');
    expect(slots.tryAcquire(2)).toBeUndefined();
    expect(slots.active).toBe(2);
    // A queued waiter is served by a release, as with `acquire`.
    const waiting = slots.acquire(2);
    first?.();
    first?.(); // idempotent
    (await waiting)();
    second?.();
    expect(slots.isIdle).toBe(true);
  });

  it("is never taken in request-bound mode (a slot there is taken from the waiter's own timer)", () => {
    expect(createSemaphore({ requestBound: true }).tryAcquire(4)).toBeUndefined();
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';

import { REQUEST_BOUND_TIMING, RequestBoundSemaphore } from './request-bound-semaphore';

afterEach(() => {
  // Mocks first: a spy set on a fake timer function would otherwise restore the fake one.
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const { pollMs, heartbeatMs, staleMs } = REQUEST_BOUND_TIMING;

/**
 * Fake timers, with the monotonic clock (`performance.now`, core's seam) started at 1 s: a live
 * isolate's clock has run a while, and a fake one at 0 would hide how the live clock counts its
 * first gaps. `stall` moves that clock ahead while no timer runs (a synchronous task).
 */
function useRunningClock(toFake?: NonNullable<Parameters<typeof vi.useFakeTimers>[0]>['toFake']): {
  stall: (ms: number) => void;
} {
  vi.useFakeTimers(toFake ? { toFake } : undefined);
  const fakeNow = performance.now.bind(performance);
  let ahead = 1_000;
  vi.spyOn(performance, 'now').mockImplementation(() => fakeNow() + ahead);
  return {
    stall: (ms) => {
      ahead += ms;
    },
  };
}

/** Lets every pending promise continuation run (no timer). */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

describe('RequestBoundSemaphore (isolate runtimes)', () => {
  it('a release never settles a waiter: the waiter takes the slot from its own timer', async () => {
    useRunningClock();
    const slots = new RequestBoundSemaphore(undefined);
    const held = await slots.acquire(1);
    let granted = false;
    const waiting = slots.acquire(1).then((release) => {
      granted = true;
      return release;
    });
    held();
    await settle();
    // Not from the releasing call's stack or its microtasks: that would be another request.
    expect(granted).toBe(false);
    await vi.advanceTimersByTimeAsync(pollMs);
    expect(granted).toBe(true);
    (await waiting)();
    expect(slots.isIdle).toBe(true);
  });

  it('serves waiters in arrival order and never more than the limit', async () => {
    useRunningClock();
    const slots = new RequestBoundSemaphore(undefined);
    const held = await Promise.all([slots.acquire(2), slots.acquire(2)]);
    const order: number[] = [];
    const waiting: Promise<() => void>[] = [];
    // Each arrives 3 ms after the one before: after the release below, the later ones check first,
    // so only the line's order (not the timers') can serve the first.
    for (const i of [0, 1, 2]) {
      waiting.push(
        slots.acquire(2).then((release) => {
          order.push(i);
          return release;
        }),
      );
      await vi.advanceTimersByTimeAsync(3);
    }
    expect(slots.queued).toBe(3);
    // At 11 ms: the first waiter checked at 10 ms; the others check next, at 13 and 16 ms.
    await vi.advanceTimersByTimeAsync(2);
    held[0]!();
    await vi.advanceTimersByTimeAsync(pollMs * 3);
    expect(order).toEqual([0]);
    expect(slots.active).toBe(2);
    held[1]!();
    (await waiting[0]!)();
    await vi.advanceTimersByTimeAsync(pollMs * 3);
    expect(order).toEqual([0, 1, 2]);
    for (const release of await Promise.all(waiting)) release();
    expect(slots.isIdle).toBe(true);
  });

  it('serves a waiter that asks to go ahead before the others', async () => {
    useRunningClock();
    const slots = new RequestBoundSemaphore(undefined);
    const held = await slots.acquire(1);
    const order: string[] = [];
    const take = (name: string, ahead?: boolean) =>
      slots.acquire(1, undefined, ahead).then((release) => {
        order.push(name);
        release();
      });
    const all = [take('plain'), take('ahead', true)];
    held();
    await vi.advanceTimersByTimeAsync(pollMs * 4);
    await Promise.all(all);
    expect(order).toEqual(['ahead', 'plain']);
    expect(slots.isIdle).toBe(true);
  });

  it('an aborted waiter leaves the line and is rejected with the reason', async () => {
    useRunningClock();
    const slots = new RequestBoundSemaphore(undefined);
    const held = await slots.acquire(1);
    const controller = new AbortController();
    const waiting = slots.acquire(1, controller.signal);
    controller.abort('gone');
    await expect(waiting).rejects.toBe('gone');
    expect(slots.queued).toBe(0);
    held();
    expect(slots.isIdle).toBe(true);
  });

  it('takes back a slot whose holder stopped showing it is alive (its request ended)', async () => {
    useRunningClock();
    const slots = new RequestBoundSemaphore(undefined);
    // The holder's heartbeat timer never runs, as in a request whose context has ended.
    vi.spyOn(globalThis, 'setInterval').mockImplementationOnce(
      () => 0 as unknown as ReturnType<typeof setInterval>,
    );
    const lost = await slots.acquire(1);
    const alive = await slots.acquire(2);
    let granted = false;
    const waiting = slots.acquire(2).then((release) => {
      granted = true;
      return release;
    });
    await vi.advanceTimersByTimeAsync(staleMs - heartbeatMs);
    expect(granted).toBe(false);
    await vi.advanceTimersByTimeAsync(heartbeatMs + pollMs * 2);
    // The live holder kept its slot; the lost one was taken back.
    expect(granted).toBe(true);
    expect(slots.active).toBe(2);
    lost(); // a late release of a slot taken back changes nothing
    expect(slots.active).toBe(2);
    alive();
    (await waiting)();
    expect(slots.isIdle).toBe(true);
  });

  it('takes a lost slot back on time although the wall clock was stepped back (its clock is monotonic)', async () => {
    useRunningClock();
    const slots = new RequestBoundSemaphore(undefined);
    vi.spyOn(globalThis, 'setInterval').mockImplementationOnce(
      () => 0 as unknown as ReturnType<typeof setInterval>,
    );
    const lost = await slots.acquire(1);
    let granted = false;
    const waiting = slots.acquire(1).then((release) => {
      granted = true;
      return release;
    });
    // Only `Date` moves: timers and performance.now() keep their pace.
    vi.setSystemTime(Date.now() - 60_000);
    await vi.advanceTimersByTimeAsync(staleMs + heartbeatMs + pollMs * 2);
    expect(granted).toBe(true);
    lost();
    (await waiting)();
    expect(slots.isIdle).toBe(true);
  });

  it('passes over a waiter that stopped checking (its request ended) instead of blocking the line', async () => {
    useRunningClock();
    const slots = new RequestBoundSemaphore(undefined);
    const held = await slots.acquire(1);
    // The first waiter's own timer never runs: its request is gone.
    vi.spyOn(globalThis, 'setTimeout').mockImplementationOnce(
      () => 0 as unknown as ReturnType<typeof setTimeout>,
    );
    void slots.acquire(1);
    let granted = false;
    const second = slots.acquire(1).then((release) => {
      granted = true;
      return release;
    });
    held();
    await vi.advanceTimersByTimeAsync(staleMs - pollMs);
    expect(granted).toBe(false);
    await vi.advanceTimersByTimeAsync(pollMs * 3);
    expect(granted).toBe(true);
    (await second)();
    expect(slots.isIdle).toBe(true);
  });
});

describe('RequestBoundSemaphore: when it may be forgotten (onIdle)', () => {
  it('reports idle when its last slot is given back, or taken back from a lost holder', async () => {
    useRunningClock();
    const onIdle = vi.fn();
    const slots = new RequestBoundSemaphore(onIdle);
    const release = await slots.acquire(1);
    expect(onIdle).not.toHaveBeenCalled();
    release();
    expect(onIdle).toHaveBeenCalledTimes(1);
    // A holder whose heartbeat never runs (its request ended): taken back when a reader (the
    // budget's `state`) finds it stale, and then idle.
    vi.spyOn(globalThis, 'setInterval').mockImplementationOnce(
      () => 0 as unknown as ReturnType<typeof setInterval>,
    );
    await slots.acquire(1);
    expect(slots.isForgettable).toBe(false);
    // Each read advances the live clock by at most 2 × heartbeatMs (see `Semaphore`).
    for (let read = 0; read < 8 && !slots.isForgettable; read++) {
      await vi.advanceTimersByTimeAsync(heartbeatMs * 2);
    }
    expect(slots.active).toBe(0);
    expect(onIdle).toHaveBeenCalledTimes(2);
  });

  it('is not forgettable while a waiter passed over as stale may still come back', async () => {
    useRunningClock();
    const onIdle = vi.fn();
    const slots = new RequestBoundSemaphore(onIdle);
    const held = await slots.acquire(1);
    // The first waiter's own timer never runs (its request is busy or gone): it goes stale.
    let checkAgain: (() => void) | undefined;
    vi.spyOn(globalThis, 'setTimeout').mockImplementationOnce((callback) => {
      checkAgain = callback as () => void;
      return 0 as unknown as ReturnType<typeof setTimeout>;
    });
    const stale = slots.acquire(1);
    const live = slots.acquire(1);
    await vi.advanceTimersByTimeAsync(staleMs + pollMs);
    held();
    // The live waiter passes over the stale one and takes the slot, then gives it back.
    await vi.advanceTimersByTimeAsync(pollMs * 2);
    (await live)();
    expect(slots.isIdle).toBe(true);
    expect(slots.isForgettable).toBe(false);
    expect(onIdle).not.toHaveBeenCalled();
    // The stale waiter checks again: back in line, it takes the slot; once given back, idle.
    checkAgain?.();
    (await stale)();
    expect(onIdle).toHaveBeenCalledTimes(1);
    expect(slots.isForgettable).toBe(true);
  });
});

describe('RequestBoundSemaphore after an isolate stall (live holders keep their slots)', () => {
  /**
   * As after a synchronous task, every timer is late when it fires after `stall`. (The waiters'
   * checks, due first, then run before the holders' heartbeats.)
   */
  const isolate = () =>
    useRunningClock(['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance']);
  const pause = (ms: number) => vi.advanceTimersByTimeAsync(ms);

  it('a 2.5 s synchronous stall while 4 hold and 4 wait takes back no live slot', async () => {
    const { stall } = isolate();
    const slots = new RequestBoundSemaphore(undefined);
    const holders = await Promise.all([1, 2, 3, 4].map(() => slots.acquire(4)));
    const granted: number[] = [];
    const waiters = [0, 1, 2, 3].map((i) =>
      slots.acquire(4).then((release) => {
        granted.push(i);
        return release;
      }),
    );
    // The waiters' checks (every 10 ms) are due before the holders' heartbeats (every 250 ms):
    // after the stall one of them runs first.
    stall(staleMs + 500);
    await pause(heartbeatMs * 2);
    expect(granted).toEqual([]);
    expect(slots.active).toBe(4);
    expect(slots.queued).toBe(4);
    for (const release of holders) release();
    await pause(pollMs * 2); // the waiters take the slots from their own checks
    const released = await Promise.all(waiters);
    expect(granted).toEqual([0, 1, 2, 3]);
    expect(slots.active).toBe(4);
    for (const release of released) release();
    expect(slots.isIdle).toBe(true);
  });

  it('still takes back a lost holder’s slot once the isolate has run staleMs without its heartbeat', async () => {
    const { stall } = isolate();
    vi.spyOn(globalThis, 'setInterval').mockImplementationOnce(
      () => 0 as unknown as ReturnType<typeof setInterval>,
    );
    const slots = new RequestBoundSemaphore(undefined);
    await slots.acquire(1); // its request is gone: its heartbeat never runs
    stall(staleMs + 500);
    let granted = false;
    const waiting = slots.acquire(1).then((release) => {
      granted = true;
      return release;
    });
    await pause(heartbeatMs);
    // The stall counted for little: the lost slot is not yet taken back…
    expect(granted).toBe(false);
    // …but it is once the isolate ran for staleMs.
    await pause(staleMs);
    (await waiting)();
    expect(granted).toBe(true);
    expect(slots.isIdle).toBe(true);
  });
});

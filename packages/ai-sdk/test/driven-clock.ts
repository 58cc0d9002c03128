import { drivenClock } from '@infergate/emulator/testing';
import { afterEach, beforeAll, vi } from 'vitest';

/**
 * For a test file whose tests move the clock (a stall limit is the subject): `warm` runs first, on
 * real timers (core loads its steering on first use, and a module load under vitest waits on
 * timers), and a test's fake timers are undone after it. Returns the kit's `drive`: it fakes
 * timers, `performance.now()` (core's monotonic clock) and `Date` (the emulator's delays).
 */
export function warmedDrivenClock(warm: () => PromiseLike<unknown>): () => void {
  beforeAll(async () => {
    await warm();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  return drivenClock(vi).drive;
}

/**
 * On a driven clock, for a wait the test does not time (`ai`'s retry backoff, a batch's): moves the
 * clock `stepMs` at a time, with a real turn after each (the emulator answers, the client reads),
 * until `done`; a hang fails once the clock moved `limitMs`. One long move would fire a wait's
 * timer without the turns its requests need to reach the emulator, so a send would seem to come
 * later than it did.
 */
export async function stepUntil(done: () => boolean, stepMs = 1, limitMs = 1_000): Promise<void> {
  for (let moved = 0; !done(); moved += stepMs) {
    if (moved > limitMs) throw new Error(`not done after the clock moved ${limitMs} ms`);
    await vi.advanceTimersByTimeAsync(stepMs);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** What `call` settles to, the driven clock stepped 10 ms at a time until then (`stepUntil`). */
export async function settledOnSteps<T>(call: Promise<T>, limitMs = 5_000): Promise<T> {
  let settled = false;
  const watched = call.finally(() => {
    settled = true;
  });
  // (Seen settled or failed below; not an unhandled rejection meanwhile.)
  watched.catch(() => undefined);
  await stepUntil(() => settled, 10, limitMs);
  return watched;
}

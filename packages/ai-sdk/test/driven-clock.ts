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

import { vi } from 'vitest';

/**
 * For embedMany tests on a driven clock (`drivenClock(vi).drive()`), whose waits are `ai`'s and the
 * batch's retry delays: moves the clock `stepMs` at a time, with a real turn after each (the
 * emulator answers, the client reads), until `done`; a hang fails once the clock moved `limitMs`.
 * One long move would fire a wait's timer without the turns its requests need to reach the
 * emulator, so a send would seem to come later than it did.
 */
export async function stepUntil(done: () => boolean, stepMs = 1, limitMs = 1_000): Promise<void> {
  for (let moved = 0; !done(); moved += stepMs) {
    if (moved > limitMs) throw new Error(`not done after the clock moved ${limitMs} ms`);
    await vi.advanceTimersByTimeAsync(stepMs);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

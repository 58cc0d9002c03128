import { afterEach, describe, expect, it, vi } from 'vitest';
import { drivenClock } from './driven-clock';

const clock = drivenClock(vi);
const after = (ms: number) => new Promise<number>((resolve) => setTimeout(() => resolve(ms), ms));

afterEach(() => {
  vi.useRealTimers();
});

describe('drivenClock', () => {
  it('moves the faked timers, performance.now() and Date by the given time', async () => {
    clock.drive();
    const date = Date.now();
    const now = performance.now();
    await expect(clock.settledAfter(60_000, after(60_000))).resolves.toBe(60_000);
    expect(Date.now() - date).toBe(60_000);
    expect(performance.now() - now).toBe(60_000);
  });

  it('fails at once on a promise still pending once the clock moved', async () => {
    clock.drive();
    const late = after(1000);
    await expect(clock.settledAfter(999, late)).rejects.toThrow(
      'still pending after the clock moved 999 ms',
    );
    await expect(clock.settledAfter(1, late)).resolves.toBe(1000);
  });
});

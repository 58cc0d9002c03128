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

describe('drivenClock stepping', () => {
  it('steps the clock until done, a real turn after each step', async () => {
    clock.drive();
    let fired = 0;
    for (const ms of [5, 10, 15]) setTimeout(() => fired++, ms);
    const start = Date.now();
    await clock.stepUntil(() => fired === 3, 5);
    expect(Date.now() - start).toBe(15);
  });

  it('fails a wait that is never done once the clock moved the limit', async () => {
    clock.drive();
    await expect(clock.stepUntil(() => false, 10, 100)).rejects.toThrow(
      'not done after the clock moved 100 ms',
    );
  });

  it('steps up to the limit when the step does not divide it, never past it', async () => {
    clock.drive();
    let fired = false;
    setTimeout(() => {
      fired = true;
    }, 1000);
    const start = Date.now();
    await clock.stepUntil(() => fired, 300, 1000);
    expect(Date.now() - start).toBe(1000);
    await expect(clock.settledOnSteps(after(2505), 2505)).resolves.toBe(2505);
    const moved = Date.now();
    await expect(clock.stepUntil(() => false, 300, 1000)).rejects.toThrow(
      'not done after the clock moved 1000 ms',
    );
    expect(Date.now() - moved).toBe(1000);
  });

  it('gives what a promise settles to on 10 ms steps, its failure too', async () => {
    clock.drive();
    await expect(clock.settledOnSteps(after(250))).resolves.toBe(250);
    const failing = after(30).then(() => Promise.reject(new Error('late failure')));
    await expect(clock.settledOnSteps(failing)).rejects.toThrow('late failure');
    await expect(clock.settledOnSteps(after(60_000), 1_000)).rejects.toThrow(
      'not done after the clock moved 1000 ms',
    );
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { StallTimer, stallError } from './stall-timer';

afterEach(() => {
  vi.useRealTimers();
});

describe('StallTimer', () => {
  it('fires after limitMs of silence, counted from the last start', () => {
    vi.useFakeTimers();
    const stalls: number[] = [];
    const timer = new StallTimer(100, (waited) => stalls.push(waited));
    timer.start();
    vi.advanceTimersByTime(60);
    timer.start();
    vi.advanceTimersByTime(60);
    expect(stalls).toEqual([]);
    vi.advanceTimersByTime(40);
    expect(stalls).toHaveLength(1);
    expect(stalls[0]).toBeGreaterThanOrEqual(100);
  });

  it('does not fire once stopped', () => {
    vi.useFakeTimers();
    const onStall = vi.fn();
    const timer = new StallTimer(100, onStall);
    timer.start();
    timer.stop();
    vi.advanceTimersByTime(1_000);
    expect(onStall).not.toHaveBeenCalled();
  });
});

describe('stallError', () => {
  it('is a timeout naming the phase, the wait and the limit; retryable only before the first chunk', () => {
    const first = stallError('first-chunk', 120, 100, { requestedModel: 'm' });
    expect(first).toMatchObject({
      code: 'timeout',
      stall: { phase: 'first-chunk', waitedMs: 120, limitMs: 100 },
      requestedModel: 'm',
      isRetryable: true,
    });
    expect(first.message).toContain('firstChunkTimeoutMs (100 ms)');
    const between = stallError('between-chunks', 300, 250, {
      requestedModel: 'a',
      servedModel: 'b',
    });
    expect(between.isRetryable).toBe(false);
    expect(between.message).toContain('chunkTimeoutMs (250 ms)');
    expect(between.message).toContain('"b"');
    expect(between.toJSON().stall).toEqual({
      phase: 'between-chunks',
      waitedMs: 300,
      limitMs: 250,
    });
  });
});

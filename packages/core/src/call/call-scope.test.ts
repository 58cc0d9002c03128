import { afterEach, describe, expect, it, vi } from 'vitest';
import { CallScope, deadlineTimerHoldsProcess, scopeOf } from './call-scope';
import { withDeadlineStarted } from './deadline-start';

afterEach(() => {
  vi.useRealTimers();
});

describe('CallScope deadlines (one shared timer)', () => {
  it('times out each call at its own deadline, whatever the order they began in', async () => {
    vi.useFakeTimers();
    const late = new CallScope(undefined, 300);
    const early = new CallScope(undefined, 100);
    const middle = new CallScope(undefined, 200);
    const timedOut: string[] = [];
    // Elapsed fake time, not `Date.now() % 1000`: that wrapped past 999 and failed at random.
    const start = Date.now();
    for (const [name, scope] of Object.entries({ late, early, middle })) {
      scope.signal.addEventListener('abort', () => timedOut.push(`${name}@${Date.now() - start}`));
    }
    await vi.advanceTimersByTimeAsync(99);
    expect(timedOut).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(timedOut).toEqual(['early@100']);
    await vi.advanceTimersByTimeAsync(200);
    expect(timedOut).toEqual(['early@100', 'middle@200', 'late@300']);
    expect(late.error().code).toBe('timeout');
    expect(late.error().message).toContain('300 ms');
    for (const scope of [late, early, middle]) scope.dispose();
  });

  it('a disposed call never times out; the others still do', async () => {
    vi.useFakeTimers();
    const first = new CallScope(undefined, 100);
    const second = new CallScope(undefined, 150);
    first.dispose();
    await vi.advanceTimersByTimeAsync(120);
    expect(first.aborted).toBe(false);
    expect(second.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(30);
    expect(second.aborted).toBe(true);
    second.dispose();
  });

  it('times calls on the monotonic clock: steps of the wall clock move no deadline', async () => {
    vi.useFakeTimers();
    const short = new CallScope(undefined, 500);
    const long = new CallScope(undefined, 30_000);
    // `setSystemTime` moves `Date` only (an NTP step); timers and performance.now() keep their pace.
    vi.setSystemTime(Date.now() - 60_000);
    await vi.advanceTimersByTimeAsync(500);
    expect([short.aborted, long.aborted]).toEqual([true, false]);
    vi.setSystemTime(Date.now() + 120_000);
    await vi.advanceTimersByTimeAsync(1000);
    expect(long.aborted).toBe(false);
    expect(long.remainingMs).toBe(28_500);
    await vi.advanceTimersByTimeAsync(28_500);
    expect(long.error().code).toBe('timeout');
    for (const scope of [short, long]) scope.dispose();
  });

  it('holds the process open only while a call is pending', () => {
    vi.useFakeTimers();
    const first = new CallScope(undefined, 100);
    expect(deadlineTimerHoldsProcess()).toBe(true);
    const second = new CallScope(undefined, 5000);
    first.dispose();
    expect(deadlineTimerHoldsProcess()).toBe(true);
    second.dispose();
    expect(deadlineTimerHoldsProcess()).toBe(false);
    const third = new CallScope(undefined, 10_000);
    expect(deadlineTimerHoldsProcess()).toBe(true);
    third.dispose();
    expect(deadlineTimerHoldsProcess()).toBe(false);
  });
});

describe('CallScope deadlines (per-call timers, for isolate runtimes)', () => {
  it('each call arms its own timer, fired at its deadline; dispose clears it', async () => {
    vi.useFakeTimers();
    const early = new CallScope(undefined, 100, true);
    const late = new CallScope(undefined, 200, true);
    const gone = new CallScope(undefined, 50, true);
    gone.dispose();
    expect(vi.getTimerCount()).toBe(2);
    await vi.advanceTimersByTimeAsync(100);
    expect([early.aborted, late.aborted, gone.aborted]).toEqual([true, false, false]);
    await vi.advanceTimersByTimeAsync(100);
    expect(late.error().code).toBe('timeout');
    early.dispose();
    late.dispose();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('a deadline started before the call (withDeadlineStarted)', () => {
  it('counts from its start, and a timeout names its whole length', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const started = withDeadlineStarted({ timeoutMs: 1000 });
    await vi.advanceTimersByTimeAsync(700);
    const scope = scopeOf(started, 300_000);
    expect(scope.remainingMs).toBe(300);
    await vi.advanceTimersByTimeAsync(299);
    expect(scope.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(scope.error()).toMatchObject({ code: 'timeout' });
    expect(scope.error().message).toContain('within its deadline of 1000 ms');
    scope.dispose();
  });

  it("without timeoutMs the client's default counts once, from the start", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const started = withDeadlineStarted({});
    await vi.advanceTimersByTimeAsync(400);
    const scope = scopeOf(started, 1000);
    expect(scope.remainingMs).toBe(600);
    scope.dispose();
  });

  it('a start whose deadline has passed ends the scope at once, as a timeout', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const started = withDeadlineStarted({ timeoutMs: 500 });
    await vi.advanceTimersByTimeAsync(500);
    for (const perCall of [false, true]) {
      const scope = perCall
        ? new CallScope(undefined, 500, true, undefined, performance.now() - 500)
        : scopeOf(started, 300_000);
      // (No timer needed: ended before anything is queued or sent.)
      expect(scope.signal.aborted).toBe(true);
      expect(scope.error().message).toContain('within its deadline of 500 ms');
      scope.dispose();
    }
  });

  it('a per-call timer fires at the started deadline, not a whole length later', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const startedAt = performance.now();
    await vi.advanceTimersByTimeAsync(700);
    const scope = new CallScope(undefined, 1000, true, undefined, startedAt);
    await vi.advanceTimersByTimeAsync(300);
    expect(scope.aborted).toBe(true);
    scope.dispose();
  });

  it('scopes without a start count from now; a malformed start is refused', () => {
    // Fake timers stop the monotonic clock: on a loaded machine real time passed between the two
    // lines and `> 999` failed now and then.
    vi.useFakeTimers();
    const scope = scopeOf({ timeoutMs: 1000 }, 300_000);
    expect(scope.remainingMs).toBe(1000);
    scope.dispose();
    const started = withDeadlineStarted({});
    const [mark] = Object.getOwnPropertySymbols(started);
    for (const bad of ['0', Number.NaN, -1, performance.now() + 60_000]) {
      const options = { ...started, [mark as symbol]: bad };
      expect(() => scopeOf(options, 1000)).toThrow(
        expect.objectContaining({ code: 'invalid_request_error', field: 'deadline start' }),
      );
    }
  });
});

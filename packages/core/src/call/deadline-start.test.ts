import { afterEach, describe, expect, it, vi } from 'vitest';
import { scopeOf } from './call-scope';
import { deadlineStartOf, withDeadlineStarted } from './deadline-start';

afterEach(() => {
  vi.useRealTimers();
});

describe('a deadline started by another copy of core', () => {
  it('is read from a start made by another instance of the module', async () => {
    vi.resetModules();
    const other = await import('./deadline-start');
    expect(other.withDeadlineStarted).not.toBe(withDeadlineStarted);
    const started = other.withDeadlineStarted({ timeoutMs: 1000 });
    expect(deadlineStartOf(started)).toBe(other.deadlineStartOf(started));
    expect(deadlineStartOf(started)).toBeTypeOf('number');
  });

  it("is honoured by this copy's call scope, the key made by Symbol.for", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const options = {
      timeoutMs: 1000,
      [Symbol.for('@infergate/core.deadlineStart')]: performance.now(),
    };
    await vi.advanceTimersByTimeAsync(700);
    const scope = scopeOf(options, 300_000);
    expect(scope.remainingMs).toBe(300);
    scope.dispose();
  });
});

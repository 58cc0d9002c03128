// docs/gateway-protocol.md §4.7 (stall limits, hedges and deadlines: the waits a test drives).

/** The timers a driven clock fakes: core's timers, its monotonic clock, and the emulator's `Date`. */
const DRIVEN = ['setTimeout', 'clearTimeout', 'performance', 'Date'] as const;

/**
 * What a driven clock needs of a test framework's fake timers: vitest's `vi` is one. The kit takes
 * it as an argument, so it imports no test framework itself.
 */
export interface FakeTimers {
  useFakeTimers(config: { toFake: (typeof DRIVEN)[number][] }): unknown;
  advanceTimersByTimeAsync(ms: number): Promise<unknown>;
}

export interface DrivenClock {
  /**
   * Fakes `setTimeout`, `performance.now()` and `Date` (the emulator's delays are timers that it
   * checks against `Date.now()`): from now on only `settledAfter` moves the clock. Undo with the
   * framework's own (`vi.useRealTimers()`).
   */
  drive(): void;
  /**
   * Moves the driven clock by `ms` (timers fire in order, the work between them runs), lets one
   * real turn of the event loop run (an aborted fetch rejects on it), and returns what `promise`
   * settled to; rejects at once when it has not settled by then, so a hang is a quick failure
   * naming the wait, not the suite's timeout.
   */
  settledAfter<T>(ms: number, promise: Promise<T>): Promise<T>;
}

/** Node's own `setImmediate`, taken when the kit loads, before a test fakes timers. */
const realTurn = globalThis.setImmediate;

/** A clock a test moves itself, on `timers` (vitest: `drivenClock(vi)`). */
export function drivenClock(timers: FakeTimers): DrivenClock {
  return {
    drive: () => {
      timers.useFakeTimers({ toFake: [...DRIVEN] });
    },
    settledAfter: async (ms, promise) => {
      let settled = false;
      const watched = promise.finally(() => {
        settled = true;
      });
      await timers.advanceTimersByTimeAsync(ms);
      await new Promise((resolve) => realTurn(resolve));
      if (!settled) throw new Error(`still pending after the clock moved ${ms} ms`);
      return watched;
    },
  };
}

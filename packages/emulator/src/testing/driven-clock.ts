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
  /**
   * For a wait the test does not time (a retry's backoff, a batch's): moves the clock `stepMs` at a
   * time, with a real turn after each (the emulator answers, the client reads), until `done`; a
   * hang fails once the clock moved `limitMs`. One long move would fire a wait's timer before the
   * requests it races reach the emulator, so a send would seem to come later than it did.
   */
  stepUntil(done: () => boolean, stepMs?: number, limitMs?: number): Promise<void>;
  /** What `promise` settles to, the clock stepped 10 ms at a time until then (`stepUntil`). */
  settledOnSteps<T>(promise: Promise<T>, limitMs?: number): Promise<T>;
}

/** Node's own `setImmediate`, taken when the kit loads, before a test fakes timers. */
const realTurn = globalThis.setImmediate;

/**
 * Resolves after one real turn of the event loop (what was ready, a read already answered, has
 * run by then), whatever timers a test faked since the kit loaded.
 */
export function oneRealTurn(): Promise<void> {
  return new Promise((resolve) => realTurn(() => resolve()));
}

/** A clock a test moves itself, on `timers` (vitest: `drivenClock(vi)`). */
export function drivenClock(timers: FakeTimers): DrivenClock {
  const stepUntil = async (done: () => boolean, stepMs = 1, limitMs = 1_000) => {
    for (let moved = 0; !done(); ) {
      if (moved >= limitMs) throw new Error(`not done after the clock moved ${limitMs} ms`);
      // (The last step shorter: never past the limit, and up to it when stepMs does not divide it.)
      const step = Math.min(stepMs, limitMs - moved);
      await timers.advanceTimersByTimeAsync(step);
      moved += step;
      await new Promise((resolve) => realTurn(resolve));
    }
  };
  return {
    stepUntil,
    settledOnSteps: async (promise, limitMs = 5_000) => {
      let settled = false;
      const watched = promise.finally(() => {
        settled = true;
      });
      // (Seen settled or failed below; not an unhandled rejection meanwhile.)
      watched.catch(() => undefined);
      await stepUntil(() => settled, 10, limitMs);
      return watched;
    },
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

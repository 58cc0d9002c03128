// docs/gateway-protocol.md §2.5 (4 requests at once per key, a slot held until the answer ends).
import { monotonicNow } from '../call/monotonic-clock';
import type { ReleaseSlot } from './key-budget';
import { type Semaphore, type Waiter, WaiterLine } from './semaphore';

/**
 * How often a waiter checks for a free slot from its own timer, how often a holder shows it is
 * alive, and after how long without a sign of life a waiter or a holder counts as gone (its
 * request's context ended). Read at each use, not copied: the runtime matrix (test/runtimes) lowers
 * them through `@infergate/core/internal`, keeping their ratios, so that its abandoned streams are
 * taken back in a fraction of the 2 s; apps never change them.
 */
export const REQUEST_BOUND_TIMING: { pollMs: number; heartbeatMs: number; staleMs: number } = {
  pollMs: 10,
  heartbeatMs: 250,
  staleMs: 2_000,
};

/**
 * The most a gap between two runs of the budget's timers counts on its live clock. Someone's timer
 * runs at least every `heartbeatMs` while a slot is held; a longer gap means the isolate itself was
 * stalled (a long synchronous task), and then no holder could show it was alive either.
 */
const maxLiveGapMs = (): number => 2 * REQUEST_BOUND_TIMING.heartbeatMs;

/** A slot held; `beatAt` (live clock) is renewed by its request's timer. */
interface Lease {
  beatAt: number;
  reclaimed: boolean;
}

/** A waiter of this line: when it last checked (live clock), and whether it was passed over. */
interface CheckingWaiter extends Waiter {
  seenAt: number;
  passedOver: boolean;
}

/** Runs a timer call that may belong to another request's context (workerd refuses some). */
function quietly(action: () => void): void {
  try {
    action();
  } catch {
    // The timer belonged to a request that has ended: nothing is left to stop.
  }
}

/**
 * The semaphore of isolate runtimes (Cloudflare's workerd, Vercel's edge runtime: promises, timers
 * and I/O belong to the request that created them), where no call may settle another call's promise:
 * - a release only frees the slot; each waiter takes it from a timer of its own (every `pollMs`),
 *   so it wakes in its own request's context. (A promise settled from another request makes workerd
 *   warn, and its continuation is cancelled once the waiting request has ended; a request whose only
 *   pending work is a promise another request must settle is cancelled as hung.)
 * - a holder renews a heartbeat from a timer of its own; a slot whose heartbeat stopped for
 *   `staleMs` is taken back. When a request's context ends (its response was sent, its client went
 *   away) its pending reads never complete, so the release that would follow them never runs.
 *   Heartbeats are judged by what a holder could have done: a long synchronous task stalls every
 *   timer of the isolate, and counts for at most `2 × heartbeatMs` (see `#live`), so whichever
 *   timer runs first after it never takes back the slots of live holders.
 * - a waiter that stopped checking for `staleMs` is passed over (its request is gone).
 */
export class RequestBoundSemaphore extends WaiterLine implements Semaphore {
  readonly #leases = new Set<Lease>();
  /**
   * Time during which the isolate ran (ms). Heartbeats and checks are judged on it, not on the wall
   * clock: it advances by the gap between two runs of the budget's timers, but by at most
   * `maxLiveGapMs()`, so a stall — during which no holder could have renewed its heartbeat — never
   * makes live slots stale.
   */
  #live = 0;
  /** Monotonic time (call/monotonic-clock.ts) the live clock was last read. */
  #liveReadAt = 0;
  /**
   * Waiters passed over as stale whose promise is still pending. One may yet put itself back in
   * line (see `check`), so the semaphore is not idle for `onIdle` while any is.
   */
  #passedOver = 0;

  get active(): number {
    this.#reclaimStale(this.#liveNow());
    return this.activeCount;
  }
  get isIdle(): boolean {
    return this.active === 0 && this.line.length === 0;
  }
  get isForgettable(): boolean {
    return this.isIdle && this.#passedOver === 0;
  }
  protected override get canForget(): boolean {
    return this.#passedOver === 0;
  }

  /** Never: a slot is taken from the waiter's own timer. */
  tryAcquire(): undefined {
    return undefined;
  }

  acquire(limit: number, signal?: AbortSignal, ahead = false): Promise<ReleaseSlot> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<ReleaseSlot>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const leave = () => {
        if (timer !== undefined) quietly(() => clearTimeout(timer));
        if (signal && waiter.onAbort) signal.removeEventListener('abort', waiter.onAbort);
        const index = this.line.indexOf(waiter);
        if (index !== -1) this.line.splice(index, 1);
        this.#comeBack(waiter);
      };
      const waiter = this.enqueue(limit, signal, ahead, resolve, reject, () => {
        leave();
        this.notifyIdle();
      }) as CheckingWaiter;
      waiter.seenAt = this.#liveNow();
      waiter.passedOver = false;
      // Runs in this call's own context: synchronously now, then from its own timer.
      const check = () => {
        timer = undefined;
        const at = this.#liveNow();
        waiter.seenAt = at;
        // Passed over while it could not check (its request was busy): back in its place.
        if (!this.line.includes(waiter)) {
          this.#comeBack(waiter);
          this.insertInOrder(waiter);
        }
        if (this.#firstEligible(at) === waiter) {
          leave();
          resolve(this.#leaseReleaser());
          this.notifyIdle();
          return;
        }
        timer = setTimeout(check, REQUEST_BOUND_TIMING.pollMs);
      };
      check();
    });
  }

  /** A waiter passed over is back (or gone for good): it no longer keeps the line from idling. */
  #comeBack(waiter: CheckingWaiter): void {
    if (!waiter.passedOver) return;
    waiter.passedOver = false;
    this.#passedOver--;
  }

  /** The live clock now (see `#live`). */
  #liveNow(): number {
    const now = monotonicNow();
    if (this.#liveReadAt !== 0 && now > this.#liveReadAt) {
      this.#live += Math.min(now - this.#liveReadAt, maxLiveGapMs());
    }
    if (now > this.#liveReadAt) this.#liveReadAt = now;
    return this.#live;
  }

  /** The waiter that may take a slot now: the first live one in line whose limit is not reached. */
  #firstEligible(now: number): Waiter | undefined {
    this.#reclaimStale(now);
    const staleBefore = now - REQUEST_BOUND_TIMING.staleMs;
    for (let i = 0; i < this.line.length; ) {
      const waiter = this.line[i] as CheckingWaiter;
      if (waiter.seenAt < staleBefore) {
        // Its request's context is gone (or it will put itself back when it checks again).
        this.line.splice(i, 1);
        waiter.passedOver = true;
        this.#passedOver++;
        continue;
      }
      if (this.activeCount < waiter.limit) return waiter;
      i++;
    }
    return undefined;
  }

  /** Takes back the slots whose holders stopped renewing their heartbeat (`now`: live clock). */
  #reclaimStale(now: number): void {
    const staleBefore = now - REQUEST_BOUND_TIMING.staleMs;
    let reclaimed = false;
    for (const lease of this.#leases) {
      if (lease.beatAt >= staleBefore) continue;
      lease.reclaimed = true;
      this.#leases.delete(lease);
      this.activeCount--;
      reclaimed = true;
    }
    if (reclaimed) this.notifyIdle();
  }

  /** Takes a slot for the calling request, alive as long as that request's heartbeat runs. */
  #leaseReleaser(): ReleaseSlot {
    this.activeCount++;
    const lease: Lease = { beatAt: this.#liveNow(), reclaimed: false };
    this.#leases.add(lease);
    const heartbeat = setInterval(() => {
      lease.beatAt = this.#liveNow();
    }, REQUEST_BOUND_TIMING.heartbeatMs);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      quietly(() => clearInterval(heartbeat));
      if (lease.reclaimed) return;
      this.#leases.delete(lease);
      this.activeCount--;
      this.notifyIdle();
    };
  }
}

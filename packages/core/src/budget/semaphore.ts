// docs/gateway-protocol.md §2.5 (4 requests at once per key, a slot held until the answer ends).
import { REQUEST_BOUND_IO } from '../call/call-scope';
import { monotonicNow } from '../call/monotonic-clock';
import type { ReleaseSlot } from './key-budget';

interface Waiter {
  limit: number;
  grant: (release: ReleaseSlot) => void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
  /** Request-bound mode: arrival order, and when the waiter last checked (on the live clock). */
  seq: number;
  seenAt: number;
  /** Request-bound mode: taken out of line as stale, and not back yet. */
  passedOver: boolean;
}

/**
 * Request-bound mode (isolate runtimes, see `REQUEST_BOUND_IO`): how often a waiter checks for a
 * free slot from its own timer, how often a holder shows it is alive, and after how long without a
 * sign of life a waiter or a holder counts as gone (its request's context ended).
 */
export const REQUEST_BOUND_TIMING = { pollMs: 10, heartbeatMs: 250, staleMs: 2_000 } as const;

/**
 * The most a gap between two runs of the budget's timers counts on its live clock. Someone's timer
 * runs at least every `heartbeatMs` while a slot is held; a longer gap means the isolate itself was
 * stalled (a long synchronous task), and then no holder could show it was alive either.
 */
const MAX_LIVE_GAP_MS = 2 * REQUEST_BOUND_TIMING.heartbeatMs;

/** A slot held in request-bound mode; `beatAt` (live clock) is renewed by its request's timer. */
interface Lease {
  beatAt: number;
  reclaimed: boolean;
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
 * A counting semaphore whose callers each pass their limit: a slot is granted while fewer than
 * that many are held. Waiters are served in arrival order, but a waiter whose limit is reached
 * never blocks a later one whose limit is not (no head-of-line blocking across limits).
 *
 * In request-bound mode (Cloudflare's workerd, Vercel's edge runtime: promises, timers and I/O
 * belong to the request that created them) no call ever settles another call's promise:
 * - a release only frees the slot; each waiter takes it from a timer of its own (every
 *   `pollMs`), so it wakes in its own request's context. (A promise settled from another request
 *   makes workerd warn, and its continuation is cancelled once the waiting request has ended; a
 *   request whose only pending work is a promise another request must settle is cancelled as
 *   hung.)
 * - a holder renews a heartbeat from a timer of its own; a slot whose heartbeat stopped for
 *   `staleMs` is taken back. When a request's context ends (its response was sent, its client went
 *   away) its pending reads never complete, so the release that would follow them never runs.
 *   Heartbeats are judged by what a holder could have done: a long synchronous task stalls every
 *   timer of the isolate, and counts for at most `2 × heartbeatMs` (see `#live`), so whichever
 *   timer runs first after it never takes back the slots of live holders.
 * - a waiter that stopped checking for `staleMs` is passed over (its request is gone).
 */
export class Semaphore {
  #active = 0;
  readonly #queue: Waiter[] = [];
  readonly #idleWaiters: (() => void)[] = [];
  readonly #requestBound: boolean;
  readonly #leases = new Set<Lease>();
  #seq = 0;
  /** Arrival order of the waiters that join ahead (`acquire`'s `ahead`): before every other one. */
  #aheadSeq = Number.MIN_SAFE_INTEGER;
  /**
   * Request-bound mode: time during which the isolate ran (ms). Heartbeats and checks are judged on
   * it, not on the wall clock: it advances by the gap between two runs of the budget's timers, but
   * by at most `MAX_LIVE_GAP_MS`, so a stall — during which no holder could have renewed its
   * heartbeat — never makes live slots stale.
   */
  #live = 0;
  /** Monotonic time (call/monotonic-clock.ts) the live clock was last read. */
  #liveReadAt = 0;
  /**
   * Request-bound mode: waiters passed over as stale whose promise is still pending. One may yet
   * put itself back in line (see `check`), so the semaphore is not idle for `onIdle` while any is.
   */
  #passedOver = 0;
  readonly #onIdle: (() => void) | undefined;

  /**
   * `onIdle`: called each time the semaphore becomes idle (nothing held, nobody waiting), e.g. for
   * its owner to forget it (`InProcessBudget`).
   */
  constructor(options: { requestBound?: boolean; onIdle?: () => void } = {}) {
    this.#requestBound = options.requestBound ?? REQUEST_BOUND_IO;
    this.#onIdle = options.onIdle;
  }

  get active(): number {
    if (this.#requestBound) this.#reclaimStale(this.#liveNow());
    return this.#active;
  }
  get queued(): number {
    return this.#queue.length;
  }
  get isIdle(): boolean {
    return this.active === 0 && this.#queue.length === 0;
  }

  /** Idle, and no waiter passed over could come back (what `onIdle` reports). */
  get isForgettable(): boolean {
    return this.isIdle && this.#passedOver === 0;
  }

  /**
   * Resolves once a slot is free; rejects with the signal's reason when aborted while queued.
   * `ahead`: waits before every waiter that did not ask for it (in arrival order among those that
   * did): a call that gave its slot back only to move to another model keeps its turn.
   */
  acquire(limit: number, signal?: AbortSignal, ahead = false): Promise<ReleaseSlot> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#requestBound) return this.#acquireInOwnContext(limit, signal, ahead);
    // (Every queued waiter has reached its limit: the drain grants any other at once.)
    if (this.#active < limit) {
      this.#active++;
      return Promise.resolve(this.#releaser());
    }
    return new Promise<ReleaseSlot>((resolve, reject) => {
      const waiter = this.#enqueue(limit, signal, ahead, resolve, reject, () => {
        const index = this.#queue.indexOf(waiter);
        if (index !== -1) this.#queue.splice(index, 1);
        // A waiter that leaves may have been the one a later waiter queued behind.
        this.#drain();
      });
    });
  }

  /**
   * A slot now, when `acquire` would grant one at once, else undefined (never in request-bound
   * mode, whose slots are taken from the waiter's own timer). Saves a free slot's promise.
   */
  tryAcquire(limit: number): ReleaseSlot | undefined {
    if (this.#requestBound || this.#active >= limit) return undefined;
    this.#active++;
    return this.#releaser();
  }

  /** Resolves when nothing is running or queued (for tests and graceful shutdown). */
  whenIdle(): Promise<void> {
    if (this.isIdle) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /**
   * Queues a waiter for `limit` (both modes build theirs here). If its signal aborts first, `leave`
   * takes it out of line, then it is rejected with the signal's reason.
   */
  #enqueue(
    limit: number,
    signal: AbortSignal | undefined,
    ahead: boolean,
    grant: (release: ReleaseSlot) => void,
    reject: (reason: unknown) => void,
    leave: () => void,
  ): Waiter {
    const waiter: Waiter = {
      limit,
      grant,
      signal,
      onAbort: undefined,
      seq: ahead ? this.#aheadSeq++ : this.#seq++,
      seenAt: this.#requestBound ? this.#liveNow() : 0,
      passedOver: false,
    };
    if (signal) {
      waiter.onAbort = () => {
        leave();
        reject(signal.reason);
      };
      signal.addEventListener('abort', waiter.onAbort, { once: true });
    }
    if (ahead) this.#insertInOrder(waiter);
    else this.#queue.push(waiter);
    return waiter;
  }

  #releaser(): ReleaseSlot {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#active--;
      this.#drain();
    };
  }

  #drain(): void {
    for (let i = 0; i < this.#queue.length; ) {
      const waiter = this.#queue[i]!;
      if (this.#active >= waiter.limit) {
        i++;
        continue;
      }
      this.#queue.splice(i, 1);
      if (waiter.signal && waiter.onAbort) {
        waiter.signal.removeEventListener('abort', waiter.onAbort);
      }
      this.#active++;
      waiter.grant(this.#releaser());
    }
    this.#notifyIdle();
  }

  #notifyIdle(): void {
    if (this.#active === 0 && this.#queue.length === 0) {
      for (const resolve of this.#idleWaiters.splice(0)) resolve();
      if (this.#passedOver === 0) this.#onIdle?.();
    }
  }

  // --- request-bound mode -----------------------------------------------------------------

  /** The live clock now (see `#live`). */
  #liveNow(): number {
    const now = monotonicNow();
    if (this.#liveReadAt !== 0 && now > this.#liveReadAt) {
      this.#live += Math.min(now - this.#liveReadAt, MAX_LIVE_GAP_MS);
    }
    if (now > this.#liveReadAt) this.#liveReadAt = now;
    return this.#live;
  }

  #acquireInOwnContext(
    limit: number,
    signal: AbortSignal | undefined,
    ahead: boolean,
  ): Promise<ReleaseSlot> {
    return new Promise<ReleaseSlot>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const leave = () => {
        if (timer !== undefined) quietly(() => clearTimeout(timer));
        if (signal && waiter.onAbort) signal.removeEventListener('abort', waiter.onAbort);
        const index = this.#queue.indexOf(waiter);
        if (index !== -1) this.#queue.splice(index, 1);
        if (waiter.passedOver) {
          waiter.passedOver = false;
          this.#passedOver--;
        }
      };
      const waiter = this.#enqueue(limit, signal, ahead, resolve, reject, () => {
        leave();
        this.#notifyIdle();
      });
      // Runs in this call's own context: synchronously now, then from its own timer.
      const check = () => {
        timer = undefined;
        const at = this.#liveNow();
        waiter.seenAt = at;
        // Passed over while it could not check (its request was busy): back in its place.
        if (!this.#queue.includes(waiter)) {
          if (waiter.passedOver) {
            waiter.passedOver = false;
            this.#passedOver--;
          }
          this.#insertInOrder(waiter);
        }
        if (this.#firstEligible(at) === waiter) {
          leave();
          resolve(this.#leaseReleaser());
          this.#notifyIdle();
          return;
        }
        timer = setTimeout(check, REQUEST_BOUND_TIMING.pollMs);
      };
      check();
    });
  }

  #insertInOrder(waiter: Waiter): void {
    const index = this.#queue.findIndex((other) => other.seq > waiter.seq);
    if (index === -1) this.#queue.push(waiter);
    else this.#queue.splice(index, 0, waiter);
  }

  /** The waiter that may take a slot now: the first live one in line whose limit is not reached. */
  #firstEligible(now: number): Waiter | undefined {
    this.#reclaimStale(now);
    const staleBefore = now - REQUEST_BOUND_TIMING.staleMs;
    for (let i = 0; i < this.#queue.length; ) {
      const waiter = this.#queue[i]!;
      if (waiter.seenAt < staleBefore) {
        // Its request's context is gone (or it will put itself back when it checks again).
        this.#queue.splice(i, 1);
        waiter.passedOver = true;
        this.#passedOver++;
        continue;
      }
      if (this.#active < waiter.limit) return waiter;
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
      this.#active--;
      reclaimed = true;
    }
    if (reclaimed) this.#notifyIdle();
  }

  /** Takes a slot for the calling request, alive as long as that request's heartbeat runs. */
  #leaseReleaser(): ReleaseSlot {
    this.#active++;
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
      this.#active--;
      this.#notifyIdle();
    };
  }
}

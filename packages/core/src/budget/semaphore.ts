// docs/gateway-protocol.md §2.5 (4 requests at once per key, a slot held until the answer ends).
import type { ReleaseSlot } from './key-budget';

/**
 * A counting semaphore whose callers each pass their limit: a slot is granted while fewer than
 * that many are held. Waiters are served in arrival order (those that ask `ahead` first), but a
 * waiter whose limit is reached never blocks a later one whose limit is not (no head-of-line
 * blocking across limits). Two implementations: `FifoSemaphore` (promises settled by whoever
 * frees a slot) and `RequestBoundSemaphore` (isolate runtimes, where no call may settle another's).
 */
export interface Semaphore {
  /**
   * Resolves once a slot is free; rejects with the signal's reason when aborted while queued.
   * `ahead`: waits before every waiter that did not ask for it (a call that gave its slot back only
   * to move to another model keeps its turn).
   */
  acquire(limit: number, signal?: AbortSignal, ahead?: boolean): Promise<ReleaseSlot>;
  /** A slot now when `acquire` would grant one at once, else undefined (never in request-bound mode). */
  tryAcquire(limit: number): ReleaseSlot | undefined;
  readonly active: number;
  readonly queued: number;
  readonly isIdle: boolean;
  /** Idle, and no waiter could come back (what `onIdle` reports). */
  readonly isForgettable: boolean;
  /** Resolves when nothing is running or queued (for tests and graceful shutdown). */
  whenIdle(): Promise<void>;
}

/** A queued caller: its limit, how to grant it, and its place in line. */
export interface Waiter {
  limit: number;
  grant: (release: ReleaseSlot) => void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
  /** Arrival order (`ahead` waiters: below every other one). */
  seq: number;
}

/** What both implementations share: the line of waiters, and the idle notifications. */
export abstract class WaiterLine {
  protected activeCount = 0;
  protected readonly line: Waiter[] = [];
  readonly #idleWaiters: (() => void)[] = [];
  readonly #onIdle: (() => void) | undefined;
  #seq = 0;
  /** Arrival order of the waiters that join ahead: before every other one. */
  #aheadSeq = Number.MIN_SAFE_INTEGER;

  constructor(onIdle: (() => void) | undefined) {
    this.#onIdle = onIdle;
  }

  get queued(): number {
    return this.line.length;
  }

  whenIdle(): Promise<void> {
    if (this.isIdle) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  abstract get isIdle(): boolean;

  /** Whether `onIdle` may be reported now (the request-bound line may expect waiters back). */
  protected get canForget(): boolean {
    return true;
  }

  /**
   * Queues a waiter for `limit`. If its signal aborts first, `leave` takes it out of line, then
   * it is rejected with the signal's reason.
   */
  protected enqueue(
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
    };
    if (signal) {
      waiter.onAbort = () => {
        leave();
        reject(signal.reason);
      };
      signal.addEventListener('abort', waiter.onAbort, { once: true });
    }
    if (ahead) this.insertInOrder(waiter);
    else this.line.push(waiter);
    return waiter;
  }

  protected insertInOrder(waiter: Waiter): void {
    const index = this.line.findIndex((other) => other.seq > waiter.seq);
    if (index === -1) this.line.push(waiter);
    else this.line.splice(index, 0, waiter);
  }

  protected notifyIdle(): void {
    if (this.activeCount === 0 && this.line.length === 0) {
      // (Usually none waits: no copy of the list is made then.)
      if (this.#idleWaiters.length > 0) {
        for (const resolve of this.#idleWaiters.splice(0)) resolve();
      }
      if (this.canForget) this.#onIdle?.();
    }
  }
}

/** The semaphore of runtimes where any call may settle another's promise (Node, Deno, Bun, browsers). */
export class FifoSemaphore extends WaiterLine implements Semaphore {
  get active(): number {
    return this.activeCount;
  }
  get isIdle(): boolean {
    return this.activeCount === 0 && this.line.length === 0;
  }
  get isForgettable(): boolean {
    return this.isIdle;
  }

  acquire(limit: number, signal?: AbortSignal, ahead = false): Promise<ReleaseSlot> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    // (Every queued waiter has reached its limit: the drain grants any other at once.)
    if (this.activeCount < limit) {
      this.activeCount++;
      return Promise.resolve(this.#releaser());
    }
    return new Promise<ReleaseSlot>((resolve, reject) => {
      const waiter = this.enqueue(limit, signal, ahead, resolve, reject, () => {
        const index = this.line.indexOf(waiter);
        if (index !== -1) this.line.splice(index, 1);
        // A waiter that leaves may have been the one a later waiter queued behind.
        this.#drain();
      });
    });
  }

  tryAcquire(limit: number): ReleaseSlot | undefined {
    if (this.activeCount >= limit) return undefined;
    this.activeCount++;
    return this.#releaser();
  }

  #releaser(): ReleaseSlot {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.activeCount--;
      this.#drain();
    };
  }

  #drain(): void {
    for (let i = 0; i < this.line.length; ) {
      const waiter = this.line[i]!;
      if (this.activeCount >= waiter.limit) {
        i++;
        continue;
      }
      this.line.splice(i, 1);
      if (waiter.signal && waiter.onAbort) {
        waiter.signal.removeEventListener('abort', waiter.onAbort);
      }
      this.activeCount++;
      waiter.grant(this.#releaser());
    }
    this.notifyIdle();
  }
}

// docs/gateway-protocol.md §2.5 (the key's slots, counted as this runtime allows).
import { REQUEST_BOUND_IO } from '../call/call-scope';
import { lazily } from '../errors/load-lazily';
import type { ReleaseSlot } from './key-budget';
import { FifoSemaphore, type Semaphore } from './semaphore';

export interface SemaphoreOptions {
  /** Isolate runtimes (`REQUEST_BOUND_IO`, the default): the request-bound implementation. */
  requestBound?: boolean;
  /** Called each time the semaphore becomes idle (e.g. for its owner to forget it). */
  onIdle?: () => void;
}

/** The semaphore this runtime needs (request-bound in isolate runtimes, FIFO elsewhere). */
export function createSemaphore(options: SemaphoreOptions = {}): Semaphore {
  return (options.requestBound ?? REQUEST_BOUND_IO)
    ? new RequestBoundOnFirstUse(options.onIdle)
    : new FifoSemaphore(options.onIdle);
}

/** The request-bound semaphore's code, loaded by its first `acquire` (isolate runtimes only). */
const loadRequestBound = lazily(
  'the request-bound budget',
  () => import('./request-bound-semaphore'),
);

/**
 * `RequestBoundSemaphore` (request-bound-semaphore.ts), made by its first `acquire`: a bundle for
 * Node or a browser never loads its code. An acquire waiting for that code counts as queued, so
 * the budget does not forget (and remake, empty) this key's semaphore meanwhile: a second client on
 * the key would then have counted from zero beside the first one's held slots.
 */
class RequestBoundOnFirstUse implements Semaphore {
  readonly #onIdle: (() => void) | undefined;
  #semaphore: Semaphore | undefined;
  /** Acquires waiting for the code to load. */
  #loading = 0;

  constructor(onIdle: (() => void) | undefined) {
    this.#onIdle = onIdle;
  }

  async acquire(limit: number, signal?: AbortSignal, ahead?: boolean): Promise<ReleaseSlot> {
    if (signal?.aborted) throw signal.reason;
    if (this.#semaphore === undefined) {
      this.#loading++;
      try {
        const { RequestBoundSemaphore } = await loadRequestBound();
        this.#semaphore ??= new RequestBoundSemaphore(this.#onIdle);
      } finally {
        this.#loading--;
      }
      // (A failed load leaves nothing held or waiting: the budget may forget this key.)
      if (signal?.aborted) {
        if (this.isIdle) this.#onIdle?.();
        throw signal.reason;
      }
    }
    return this.#semaphore.acquire(limit, signal, ahead);
  }

  /** Never: a request-bound slot is taken from the waiter's own timer. */
  tryAcquire(): undefined {
    return undefined;
  }

  get active(): number {
    return this.#semaphore?.active ?? 0;
  }
  get queued(): number {
    return (this.#semaphore?.queued ?? 0) + this.#loading;
  }
  get isIdle(): boolean {
    return this.#loading === 0 && (this.#semaphore?.isIdle ?? true);
  }
  get isForgettable(): boolean {
    return this.#loading === 0 && (this.#semaphore?.isForgettable ?? true);
  }
  whenIdle(): Promise<void> {
    return this.#semaphore?.whenIdle() ?? Promise.resolve();
  }
}

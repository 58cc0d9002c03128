import type { ConcurrencyBudgetState } from './types';

/** Releases a slot; calling it more than once is harmless. */
export type ReleaseSlot = () => void;

interface Waiter {
  limit: number;
  grant: (release: ReleaseSlot) => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

/**
 * A FIFO counting semaphore shared by every client of one (base URL, API key). Each caller passes
 * its own limit: a slot is granted while fewer than that many are held, so no client ever sees more
 * than its `maxConcurrency` in flight. Queued callers may give up through a signal.
 */
export class ConcurrencyBudget {
  #active = 0;
  readonly #queue: Waiter[] = [];
  readonly #idleWaiters: (() => void)[] = [];

  get active(): number {
    return this.#active;
  }
  get queued(): number {
    return this.#queue.length;
  }
  get isIdle(): boolean {
    return this.#active === 0 && this.#queue.length === 0;
  }

  /** Resolves once a slot is free; rejects with the signal's reason when aborted while queued. */
  acquire(limit: number, signal?: AbortSignal): Promise<ReleaseSlot> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#active < limit && this.#queue.length === 0) {
      this.#active++;
      return Promise.resolve(this.#releaser());
    }
    return new Promise<ReleaseSlot>((resolve, reject) => {
      const waiter: Waiter = { limit, grant: resolve, reject, signal, onAbort: undefined };
      if (signal) {
        waiter.onAbort = () => {
          const index = this.#queue.indexOf(waiter);
          if (index !== -1) this.#queue.splice(index, 1);
          this.#notifyIdle();
          reject(signal.reason);
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.#queue.push(waiter);
    });
  }

  /** Resolves when nothing is running or queued (for tests and graceful shutdown). */
  whenIdle(): Promise<void> {
    if (this.isIdle) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
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
    // Strict FIFO: the head waits for its own limit even when a later caller's limit would allow it.
    while (this.#queue.length > 0 && this.#active < this.#queue[0]!.limit) {
      const waiter = this.#queue.shift()!;
      if (waiter.signal && waiter.onAbort)
        waiter.signal.removeEventListener('abort', waiter.onAbort);
      this.#active++;
      waiter.grant(this.#releaser());
    }
    this.#notifyIdle();
  }

  #notifyIdle(): void {
    if (!this.isIdle) return;
    for (const resolve of this.#idleWaiters.splice(0)) resolve();
  }
}

/** A small non-cryptographic hash, so that the registry never holds the API key itself. */
function hashKey(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

// Kept on globalThis so that an ESM and a CJS copy of this package in one process share budgets.
const REGISTRY = Symbol.for('@infergate/core.concurrencyBudgets');

function registry(): Map<string, ConcurrencyBudget> {
  const holder = globalThis as unknown as Record<
    symbol,
    Map<string, ConcurrencyBudget> | undefined
  >;
  let map = holder[REGISTRY];
  if (!map) {
    map = new Map();
    Object.defineProperty(globalThis, REGISTRY, { value: map, enumerable: false });
  }
  return map;
}

/** The process-wide budget for one (base URL, API key) pair. */
export function sharedBudget(baseURL: string, apiKey: string): ConcurrencyBudget {
  const map = registry();
  const id = `${baseURL} ${hashKey(apiKey)}`;
  let budget = map.get(id);
  if (!budget) {
    budget = new ConcurrencyBudget();
    map.set(id, budget);
  }
  return budget;
}

/** One client's view of its shared budget. */
export class BudgetView implements ConcurrencyBudgetState {
  readonly #budget: ConcurrencyBudget | undefined;
  readonly limit: number;

  constructor(budget: ConcurrencyBudget | undefined, limit: number) {
    this.#budget = budget;
    this.limit = limit;
  }
  get active(): number {
    return this.#budget?.active ?? 0;
  }
  get queued(): number {
    return this.#budget?.queued ?? 0;
  }
  get isIdle(): boolean {
    return this.#budget?.isIdle ?? true;
  }
  whenIdle(): Promise<void> {
    return this.#budget?.whenIdle() ?? Promise.resolve();
  }
}

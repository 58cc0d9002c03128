// docs/gateway-protocol.md §2.5 (4 requests at once per key, a slot held until the answer ends).
import { REQUEST_BOUND_IO } from '../call/call-scope';

export interface ConcurrencyBudgetState {
  readonly limit: number;
  readonly active: number;
  readonly queued: number;
  readonly isIdle: boolean;
  /** Resolves when nothing is running or queued. */
  whenIdle(): Promise<void>;
}

/**
 * Where the slots of an API key are counted. The default counts within this JavaScript realm
 * (`createInProcessBudget()`); another implementation may count across processes (e.g. on Redis).
 */
export interface KeyBudget {
  /**
   * Waits for a slot of budget `id`; at most `limit` in flight per id across everyone sharing this
   * budget. Rejects with `signal.reason` if the signal aborts while waiting. Never hangs past
   * `deadline` (rejects with signal.reason once the signal aborts at the deadline).
   */
  acquire(request: BudgetAcquireRequest): Promise<BudgetLease>;
  /** Optional snapshot for `client.budget` (may be approximate for shared budgets). */
  state?(id: string): { active: number; queued: number } | undefined;
}

export interface BudgetAcquireRequest {
  /** Opaque id of the (normalised origin, API key) pair: a hash; never contains the key itself. */
  id: string;
  /** The key's limit: in flight at once for this id, summed over all clients (gateway: 4). */
  limit: number;
  /** Aborts when the caller aborts or the call's deadline passes. */
  signal: AbortSignal;
  /** Epoch ms of the call's deadline. */
  deadline: number;
}

export interface BudgetLease {
  /** Frees the slot. Idempotent; never throws (a shared budget handles its own I/O errors). */
  release(): void;
}

/** Releases a slot; calling it more than once is harmless. */
export type ReleaseSlot = () => void;

interface Waiter {
  limit: number;
  grant: (release: ReleaseSlot) => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
  /** Request-bound mode: arrival order, and when the waiter last checked (on the live clock). */
  seq: number;
  seenAt: number;
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
  /**
   * Request-bound mode: time during which the isolate ran (ms). Heartbeats and checks are judged on
   * it, not on the wall clock: it advances by the gap between two runs of the budget's timers, but
   * by at most `MAX_LIVE_GAP_MS`, so a stall — during which no holder could have renewed its
   * heartbeat — never makes live slots stale.
   */
  #live = 0;
  /** Wall-clock time (epoch ms) the live clock was last read. */
  #liveReadAt = 0;

  constructor(options: { requestBound?: boolean } = {}) {
    this.#requestBound = options.requestBound ?? REQUEST_BOUND_IO;
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

  /** Resolves once a slot is free; rejects with the signal's reason when aborted while queued. */
  acquire(limit: number, signal?: AbortSignal): Promise<ReleaseSlot> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#requestBound) return this.#acquireInOwnContext(limit, signal);
    // (Every queued waiter has reached its limit: the drain grants any other at once.)
    if (this.#active < limit) {
      this.#active++;
      return Promise.resolve(this.#releaser());
    }
    return new Promise<ReleaseSlot>((resolve, reject) => {
      const waiter: Waiter = {
        limit,
        grant: resolve,
        reject,
        signal,
        onAbort: undefined,
        seq: 0,
        seenAt: 0,
      };
      if (signal) {
        waiter.onAbort = () => {
          const index = this.#queue.indexOf(waiter);
          if (index !== -1) this.#queue.splice(index, 1);
          // A waiter that leaves may have been the one a later waiter queued behind.
          this.#drain();
          reject(signal.reason);
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.#queue.push(waiter);
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
    }
  }

  // --- request-bound mode -----------------------------------------------------------------

  /** The live clock now (see `#live`). */
  #liveNow(): number {
    const now = Date.now();
    if (this.#liveReadAt !== 0 && now > this.#liveReadAt) {
      this.#live += Math.min(now - this.#liveReadAt, MAX_LIVE_GAP_MS);
    }
    if (now > this.#liveReadAt) this.#liveReadAt = now;
    return this.#live;
  }

  #acquireInOwnContext(limit: number, signal: AbortSignal | undefined): Promise<ReleaseSlot> {
    return new Promise<ReleaseSlot>((resolve, reject) => {
      const now = this.#liveNow();
      const waiter: Waiter = {
        limit,
        grant: resolve,
        reject,
        signal,
        onAbort: undefined,
        seq: this.#seq++,
        seenAt: now,
      };
      let timer: ReturnType<typeof setTimeout> | undefined;
      const leave = () => {
        if (timer !== undefined) quietly(() => clearTimeout(timer));
        if (signal && waiter.onAbort) signal.removeEventListener('abort', waiter.onAbort);
        const index = this.#queue.indexOf(waiter);
        if (index !== -1) this.#queue.splice(index, 1);
      };
      // Runs in this call's own context: synchronously now, then from its own timer.
      const check = () => {
        timer = undefined;
        const at = this.#liveNow();
        waiter.seenAt = at;
        // Passed over while it could not check (its request was busy): back in its place.
        if (!this.#queue.includes(waiter)) this.#insertInOrder(waiter);
        if (this.#firstEligible(at) === waiter) {
          leave();
          resolve(this.#leaseReleaser());
          this.#notifyIdle();
          return;
        }
        timer = setTimeout(check, REQUEST_BOUND_TIMING.pollMs);
      };
      if (signal) {
        waiter.onAbort = () => {
          leave();
          this.#notifyIdle();
          reject(signal.reason);
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.#queue.push(waiter);
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
    for (const lease of this.#leases) {
      if (lease.beatAt >= staleBefore) continue;
      lease.reclaimed = true;
      this.#leases.delete(lease);
      this.#active--;
    }
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

/**
 * The method of a budget that can grant a free slot synchronously (the in-process one): the
 * transport asks it first and awaits `acquire` only when it answers undefined. A registered
 * symbol, so that every copy of core in a realm (ESM and CJS) finds it on the shared default
 * budget, and no user budget's own method can be taken for it.
 */
const TRY_ACQUIRE = Symbol.for('@infergate/core.budget.tryAcquire');

/** A budget's synchronous grant, when it has one (see `TRY_ACQUIRE`). */
export function tryAcquireNow(
  budget: KeyBudget,
  id: string,
  limit: number,
): ReleaseSlot | undefined {
  const now = (
    budget as { [TRY_ACQUIRE]?: (id: string, limit: number) => ReleaseSlot | undefined }
  )[TRY_ACQUIRE];
  return typeof now === 'function' ? now.call(budget, id, limit) : undefined;
}

/** The default `KeyBudget`: counts slots per id in this realm, FIFO per id. */
export class InProcessBudget implements KeyBudget {
  readonly #slots = new Map<string, Semaphore>();

  acquire(request: BudgetAcquireRequest): Promise<BudgetLease> {
    return this.#slotsOf(request.id)
      .acquire(request.limit, request.signal)
      .then((release) => ({ release }));
  }

  [TRY_ACQUIRE](id: string, limit: number): ReleaseSlot | undefined {
    return this.#slotsOf(id).tryAcquire(limit);
  }

  #slotsOf(id: string): Semaphore {
    let slots = this.#slots.get(id);
    if (!slots) {
      slots = new Semaphore();
      this.#slots.set(id, slots);
    }
    return slots;
  }

  state(id: string): { active: number; queued: number } | undefined {
    const slots = this.#slots.get(id);
    return slots ? { active: slots.active, queued: slots.queued } : undefined;
  }

  /** Resolves when nothing of `id` is running or queued. */
  whenIdle(id: string): Promise<void> {
    return this.#slots.get(id)?.whenIdle() ?? Promise.resolve();
  }
}

/** A new in-process key budget (share one object between clients to share their keys' slots). */
export function createInProcessBudget(): KeyBudget {
  return new InProcessBudget();
}

// Kept on globalThis so that an ESM and a CJS copy of this package in one process share budgets.
const DEFAULT_BUDGET = Symbol.for('@infergate/core.keyBudget');

/** The budget of clients created without `budget`: one per realm. */
export function defaultBudget(): InProcessBudget {
  const holder = globalThis as unknown as Record<symbol, InProcessBudget | undefined>;
  // Another copy of this package (the CJS build beside the ESM one, or a second bundle of a
  // framework app) may have set it first: its budget is another class, but the same shape.
  let budget = holder[DEFAULT_BUDGET];
  if (typeof budget?.acquire !== 'function') {
    budget = new InProcessBudget();
    Object.defineProperty(globalThis, DEFAULT_BUDGET, { value: budget, enumerable: false });
  }
  return budget as InProcessBudget;
}

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The origin that names a gateway for budgeting: scheme, host and port, lowercase, default ports
 * dropped, and `localhost` / `127.0.0.1` / `[::1]` as one host. The path is not part of it: the
 * gateway counts requests per key, whatever path prefix reaches it.
 */
export function budgetOrigin(baseURL: string): string {
  const url = new URL(baseURL);
  const host = LOOPBACK_HOSTS.has(url.hostname) ? 'localhost' : url.hostname;
  return `${url.protocol}//${host}${url.port === '' ? '' : `:${url.port}`}`;
}

/**
 * The budget id of (base URL, API key): a 106-bit non-cryptographic hash of the normalised origin
 * and the key, so that no budget (in memory or in a shared store) holds the key itself.
 */
export function budgetId(baseURL: string, apiKey: string): string {
  const text = `${budgetOrigin(baseURL)}\n${apiKey}`;
  return `ig-${hash53(text, 0x9e3779b9)}${hash53(text, 0x85ebca6b)}`;
}

function hash53(text: string, seed: number): string {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36).padStart(11, '0');
}

/** One client's view: its own `maxConcurrency` queue plus the key's count in the budget. */
export class ClientBudgetView implements ConcurrencyBudgetState {
  readonly #local: Semaphore;
  readonly #budget: KeyBudget | undefined;
  readonly #id: string;
  readonly limit: number;

  constructor(local: Semaphore, budget: KeyBudget | undefined, id: string, limit: number) {
    this.#local = local;
    this.#budget = budget;
    this.#id = id;
    this.limit = limit;
  }
  #keyState(): { active: number; queued: number } | undefined {
    try {
      return this.#budget?.state?.(this.#id);
    } catch {
      return undefined;
    }
  }
  /** Requests of this key in flight (all clients sharing the budget); this client's own when the budget cannot tell. */
  get active(): number {
    return this.#keyState()?.active ?? this.#local.active;
  }
  /** Calls waiting: this client's behind its `maxConcurrency`, plus the key's queue. */
  get queued(): number {
    return this.#local.queued + (this.#keyState()?.queued ?? 0);
  }
  get isIdle(): boolean {
    return this.#local.isIdle && this.active === 0 && this.queued === 0;
  }
  async whenIdle(): Promise<void> {
    while (!this.isIdle) {
      await this.#local.whenIdle();
      if (this.#budget instanceof InProcessBudget) await this.#budget.whenIdle(this.#id);
      else if (!this.isIdle) await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

// docs/gateway-protocol.md §2.5 (4 requests at once per key, a slot held until the answer ends).
/**
 * The contract of a key's budget: what the transport asks of any `KeyBudget` (the in-process one,
 * `@infergate/redis`'s, a user's own), the synchronous grant only core's own budget offers, and
 * what a client shows of it (`client.budget`).
 */

/** `client.budget`: the key's slots as one client sees them (client-budget-view.ts). */
export interface ConcurrencyBudgetState {
  /** This client's `maxConcurrency`. */
  readonly limit: number;
  /** The key's requests holding a slot (all clients sharing the budget; this client's own when it cannot tell). */
  readonly active: number;
  /** Requests waiting for a slot: this client's behind its `maxConcurrency`, plus the key's queue. */
  readonly queued: number;
  /**
   * This client's calls begun and not ended — a stream's until its body ends, is cut or cancelled,
   * or, dropped unread, is collected — whether
   * holding a slot, waiting for one, waiting on the catalog read its model check needs, or waiting
   * to retry (those last two hold no slot: neither `active` nor `queued` counts them).
   */
  readonly pendingCalls: number;
  /** No call of this client pending, none of its slots held or waited for, the key's queue empty. */
  readonly isIdle: boolean;
  /** Resolves once `isIdle` (for tests and a graceful shutdown: every call begun has ended). */
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
   * `deadline` (rejects with signal.reason once the signal aborts at the deadline). (Core does not
   * wait for a budget that does not: the call ends, and a lease granted after is released.)
   */
  acquire(request: BudgetAcquireRequest): Promise<BudgetLease>;
  /**
   * Optional: a slot at once when one is free and no call of `id` waits for one, else `undefined`;
   * it never joins the queue, so it never goes ahead of a waiting call. A hedged request's second
   * attempt asks this way; on a budget without it, no hedge is sent. (`ahead` is ignored.)
   */
  acquireIfFree?(request: BudgetAcquireRequest): Promise<BudgetLease | undefined>;
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
  /**
   * Epoch ms of the call's deadline, as the wall clock read it when the slot was asked for. Core
   * times the call on a monotonic clock and aborts `signal` at the deadline: wait on `signal`, not
   * on this, since the wall clock can be stepped (NTP, a resumed VM) while the call waits.
   */
  deadline: number;
  /**
   * The call gave a slot back only to move at once to its next model (a failover, §4.7): it may
   * be served before calls that have not started, so that moving on does not cost it its turn.
   * The in-process budget and `@infergate/redis` do; a budget may ignore it (it is then served in
   * arrival order).
   */
  ahead?: boolean;
}

export interface BudgetLease {
  /** Frees the slot. Idempotent; never throws (a shared budget handles its own I/O errors). */
  release(): void;
}

/** Releases a slot; calling it more than once is harmless. */
export type ReleaseSlot = () => void;

/**
 * The method of a budget that can grant a free slot synchronously (the in-process one): the
 * transport asks it first and awaits `acquire` only when it answers undefined. A registered
 * symbol, so that every copy of core in a realm (ESM and CJS) finds it on the shared default
 * budget, and no user budget's own method can be taken for it.
 */
export const TRY_ACQUIRE = Symbol.for('@infergate/core.budget.tryAcquire');

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

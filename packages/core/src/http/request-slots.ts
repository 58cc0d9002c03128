// docs/gateway-protocol.md §2.5 (the key's 4 slots: one per request in flight).
import { type ReleaseSlot, tryAcquireNow } from '../budget/key-budget';
import { type CallScope, REQUEST_BOUND_IO } from '../call/call-scope';
import { isGatewayError } from '../errors/errors';
import type { CallEvents } from '../events/call-events';
import type { Reservation, SlotRelease, SlotsConfig } from './request-types';

/**
 * The slots of one client's requests: this client's own `maxConcurrency` first (so a client with
 * a small limit queues only behind itself), then the key's budget. A slot is released once, the
 * key's first.
 */
export class RequestSlots {
  readonly #config: SlotsConfig;

  constructor(config: SlotsConfig) {
    this.#config = config;
  }

  get budgetId(): string {
    return this.#config.budgetId;
  }

  /**
   * Both slots at once when both are free (the common case: no promise, no async step), else
   * undefined and the caller awaits `acquire`. Not for calls with events (they report the wait).
   */
  now(scope: CallScope): SlotRelease | undefined {
    if (scope.ended) return undefined;
    const { local, maxConcurrency, budget, budgetId, maxConcurrencyPerKey } = this.#config;
    const releaseLocal = local.tryAcquire(maxConcurrency);
    if (releaseLocal === undefined) return undefined;
    const key = tryAcquireNow(budget, budgetId, maxConcurrencyPerKey);
    if (key === undefined) {
      releaseLocal();
      return undefined;
    }
    return bothSlots(releaseLocal, key);
  }

  /**
   * Waits for a slot. `ahead`: a call moving at once to its next attempt, served before the calls
   * that have not started (`BudgetAcquireRequest.ahead`). A slot handed over after the call ended
   * (its deadline passed, its caller aborted) is given back, and the call fails without sending.
   */
  async acquire(
    scope: CallScope,
    requestedModel: string | undefined,
    events: CallEvents | undefined,
    attempt: number,
    ahead = false,
  ): Promise<SlotRelease> {
    const { local, maxConcurrency, budget, budgetId, maxConcurrencyPerKey } = this.#config;
    let releaseLocal: ReleaseSlot | undefined;
    events?.queued(attempt, budgetId);
    try {
      releaseLocal = await local.acquire(maxConcurrency, scope.signal, ahead);
      if (scope.ended) throw scope.error({ requestedModel });
      const lease = await budget.acquire({
        id: budgetId,
        limit: maxConcurrencyPerKey,
        signal: scope.signal,
        deadline: scope.deadline,
        ...(ahead ? { ahead } : {}),
      });
      const release = bothSlots(releaseLocal, () => lease.release());
      if (scope.ended) {
        release();
        throw scope.error({ requestedModel });
      }
      if (!events) return release;
      events.dequeued(attempt, budgetId);
      return this.reported(release, events, attempt);
    } catch (error) {
      releaseLocal?.();
      if (isGatewayError(error)) throw error;
      if (scope.ended) throw scope.error({ requestedModel });
      throw error;
    }
  }

  /**
   * A slot only if one is free now and no call waits for one (never queued, never ahead of anyone:
   * a hedged attempt's), else undefined. A budget without `acquireIfFree` never has one.
   */
  async ifFree(scope: CallScope): Promise<SlotRelease | undefined> {
    const { local, maxConcurrency, budget, budgetId, maxConcurrencyPerKey } = this.#config;
    if (scope.ended || budget.acquireIfFree === undefined) return undefined;
    const releaseLocal = local.tryAcquire(maxConcurrency);
    if (releaseLocal === undefined) return undefined;
    try {
      const lease = await budget.acquireIfFree({
        id: budgetId,
        limit: maxConcurrencyPerKey,
        signal: scope.signal,
        deadline: scope.deadline,
      });
      if (lease === undefined || scope.ended) {
        lease?.release();
        releaseLocal();
        return undefined;
      }
      return bothSlots(releaseLocal, () => lease.release());
    } catch {
      // A budget that cannot answer has no free slot to give.
      releaseLocal();
      return undefined;
    }
  }

  /**
   * Attempt 1's slot, asked for before what the call loads first. `queued`: the call has events
   * (they report its wait); without, it takes a free slot at once, as any call does (other calls
   * take theirs synchronously, and a queued promise would let them overtake this one).
   */
  early(
    scope: CallScope,
    requestedModel: string | undefined,
    queued: boolean,
  ): Promise<SlotRelease> {
    const now = queued ? undefined : this.now(scope);
    if (now) return Promise.resolve(now);
    return this.acquire(scope, requestedModel, undefined, 1);
  }

  /** The slot asked for before loading, for the first attempt, reported like any other. */
  async takeEarly(
    first: EarlySlot,
    events: CallEvents | undefined,
    attempt: number,
  ): Promise<SlotRelease> {
    const slot = first.slot!;
    first.slot = undefined;
    events?.queued(attempt, this.#config.budgetId);
    const release = await slot;
    if (!events) return release;
    events.dequeued(attempt, this.#config.budgetId);
    return this.reported(release, events, attempt);
  }

  /** A slot's release that also reports it (once), for a call with events. */
  reported(release: SlotRelease, events: CallEvents, attempt: number): SlotRelease {
    let released = false;
    return (cut) => {
      release(cut);
      if (released) return;
      released = true;
      events.released(attempt, this.#config.budgetId);
    };
  }
}

/**
 * How long the slot of a request we cut (aborted before its answer ended: a stall, a hedge's
 * loser, a stream cancelled mid-body) is kept after the cut: the gateway counts the request until
 * it sees the connection close, and a slot given back at once could send a request the key's
 * limit refuses (`client_concurrency_exceeded`). Measured against the emulator's real HTTP server
 * on loopback (Node's fetch, keep-alive), from the abort to the gateway's release: p99 9–13 ms,
 * at most 47.5 ms with 16 streams running; twice that maximum, since real networks add a trip.
 */
export const CUT_REQUEST_GRACE_MS = 100;

/**
 * The release of a local slot and a key slot together, once. A cut keeps the key's slot the grace,
 * except in request-bound runtimes (workerd, edge): a timer dies with the request that set it, and
 * a caller gone away would leave the slot to the 2 s take-back instead.
 */
function bothSlots(local: ReleaseSlot, key: () => void): SlotRelease {
  let released = false;
  const releaseKey = () => {
    try {
      key();
    } catch {
      // A budget's release must not throw; if one does, the local slot is still given back.
    }
  };
  return (cut) => {
    if (released) return;
    released = true;
    local();
    if (!cut || REQUEST_BOUND_IO) return releaseKey();
    const timer = setTimeout(releaseKey, CUT_REQUEST_GRACE_MS);
    // (Node: a release due must not hold the process open.)
    (timer as { unref?: () => void }).unref?.();
  };
}

/** Attempt 1's slot, asked for before what the call loads first; cleared once an attempt takes it. */
export interface EarlySlot {
  slot: Promise<SlotRelease> | undefined;
}

/** Takes a reservation not taken yet (once); undefined otherwise. */
export function takeReservation(reservation: Reservation | undefined): Reservation | undefined {
  if (reservation === undefined || reservation.taken) return undefined;
  reservation.taken = true;
  return reservation;
}

/** `release`, then `settled`, once. */
export function alsoOnRelease(release: SlotRelease, settled: () => void): SlotRelease {
  let done = false;
  return (cut) => {
    release(cut);
    if (done) return;
    done = true;
    settled();
  };
}

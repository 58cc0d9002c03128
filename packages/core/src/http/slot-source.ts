// docs/gateway-protocol.md §2.5 (the key's 4 slots: one per request in flight).
import { type BudgetLease, type ReleaseSlot, tryAcquireNow } from '../budget/key-budget';
import { later, settledWithin } from '../budget/releases-due';
import { type CallScope, REQUEST_BOUND_IO } from '../call/call-scope';
import { isGatewayError } from '../errors/errors';
import type { CallEvents } from '../events/call-events';
import type { Slot, SlotsConfig } from './request-types';

/** How a slot is asked for. */
export interface SlotAsk {
  /** A call moving at once to its next attempt: served before the calls that have not started. */
  ahead?: boolean;
  /** Only a slot free now, with no call waiting for one (never queued): else undefined. */
  ifFree?: boolean;
  /** The call's events, told the wait and the release of attempt `attempt`. */
  events?: CallEvents;
  attempt?: number;
  /** Named by the error when the call ended while it waited. */
  requestedModel?: string;
}

/**
 * The one source of a client's request slots: this client's own `maxConcurrency` first (so a
 * client with a small limit queues only behind itself), then the key's budget. A slot is released
 * once: this client's at once, the key's after it (`CUT_REQUEST_GRACE_MS` later when cut; when a
 * fetch given up on settles, `ABANDONED_FETCH_HOLD` at most).
 */
export class SlotSource {
  readonly #config: SlotsConfig;

  constructor(config: SlotsConfig) {
    this.#config = config;
  }

  get budgetId(): string {
    return this.#config.budgetId;
  }

  /**
   * A slot for one request: taken at once when both queues would grant it, else waited for. A slot
   * handed over after the call ended (its deadline passed, its caller aborted) is given back, and
   * the call fails without sending. With `ifFree`, undefined when none is free now.
   */
  acquire(scope: CallScope, ask: SlotAsk & { ifFree: true }): Promise<Slot | undefined>;
  acquire(scope: CallScope, ask?: SlotAsk): Promise<Slot>;
  async acquire(scope: CallScope, ask: SlotAsk = {}): Promise<Slot | undefined> {
    if (ask.ifFree) return this.#onlyIfFree(scope);
    const { events, attempt = 1 } = ask;
    events?.queued(attempt, this.#config.budgetId);
    const release = this.#grantedNow(scope) ?? (await this.#queued(scope, ask));
    return this.#given(release, events, attempt);
  }

  /**
   * A slot its caller took before the call's first attempt (with `ifFree`), as that attempt's:
   * its wait and its release told to `events` as `acquire` tells a slot it gives.
   */
  adopt(slot: Slot, events: CallEvents | undefined, attempt: number): Slot {
    events?.queued(attempt, this.#config.budgetId);
    return this.#given(slot.release, events, attempt);
  }

  /** The slot given to attempt `attempt`: its end of waiting and its release told to `events`. */
  #given(release: ReleaseBoth, events: CallEvents | undefined, attempt: number): Slot {
    if (!events) return { release };
    const { budgetId } = this.#config;
    events.dequeued(attempt, budgetId);
    return { release: toldOnRelease(release, events, attempt, budgetId) };
  }

  /**
   * Both slots when both queues grant them synchronously (the in-process budget can; a shared one
   * answers undefined), else undefined: then `#queued` waits.
   */
  #grantedNow(scope: CallScope): ReleaseBoth | undefined {
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

  /** Waits in this client's queue, then the key's. */
  async #queued(scope: CallScope, { ahead = false, requestedModel }: SlotAsk) {
    const { local, maxConcurrency, budget, budgetId, maxConcurrencyPerKey } = this.#config;
    let releaseLocal: ReleaseSlot | undefined;
    try {
      releaseLocal = await local.acquire(maxConcurrency, scope.signal, ahead);
      if (scope.ended) throw scope.error({ requestedModel });
      const lease = await untilEnded(
        budget.acquire({
          id: budgetId,
          limit: maxConcurrencyPerKey,
          signal: scope.signal,
          deadline: scope.deadline,
          ...(ahead ? { ahead } : {}),
        }),
        scope.signal,
      );
      const release = bothSlots(releaseLocal, () => lease.release());
      if (scope.ended) {
        release();
        throw scope.error({ requestedModel });
      }
      return release;
    } catch (error) {
      releaseLocal?.();
      if (isGatewayError(error)) throw error;
      if (scope.ended) throw scope.error({ requestedModel });
      throw error;
    }
  }

  /**
   * A slot only if one is free now and no call waits for one (never queued: taking a waiting call's
   * turn would delay it). A budget without `acquireIfFree` never has one.
   */
  async #onlyIfFree(scope: CallScope): Promise<Slot | undefined> {
    const { local, maxConcurrency, budget, budgetId, maxConcurrencyPerKey } = this.#config;
    if (scope.ended || budget.acquireIfFree === undefined) return undefined;
    const releaseLocal = local.tryAcquire(maxConcurrency);
    if (releaseLocal === undefined) return undefined;
    try {
      const lease = await untilEnded(
        budget.acquireIfFree({
          id: budgetId,
          limit: maxConcurrencyPerKey,
          signal: scope.signal,
          deadline: scope.deadline,
        }),
        scope.signal,
      );
      if (lease === undefined || scope.ended) {
        lease?.release();
        releaseLocal();
        return undefined;
      }
      return { release: bothSlots(releaseLocal, () => lease.release()) };
    } catch {
      // A budget that cannot answer has no free slot to give.
      releaseLocal();
      return undefined;
    }
  }
}

/**
 * A budget's answer, or the signal's reason as soon as the call ends: a budget of the user's may
 * not listen to the signal, and the call must not wait for it to answer. A slot it grants after
 * the call ended is given back at once.
 */
function untilEnded<L extends BudgetLease | undefined>(
  answer: Promise<L>,
  signal: AbortSignal,
): Promise<L> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    answer.then(
      (lease) => {
        signal.removeEventListener('abort', onAbort);
        if (!signal.aborted) resolve(lease);
        else if (lease) releaseKey(() => lease.release());
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * How long the slot of a request we cut (aborted before its answer ended: a stall, a race's
 * loser, a stream cancelled mid-body) is kept after the cut: the gateway counts the request until
 * it sees the connection close, and a slot given back at once could send a request the key's
 * limit refuses (`client_concurrency_exceeded`). Measured against the emulator's real HTTP server
 * on loopback (Node's fetch, keep-alive), from the abort to the gateway's release: p99 9–13 ms,
 * at most 47.5 ms with 16 streams running; twice that maximum, since real networks add a trip.
 */
export const CUT_REQUEST_GRACE_MS = 100;

/**
 * How long at most the key's slot of an attempt whose fetch was given up on (send-once.ts,
 * `abandoned`: a custom fetch deaf to its signal) waits for that fetch to settle: till then its
 * request may still be at the gateway, which counts it. A fetch that never settles must not hold
 * the slot for good (four such calls would leave the key none): past the bound, a gateway still
 * counting that request answers the next one 429 `client_concurrency_exceeded`, which is retried.
 * A bounded over-count beats a client that can no longer send. Read at each use: a test lowers it
 * (test/when-idle-drains-held-slots.test.ts); apps never change it.
 */
export const ABANDONED_FETCH_HOLD = { ms: 30_000 };

/** Gives a slot back: returns, when `until` holds the key's, the promise of that hold's end. */
type ReleaseBoth = Slot['release'];

/**
 * The release of a local slot and a key slot together, once: the local one at once. A cut keeps
 * the key's slot the grace; a fetch given up on (`until`), until it settles (the bound at most),
 * then the grace. Not in request-bound runtimes (workerd, edge): a timer dies with the request that
 * set it, and a caller gone away would leave the slot to the 2 s take-back instead.
 */
function bothSlots(local: ReleaseSlot, key: () => void): ReleaseBoth {
  let released = false;
  return (cut, until) => {
    if (released) return undefined;
    released = true;
    local();
    if ((!cut && until === undefined) || REQUEST_BOUND_IO) {
      releaseKey(key);
      return undefined;
    }
    if (until === undefined) {
      keptTheGrace(key);
      return undefined;
    }
    const settled = settledWithin(until, ABANDONED_FETCH_HOLD.ms);
    settled.then(() => keptTheGrace(key));
    return settled;
  };
}

/** Gives a cut request's key slot back after the grace (a release due: releases-due.ts). */
function keptTheGrace(key: () => void): void {
  later(() => releaseKey(key), CUT_REQUEST_GRACE_MS);
}

/**
 * A release that also tells the call's events, once: `released` at once, or, for a slot held for
 * a fetch given up on, when that hold ends — the call's `done` waits for it, a cut request's grace
 * at most (`endsAfter`: a fetch that never settles does not keep the call open).
 */
function toldOnRelease(
  release: ReleaseBoth,
  events: CallEvents,
  attempt: number,
  budgetId: string,
): ReleaseBoth {
  let told = false;
  return (cut, until) => {
    const held = release(cut, until);
    if (told) return held;
    told = true;
    if (held === undefined) events.released(attempt, budgetId, cut);
    else {
      const released = held.then(() => events.released(attempt, budgetId, cut));
      events.endsAfter(settledWithin(released, CUT_REQUEST_GRACE_MS));
    }
    return held;
  };
}

/** Gives a key slot back; a budget's release must not throw, and if one does it goes no further. */
function releaseKey(key: () => void): void {
  try {
    key();
  } catch {
    // (The local slot was given back before.)
  }
}

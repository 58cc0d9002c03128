// docs/gateway-protocol.md §2.5 (a call waiting for one of the key's slots; the budget closed).
import {
  type BudgetAcquireRequest,
  type BudgetLease,
  GatewayError,
  type KeyBudget,
} from '@infergate/core';

/**
 * The calls of one budget under way, so that `close()` ends them: a call still waiting (for this
 * process's own slot, or in Redis's queue) is refused with an `aborted` error saying the budget was
 * closed, and so is every later one; `close()` then waits until each has left Redis's queue (its
 * ticket's release sent) before the connections close. A closed budget counts nothing, so none of
 * this ever goes to the fallback.
 */
export class BudgetClosing {
  /** Set by `close()`: what the waiting calls and the later ones are refused with. */
  error: GatewayError | undefined;
  readonly #closed = new AbortController();
  /** The calls under way (acquire and acquire-if-free), until each settles. */
  readonly #calls = new Set<Promise<unknown>>();
  /** The waits for this process's own slot, each ended by its own controller. */
  readonly #localWaits = new Set<AbortController>();

  /** Aborted by `close()` (with its `error`): what ends the waits of the calls under way at once. */
  get signal(): AbortSignal {
    return this.#closed.signal;
  }

  /**
   * `take` once the call's local `slot` is granted (the slot given back when `take` throws): the
   * call counted among those `close()` waits for until it settles.
   */
  take<T>(slot: Promise<BudgetLease>, take: (slot: BudgetLease) => Promise<T>): Promise<T> {
    const call = slot.then((granted) => leaseOn(granted, take));
    this.#calls.add(call);
    const settled = () => this.#calls.delete(call);
    call.then(settled, settled);
    return call;
  }

  /**
   * The call's slot of `local` (this process's own count): at once when one is free; a call that
   * has to wait for one waits on a signal of its own, which the caller's abort and `close()` end.
   */
  async localSlot(local: KeyBudget, request: BudgetAcquireRequest): Promise<BudgetLease> {
    if (this.error) throw this.error;
    const now = local.state?.(request.id);
    if (now !== undefined && now.active < request.limit && now.queued === 0) {
      return local.acquire(request);
    }
    const wait = new AbortController();
    const onAbort = () => wait.abort(request.signal.reason);
    request.signal.addEventListener('abort', onAbort, { once: true });
    this.#localWaits.add(wait);
    try {
      return await local.acquire({ ...request, signal: wait.signal });
    } finally {
      request.signal.removeEventListener('abort', onAbort);
      this.#localWaits.delete(wait);
    }
  }

  /** Refuses the waiting calls and every later one; resolves once the calls under way settled. */
  async close(): Promise<void> {
    this.error ??= new GatewayError({
      code: 'aborted',
      message:
        '@infergate/redis: the budget was closed (budget.close()): the call got no slot and was not sent',
    });
    this.#closed.abort(this.error);
    for (const wait of this.#localWaits) wait.abort(this.error);
    await Promise.allSettled([...this.#calls]);
  }
}

/** `take` on the local `slot`, which is given back when `take` throws. */
async function leaseOn<T>(slot: BudgetLease, take: (slot: BudgetLease) => Promise<T>): Promise<T> {
  try {
    return await take(slot);
  } catch (error) {
    slot.release();
    throw error;
  }
}

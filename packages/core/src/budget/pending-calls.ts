// docs/gateway-protocol.md §2.5 (the key's slots): what a client's slots do not show of its calls.

/**
 * One client's calls from their start to their end (a stream's: until its body settles, as its
 * slot does — a dropped one's once collected):
 * `client.budget`'s `pendingCalls`. A call holds no slot while its gate reads the catalog or while
 * it sleeps before a retry, so the slots alone would call the client idle then. One increment and
 * one decrement per call; a promise only for a caller of `whenIdle`.
 */
export class PendingCalls {
  #count = 0;
  readonly #idleWaiters: (() => void)[] = [];

  get count(): number {
    return this.#count;
  }

  begin(): void {
    this.#count++;
  }

  end(): void {
    this.#count--;
    // (Usually none waits: no copy of the list is made then.)
    if (this.#count === 0 && this.#idleWaiters.length > 0) {
      for (const resolve of this.#idleWaiters.splice(0)) resolve();
    }
  }

  /** `end`, once, whichever of a stream's ends calls it first (its body settled, its collection). */
  endOnce(): () => void {
    let counted = true;
    return () => {
      if (!counted) return;
      counted = false;
      this.end();
    };
  }

  /** Resolves once no call is pending. */
  whenIdle(): Promise<void> {
    if (this.#count === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }
}

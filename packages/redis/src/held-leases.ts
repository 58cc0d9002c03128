// docs/gateway-protocol.md §2.5 (a slot held until the answer ends: kept alive in Redis meanwhile).
import type { BudgetLease } from '@infergate/core';
import type { RedisConnection } from './redis-connection';
import type { RedisLeases } from './redis-leases';

/** The leases this process holds on one budget id, refreshed together. */
interface HeldId {
  /** Token → the limit its call asked with. */
  tokens: Map<string, number>;
  refresh: ReturnType<typeof setInterval>;
}

/**
 * The leases this process holds, kept alive in Redis: refreshed every TTL/3 while held, re-taken
 * when Redis lost them (on each refresh, on reconnecting, and when a census asks).
 */
export class HeldLeases {
  readonly #leases: RedisLeases;
  readonly #redis: Pick<RedisConnection, 'subscribe'>;
  readonly #ttl: number;
  readonly #held = new Map<string, HeldId>();
  /** Ids whose census channel this process answers. */
  readonly #census = new Set<string>();
  /** `noneHeld()`'s waits. */
  #whenNoneHeld: (() => void)[] = [];

  constructor(leases: RedisLeases, redis: Pick<RedisConnection, 'subscribe'>, ttl: number) {
    this.#leases = leases;
    this.#redis = redis;
    this.#ttl = ttl;
  }

  /**
   * A lease: the local slot, and the token this process keeps counted in Redis until released
   * (then the slot and the token are given back).
   */
  lease(id: string, token: string, limit: number, slot: BudgetLease): BudgetLease {
    this.#hold(id, token, limit);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.#unhold(id, token);
        slot.release();
        this.#leases.release(id, token, limit);
      },
    };
  }

  /**
   * Re-takes every lease held (Redis is back after a drop, maybe a restart that lost them all, or
   * after an outage during which calls ran on the fallback). Resolves once Redis has them all;
   * rejects when any got no answer.
   */
  async retakeAll(): Promise<void> {
    await Promise.all([...this.#held.keys()].map((id) => this.#refresh(id, false)));
  }

  /** Resolves once this process holds no lease (at once when it holds none): `close()` keeps
   *  refreshing the leases of calls still in flight until then. */
  noneHeld(): Promise<void> {
    if (this.#held.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#whenNoneHeld.push(resolve));
  }

  /** Stops the refreshes (the budget closes), and ends `noneHeld()`'s waits: a `close()` still
   *  waiting for the calls in flight resolves with the one (`close({ signal })`) that gave up. */
  close(): void {
    for (const entry of this.#held.values()) clearInterval(entry.refresh);
    this.#held.clear();
    for (const resolve of this.#whenNoneHeld.splice(0)) resolve();
  }

  #hold(id: string, token: string, limit: number): void {
    let entry = this.#held.get(id);
    if (!entry) {
      const refresh = setInterval(
        // (Not answered: still counted here, on the local slot; re-taken at the next refresh.)
        () => this.#refresh(id, false).catch(() => {}),
        Math.max(10, Math.floor(this.#ttl / 3)),
      );
      refresh.unref?.();
      entry = { tokens: new Map(), refresh };
      this.#listenForCensus(id);
      this.#held.set(id, entry);
    }
    entry.tokens.set(token, limit);
  }

  #unhold(id: string, token: string): void {
    const entry = this.#held.get(id);
    if (!entry) return;
    entry.tokens.delete(token);
    if (entry.tokens.size > 0) return;
    this.#held.delete(id);
    clearInterval(entry.refresh);
    if (this.#held.size > 0) return;
    for (const resolve of this.#whenNoneHeld.splice(0)) resolve();
  }

  /** Extends (and re-takes when lost) every lease this process holds on `id`. */
  async #refresh(id: string, census: boolean): Promise<void> {
    const entry = this.#held.get(id);
    const tokens = entry ? [...entry.tokens.keys()] : [];
    if (tokens.length === 0 && !census) return;
    // (A census answer holding nothing sends no token and records no limit.)
    const limit = tokens.length > 0 && entry ? Math.min(...entry.tokens.values()) : 0;
    await this.#leases.refresh(id, tokens, limit, census);
  }

  /**
   * Answers a census (re-taking what this process holds of `id`, or nothing): an acquire found
   * leases of this budget instance expired (asked on its wake channel), or the id's state lost.
   */
  answerCensus(id: string): void {
    this.#refresh(id, true).catch(() => {}); // unanswered: the settle period ends by itself
  }

  /**
   * From its first lease of `id` on, this process listens on the id's census channel (a census
   * after Redis lost the id's state) and answers each: an acquire that counted it among the
   * listeners waits for its answer, so it never leaves while one may be on its way.
   */
  #listenForCensus(id: string): void {
    if (this.#census.has(id)) return;
    this.#census.add(id);
    void this.#redis
      .subscribe(this.#leases.keys(id).census, () => this.answerCensus(id))
      .then((active) => {
        if (!active) this.#census.delete(id); // (Redis away: the next lease of `id` tries again)
      });
  }
}

// docs/gateway-protocol.md §2.5 (a slot of the key taken, kept and given back in Redis).
import {
  ACQUIRE_IF_FREE_SCRIPT,
  ACQUIRE_SCRIPT,
  type LeaseKeys,
  leaseKeys,
  REFRESH_SCRIPT,
  RELEASE_SCRIPT,
} from './lease-scripts';
import type { RedisConnection } from './redis-connection';

/** What one run of the acquire script answered. */
export interface AcquireAnswer {
  granted: boolean;
  /** The smallest limit recorded for the id: the one that applies to every process. */
  appliedLimit: number;
  /** Queued: how many waiters are in line before this one (0: next). Not `ahead`, which is the
   *  request's flag (a failover's next attempt, `BudgetAcquireRequest.ahead`). */
  waitersBefore: number;
  /** Queued: ms until a lease expires or a settle period ends (no message announces either);
   *  undefined when neither is pending. */
  nextChangeMs: number | undefined;
  /** Queued: the server's time (ms) when the script ran; undefined when granted. */
  serverNow: number | undefined;
}

/** The budget's counters these scripts feed (`RedisBudgetStats`). */
interface LeaseCounters {
  expiredLeases: number;
  retakenLeases: number;
}

interface RedisLeasesOptions {
  keyPrefix: string;
  ttl: number;
  commandTimeout: number;
  /** A refresh re-took leases of this process past the key's limit (see `refresh`). */
  onPastLimit?: () => void;
}

/**
 * The budget's three scripts (acquire, refresh, release) run on its connection: lease acquire,
 * renewal and release in Redis, each a single round trip. Counts `expiredLeases` and
 * `retakenLeases` in `stats`.
 */
export class RedisLeases {
  /** This budget's own name in tokens and wake channels: random, never derived from the key. */
  readonly instance = crypto.randomUUID();
  #tokens = 0;
  readonly #redis: RedisConnection;
  readonly #options: RedisLeasesOptions;
  readonly #stats: LeaseCounters;
  /** The releases sent and not answered yet. */
  readonly #releasing = new Set<Promise<void>>();
  /** Ids whose state this process has seen in Redis: finding it gone later means Redis lost it. */
  readonly #known = new Set<string>();

  constructor(redis: RedisConnection, options: RedisLeasesOptions, stats: LeaseCounters) {
    this.#redis = redis;
    this.#options = options;
    this.#stats = stats;
  }

  keys(id: string): LeaseKeys {
    return leaseKeys(this.#options.keyPrefix, id);
  }

  /** A lease's token, `<instance>:<n>:<ttl>`: unique across processes; a slot handed over to it
   *  is announced on this instance's wake channel (`wakeChannel`); the TTL tells the scripts how
   *  often its waiter asks (lease-scripts.ts, GRANT). */
  newToken(): string {
    this.#tokens += 1;
    return `${this.instance}:${this.#tokens}:${this.#options.ttl}`;
  }

  /** Where the scripts announce the slots they hand to this instance's waiters on `id`. */
  wakeChannel(id: string): string {
    return `${this.keys(id).wake}${this.instance}`;
  }

  /**
   * Takes a slot for `token`, or its place in the queue (kept until released). `ahead`
   * (`BudgetAcquireRequest.ahead`, a failover's next attempt): ticketed before the waiters that did
   * not ask for it. Rejects when Redis does not answer in time, or `signal` aborts first: the
   * script may still run, so the caller releases the token.
   */
  async acquire(
    id: string,
    token: string,
    limit: number,
    ahead: boolean,
    signal: AbortSignal,
  ): Promise<AcquireAnswer> {
    const answer = await this.#redis.run(
      ACQUIRE_SCRIPT,
      this.#acquireKeys(id),
      [...this.#acquireArgs(id, token, limit), ahead ? '1' : '0'],
      signal,
    );
    this.#known.add(id);
    const [granted, expired, applied, waitersBefore, change, now] = answer as number[];
    this.#stats.expiredLeases += Number(expired);
    return {
      granted: Number(granted) === 1,
      appliedLimit: Number(applied),
      waitersBefore: Number(waitersBefore ?? 0),
      nextChangeMs: change === undefined || Number(change) < 0 ? undefined : Number(change),
      serverNow: now === undefined ? undefined : Number(now),
    };
  }

  /**
   * Takes a slot for `token` only if one is free and nobody waits (the waiters are served first),
   * never queueing: refused, the token leaves nothing in Redis. Rejects when Redis does not answer
   * in time, or `signal` aborts first: the script may still run, so the caller releases the token.
   */
  async acquireIfFree(
    id: string,
    token: string,
    limit: number,
    signal: AbortSignal,
  ): Promise<Pick<AcquireAnswer, 'granted' | 'appliedLimit'>> {
    const answer = await this.#redis.run(
      ACQUIRE_IF_FREE_SCRIPT,
      this.#acquireKeys(id),
      this.#acquireArgs(id, token, limit),
      signal,
    );
    this.#known.add(id);
    const [granted, expired, applied] = answer as number[];
    this.#stats.expiredLeases += Number(expired);
    return { granted: Number(granted) === 1, appliedLimit: Number(applied) };
  }

  #acquireKeys(id: string): string[] {
    const keys = this.keys(id);
    return [keys.holders, keys.queue, keys.seen, keys.seq, keys.expired, keys.limits, keys.settle];
  }

  /** ARGV[1..6] of the acquire scripts. */
  #acquireArgs(id: string, token: string, limit: number): string[] {
    const keys = this.keys(id);
    const known = this.#known.has(id) ? '1' : '0';
    return [token, String(limit), String(this.#options.ttl), known, keys.census, keys.wake];
  }

  /**
   * Removes a token from Redis (holder or waiter). A release whose reply is lost or late is sent
   * again until it is answered or the lease would have expired anyway: no orphan slot. `until` is
   * on the monotonic clock (`performance.now()`): a wall clock stepped forward (NTP, a VM resume)
   * must not end the retries early, nor one stepped back make them run past the TTL.
   */
  release(
    id: string,
    token: string,
    limit: number,
    until = performance.now() + this.#options.ttl,
  ): void {
    const keys = this.keys(id);
    const sent: Promise<void> = this.#redis
      .run(
        RELEASE_SCRIPT,
        [keys.holders, keys.queue, keys.seen, keys.limits, keys.settle, keys.seq],
        [token, keys.wake, String(limit), String(this.#options.ttl)],
      )
      .then(
        () => {},
        () => {
          // Closed, refused, or expired by its TTL by now: nothing left to release.
          if (this.#redis.closed || this.#redis.refusal || performance.now() >= until) return;
          setTimeout(
            () => this.release(id, token, limit, until),
            Math.min(this.#options.commandTimeout, 1000),
          ).unref?.();
        },
      )
      .finally(() => this.#releasing.delete(sent));
    this.#releasing.add(sent);
  }

  /**
   * Resolves once every release sent so far is answered (or failed): closing the connection
   * before would drop them, and their slots would stay taken for a TTL.
   */
  async flush(): Promise<void> {
    await Promise.all([...this.#releasing]);
  }

  /**
   * Extends the leases `tokens` (and re-takes those Redis lost), recording `limit`; `census` when
   * answering a census. Rejects when Redis did not answer: the periodic refresh leaves it to the
   * next one (the calls stay counted locally), the end of an outage tries again. Leases re-taken
   * past the key's limit (other calls were granted their slots meanwhile) stay counted, since their
   * calls are in flight, and `onPastLimit` is told.
   */
  async refresh(id: string, tokens: readonly string[], limit: number, census: boolean) {
    const keys = this.keys(id);
    const [retaken, past] = (await this.#redis.run(
      REFRESH_SCRIPT,
      [keys.holders, keys.limits, keys.settle, keys.queue, keys.seen, keys.seq],
      [String(this.#options.ttl), String(limit), census ? '1' : '0', keys.wake, ...tokens],
    )) as number[];
    this.#stats.retakenLeases += Number(retaken);
    if (Number(past) === 1) this.#options.onPastLimit?.();
  }
}

import {
  type BudgetAcquireRequest,
  type BudgetLease,
  createInProcessBudget,
  GatewayError,
  type KeyBudget,
} from '@infergate/core';
import { ACQUIRE_SCRIPT, REFRESH_SCRIPT, RELEASE_SCRIPT } from './lease-scripts';
import { connectRedis, RedisTimeout } from './redis-connection';

export interface RedisBudgetOptions {
  /** `redis://host:port` or `rediss://…` (TLS, e.g. Upstash). */
  url: string;
  /** Lease time to live: a crashed process's slot comes back after at most this. Default 15000. */
  leaseTtlMs?: number;
  /** Key prefix in Redis. Default `infergate:budget`. */
  keyPrefix?: string;
  /** Redis down, unreachable or slower than `commandTimeoutMs`: `'fallback'` (default) counts the
   *  call in an in-process budget that also counts the calls this process already holds (the
   *  limit per process, not shared) and warns once; `'error'` fails the call with a GatewayError
   *  `network_error`. */
  onRedisFailure?: 'fallback' | 'error';
  /** Longest wait between two tries while queued when no wake-up arrives. Default 1000. */
  maxPollIntervalMs?: number;
  /** Bound on every Redis command; past it Redis counts as unreachable. Default 2000. */
  commandTimeoutMs?: number;
  /** Where the one warning goes. Default `console.warn`. */
  warn?: (message: string) => void;
}

export interface RedisBudgetStats {
  /** Leases of crashed or stalled holders removed by their TTL when this process acquired. */
  expiredLeases: number;
  /** Leases of this process that Redis had lost (expired during a stall, or wiped by a restart or
   *  `FLUSHALL`) and that the refresh took again, so their calls stay counted until they end. */
  retakenLeases: number;
  /** Redis round trips made (acquire, refresh and release scripts). */
  roundTrips: number;
  /** Calls served by the in-process fallback while Redis was unreachable (or slower than
   *  `commandTimeoutMs`). */
  fallbackAcquires: number;
}

export interface RedisBudget extends KeyBudget {
  readonly stats: RedisBudgetStats;
  /** Closes the Redis connections. */
  close(): Promise<void>;
}

let tokenCounter = 0;

function newToken(): string {
  tokenCounter += 1;
  return `${crypto.randomUUID()}:${tokenCounter}`;
}

/** The leases this process holds on one budget id, refreshed together. */
interface HeldId {
  /** Token → the limit its call asked with. */
  tokens: Map<string, number>;
  refresh: ReturnType<typeof setInterval>;
}

/**
 * A KeyBudget shared by every process that points at the same Redis: a counting semaphore per
 * budget id (already a hash of origin and key; the key itself never reaches Redis).
 *
 * Every call first takes a slot of an in-process budget with the same limit, then its lease in
 * Redis: the process never runs more than the limit whatever Redis does, and when Redis cannot be
 * reached the fallback is that in-process slot, which already counts the calls the process holds.
 */
export function createRedisBudget(options: RedisBudgetOptions): RedisBudget {
  const ttl = options.leaseTtlMs ?? 15_000;
  const prefix = options.keyPrefix ?? 'infergate:budget';
  const policy = options.onRedisFailure ?? 'fallback';
  const maxPoll = options.maxPollIntervalMs ?? 1000;
  const commandTimeout = options.commandTimeoutMs ?? 2000;
  const warn = options.warn ?? ((message: string) => console.warn(message));
  const stats: RedisBudgetStats = {
    expiredLeases: 0,
    retakenLeases: 0,
    roundTrips: 0,
    fallbackAcquires: 0,
  };
  // Every call of this process, held in Redis or not, and those waiting for Redis: at most the
  // limit per id (also bounds the waiters that contend in Redis, so a release does not wake a herd).
  const local = createInProcessBudget();
  const warned = new Set<'fallback' | 'limit'>();
  const warnOnce = (kind: 'fallback' | 'limit', message: string) => {
    if (warned.has(kind)) return;
    warned.add(kind);
    warn(message);
  };
  const held = new Map<string, HeldId>();
  // Ids whose state this process has seen in Redis: finding it gone later means Redis lost it.
  const known = new Set<string>();

  const redis = connectRedis(options.url, commandTimeout, () => {
    stats.roundTrips += 1;
  });
  // Back after a drop (maybe a restart that lost every lease): re-take what this process holds.
  redis.onReady(() => {
    for (const id of held.keys()) refreshHeld(id, false);
  });

  const keysOf = (id: string) => {
    const base = `{${prefix}:${id}}`;
    return {
      holders: `${base}:holders`,
      queue: `${base}:queue`,
      seen: `${base}:seen`,
      seq: `${base}:seq`,
      expired: `${base}:expired`,
      limits: `${base}:limits`,
      settle: `${base}:settle`,
      channel: `${base}:released`,
      census: `${base}:census`,
    };
  };

  const { run, subscribe } = redis;

  /**
   * Removes a token from Redis (holder or waiter). A release whose reply is lost or late is sent
   * again until it is answered or the lease would have expired anyway: no orphan slot.
   */
  function releaseInRedis(id: string, token: string, limit: number, until = Date.now() + ttl) {
    const keys = keysOf(id);
    run(
      RELEASE_SCRIPT,
      [keys.holders, keys.queue, keys.seen, keys.limits],
      [token, keys.channel, String(limit)],
    ).catch(() => {
      if (redis.closed || Date.now() >= until) return; // expired by its TTL by now
      setTimeout(
        () => releaseInRedis(id, token, limit, until),
        Math.min(commandTimeout, 1000),
      ).unref?.();
    });
  }

  /** Extends (and re-takes when lost) every lease this process holds on `id`. */
  function refreshHeld(id: string, census: boolean): void {
    const entry = held.get(id);
    const tokens = entry ? [...entry.tokens.keys()] : [];
    if (tokens.length === 0 && !census) return;
    // (A census answer holding nothing sends no token and records no limit.)
    const limit = tokens.length > 0 && entry ? Math.min(...entry.tokens.values()) : 0;
    const keys = keysOf(id);
    run(
      REFRESH_SCRIPT,
      [keys.holders, keys.limits, keys.settle],
      [String(ttl), String(limit), census ? '1' : '0', ...tokens],
    )
      .then((retaken) => {
        stats.retakenLeases += Number(retaken);
      })
      .catch(() => {}); // still counted here (local slot); re-taken at the next refresh
  }

  /**
   * From its first lease of `id` on, this process listens on the id's census channel and answers
   * every census (re-taking what it holds, or nothing): an acquire that counted it among the
   * listeners waits for its answer, so it never leaves while one may be on its way.
   */
  const census = new Set<string>();
  function answerCensus(id: string): void {
    if (census.has(id)) return;
    census.add(id);
    void subscribe(keysOf(id).census, () => refreshHeld(id, true));
  }

  function hold(id: string, token: string, limit: number): void {
    let entry = held.get(id);
    if (!entry) {
      const refresh = setInterval(() => refreshHeld(id, false), Math.max(10, Math.floor(ttl / 3)));
      refresh.unref?.();
      entry = { tokens: new Map(), refresh };
      answerCensus(id);
      held.set(id, entry);
    }
    entry.tokens.set(token, limit);
  }

  function unhold(id: string, token: string): void {
    const entry = held.get(id);
    if (!entry) return;
    entry.tokens.delete(token);
    if (entry.tokens.size > 0) return;
    held.delete(id);
    clearInterval(entry.refresh);
  }

  /** A lease: the local slot, and the token this process keeps counted in Redis until released. */
  function lease(id: string, token: string, limit: number, slot: BudgetLease): BudgetLease {
    hold(id, token, limit);
    let released = false;
    return {
      release() {
        if (released) return;
        released = true;
        unhold(id, token);
        slot.release();
        releaseInRedis(id, token, limit);
      },
    };
  }

  function redisFailed(
    request: BudgetAcquireRequest,
    slot: BudgetLease,
    cause: unknown,
  ): BudgetLease {
    if (policy === 'error') {
      slot.release();
      throw new GatewayError({
        code: 'network_error',
        message: 'The shared key budget is unavailable: Redis cannot be reached',
        cause,
        isRetryable: true,
      });
    }
    warnOnce(
      'fallback',
      '@infergate/redis: Redis cannot be reached; using an in-process budget (limit per process, not shared) until it is back',
    );
    stats.fallbackAcquires += 1;
    // The local slot is the fallback. Its token is re-taken in Redis by the refresh once Redis
    // answers, so other processes count this call while it runs.
    return lease(request.id, newToken(), request.limit, slot);
  }

  async function acquire(request: BudgetAcquireRequest): Promise<BudgetLease> {
    request.signal.throwIfAborted();
    const slot = await local.acquire(request);
    try {
      return await acquireInRedis(request, slot);
    } catch (error) {
      slot.release();
      throw error;
    }
  }

  async function acquireInRedis(
    request: BudgetAcquireRequest,
    slot: BudgetLease,
  ): Promise<BudgetLease> {
    const { id, limit, signal } = request;
    const keys = keysOf(id);
    let token = newToken();
    const scriptKeys = [
      keys.holders,
      keys.queue,
      keys.seen,
      keys.seq,
      keys.expired,
      keys.limits,
      keys.settle,
    ];
    let wake: (() => void) | undefined;
    let unsubscribe: (() => void) | undefined;
    let failingSince: number | undefined;
    try {
      for (let attempt = 0; ; attempt++) {
        const args = [token, String(limit), String(ttl), known.has(id) ? '1' : '0', keys.census];
        let answer: unknown;
        try {
          answer = await run(ACQUIRE_SCRIPT, scriptKeys, args);
        } catch (cause) {
          // No answer (in time): the script may still run and take a slot or a place in the queue.
          releaseInRedis(id, token, limit);
          if (signal.aborted) throw signal.reason;
          failingSince ??= Date.now();
          const dropped = !redis.closed && !(cause instanceof RedisTimeout);
          if (dropped && Date.now() - failingSince < commandTimeout) {
            // The connection dropped (a restart?): try again, with a new token, once Redis is
            // back (`run` waits for it), within one command timeout.
            token = newToken();
            await new Promise((resolve) => setTimeout(resolve, 50));
            continue;
          }
          return redisFailed(request, slot, cause);
        }
        failingSince = undefined;
        known.add(id);
        const [granted, expired, applied] = answer as [number, number, number];
        stats.expiredLeases += Number(expired);
        if (Number(applied) < limit) {
          warnOnce(
            'limit',
            `@infergate/redis: another process uses this key with a limit of ${applied}; the smallest limit applies to all (this process asked for ${limit})`,
          );
        }
        if (signal.aborted) {
          // Granted or queued just as the caller left: give it back.
          releaseInRedis(id, token, limit);
          throw signal.reason;
        }
        if (Number(granted) === 1) return lease(id, token, limit, slot);
        if (!unsubscribe) {
          // Woken only when a release names this waiter among the first in line.
          unsubscribe = await subscribe(keys.channel, (message) => {
            if (message.split(' ').includes(token)) wake?.();
          });
        }
        // Wait for a release message, the caller's abort, or a bounded poll (lost messages).
        const pause = Math.min(maxPoll, 50 * 2 ** Math.min(attempt, 5), Math.max(10, ttl / 3));
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            signal.removeEventListener('abort', done);
            wake = undefined;
            resolve();
          };
          const timer = setTimeout(done, pause);
          wake = done;
          signal.addEventListener('abort', done, { once: true });
        });
        if (signal.aborted) {
          releaseInRedis(id, token, limit);
          throw signal.reason;
        }
      }
    } finally {
      unsubscribe?.();
    }
  }

  return {
    stats,
    acquire,
    async close() {
      for (const entry of held.values()) clearInterval(entry.refresh);
      held.clear();
      await redis.close();
    },
  };
}

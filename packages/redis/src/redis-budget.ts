// docs/gateway-protocol.md §2.5 (the key's 4 slots, shared by every process on one Redis).
import {
  type BudgetAcquireRequest,
  type BudgetLease,
  createInProcessBudget,
  GatewayError,
  type KeyBudget,
} from '@infergate/core';
import { acquireLease, type LeaseQueue } from './acquire-lease';
import { HeldLeases } from './held-leases';
import { probeKeys } from './redis-access';
import { connectRedis, type RedisTlsOptions } from './redis-connection';
import { redisFailurePolicy, warnOnceEach } from './redis-failure-policy';
import { RedisLeases } from './redis-leases';
import { WakeUps } from './wake-ups';

export interface RedisBudgetOptions {
  /** `redis://host:port` or `rediss://user:password@host:port` (TLS; an ACL user). */
  url: string;
  /** TLS settings for a `rediss://` URL, e.g. `ca` for a private certificate authority. */
  tls?: RedisTlsOptions;
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
  /** Redis round trips made (acquire, refresh and release scripts, and the one access check). */
  roundTrips: number;
  /** Calls served by the in-process fallback while Redis was unreachable (or slower than
   *  `commandTimeoutMs`). */
  fallbackAcquires: number;
}

export interface RedisBudget extends KeyBudget {
  readonly stats: RedisBudgetStats;
  /**
   * Connects now and checks that this Redis lets the budget in (credentials, TLS certificate, the
   * user's commands, keys and channels). Optional: the first call does the same. Rejects with a
   * `GatewayError`: `configuration_error` when Redis refused the budget, `network_error` when it
   * did not answer within `commandTimeoutMs`.
   */
  ready(): Promise<void>;
  /** Sends the releases still pending (bounded by `commandTimeoutMs`), then closes the Redis
   *  connections. */
  close(): Promise<void>;
}

/**
 * A KeyBudget shared by every process that points at the same Redis: a counting semaphore per
 * budget id (already a hash of origin and key; the key itself never reaches Redis).
 *
 * Every call first takes a slot of an in-process budget with the same limit, then its lease in
 * Redis: the process never runs more than the limit whatever Redis does, and when Redis cannot be
 * reached the fallback is that in-process slot, which already counts the calls the process holds.
 * The pieces: the scripts' round trips (`redis-leases.ts`), the leases held and kept alive
 * (`held-leases.ts`), the wait in the queue (`acquire-lease.ts`, `wake-ups.ts`) and the failure
 * policy (`redis-failure-policy.ts`).
 */
export function createRedisBudget(options: RedisBudgetOptions): RedisBudget {
  const ttl = options.leaseTtlMs ?? 15_000;
  const commandTimeout = options.commandTimeoutMs ?? 2000;
  const stats: RedisBudgetStats = {
    expiredLeases: 0,
    retakenLeases: 0,
    roundTrips: 0,
    fallbackAcquires: 0,
  };
  // Every call of this process, held in Redis or not, and those waiting for Redis: at most the
  // limit per id (also bounds the waiters that contend in Redis, so a release does not wake a herd).
  const local = createInProcessBudget();
  const warnOnce = warnOnceEach(options.warn ?? ((message: string) => console.warn(message)));
  const keyPrefix = options.keyPrefix ?? 'infergate:budget';
  const redis = connectRedis({
    url: options.url,
    commandTimeout,
    ...(options.tls === undefined ? {} : { tls: options.tls }),
    probe: probeKeys(keyPrefix),
    onSend: () => {
      stats.roundTrips += 1;
    },
  });
  const leases = new RedisLeases(redis, { keyPrefix, ttl, commandTimeout }, stats);
  const held = new HeldLeases(leases, redis, ttl);
  const wakeUps = new WakeUps(redis, leases, (id) => held.answerCensus(id));
  // Back after a drop (maybe a restart that lost every lease): re-take what this process holds,
  // and let every waiter ask again (a slot handed over meanwhile was announced to nobody).
  redis.onReady(() => {
    held.retakeAll();
    wakeUps.pollAll();
  });
  const policy = options.onRedisFailure ?? 'fallback';
  const queue: LeaseQueue = {
    leases,
    held,
    wakeUps,
    redis,
    ttl,
    maxPoll: options.maxPollIntervalMs ?? 1000,
    commandTimeout,
    warnOnce,
    onRedisFailure: redisFailurePolicy(policy, held, leases, warnOnce, stats),
  };

  async function acquire(request: BudgetAcquireRequest): Promise<BudgetLease> {
    request.signal.throwIfAborted();
    const slot = await local.acquire(request);
    try {
      return await acquireLease(queue, request, slot);
    } catch (error) {
      slot.release();
      throw error;
    }
  }

  return {
    stats,
    acquire,
    async ready() {
      try {
        await redis.ready();
      } catch (cause) {
        if (cause instanceof GatewayError) throw cause;
        throw new GatewayError({
          code: 'network_error',
          message: `@infergate/redis: Redis did not answer within ${commandTimeout} ms`,
          cause,
        });
      }
    },
    async close() {
      held.close();
      // The releases just sent go out first (each bounded by the command timeout): a call that
      // ended right before close() gives its slot back now, not after a TTL.
      await leases.flush();
      await redis.close();
    },
  };
}

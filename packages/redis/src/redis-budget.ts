// docs/gateway-protocol.md §2.5 (the key's 4 slots, shared by every process on one Redis).
import {
  type BudgetAcquireRequest,
  type BudgetLease,
  createInProcessBudget,
  GatewayError,
  type KeyBudget,
} from '@infergate/core';
import { acquireLease, acquireLeaseIfFree, type LeaseQueue } from './acquire-lease';
import { BudgetClosing } from './budget-closing';
import { HeldLeases } from './held-leases';
import { probeKeys } from './redis-access';
import { checkCloseOptions, checkRedisBudgetOptions } from './redis-budget-options';
import {
  connectRedis,
  maxReconnectDelayFor,
  type RedisConnection,
  type RedisTlsOptions,
  withTimeout,
} from './redis-connection';
import { pastLimitWarning, redisFailurePolicy, warnOnceEach } from './redis-failure-policy';
import { RedisLeases } from './redis-leases';
import { failureWords } from './redis-outage';
import { WakeUps } from './wake-ups';

export interface RedisBudgetOptions {
  /** `redis://host:port` or `rediss://user:password@host:port` (TLS; an ACL user). */
  url: string;
  /** TLS settings for a `rediss://` URL, e.g. `ca` for a private certificate authority. */
  tls?: RedisTlsOptions;
  /** Lease time to live: a crashed process's slot comes back after at most this. An integer of
   *  ms ≥ 1000. Default 15000. */
  leaseTtlMs?: number;
  /** Key prefix in Redis. Default `infergate:budget`. */
  keyPrefix?: string;
  /** Redis down, unreachable, slower than `commandTimeoutMs`, or answering the budget's scripts
   *  with an error (READONLY after a failover, OOM): `'fallback'` (default) counts the
   *  call in an in-process budget that also counts the calls this process already holds (the
   *  limit per process, not shared) and warns once; `'error'` fails the call with a GatewayError
   *  `network_error`. Once one call found Redis unreachable, the next calls do this at once
   *  (nothing waits for Redis) until Redis answers again, which the budget watches for. */
  onRedisFailure?: 'fallback' | 'error';
  /** Longest wait between two tries while queued when no wake-up arrives. Default 1000. */
  maxPollIntervalMs?: number;
  /** Bound on connecting and on every Redis command; past it Redis counts as unreachable until
   *  it answers again. Default 2000. */
  commandTimeoutMs?: number;
  /** Where the one fallback warning (saying why), the one limit warning, the one warning of
   *  leases re-taken past the key's limit (after a stall) and the one of an `allkeys-*` maxmemory
   *  policy go. Default `console.warn`. */
  warn?: (message: string) => void;
}

export interface RedisBudgetStats {
  /** Leases of crashed or stalled holders removed by their TTL when this process acquired. */
  expiredLeases: number;
  /** Leases of this process that Redis had lost (expired during a stall, or wiped by a restart or
   *  `FLUSHALL`) or never had (calls that ran on the fallback while it was unreachable), taken in
   *  Redis since, so their calls stay counted until they end. */
  retakenLeases: number;
  /** Redis round trips made (acquire, refresh and release scripts, the one access check, and the
   *  one probe at a time that watches for Redis while it is unreachable). */
  roundTrips: number;
  /** Calls (`acquire` and `acquireIfFree`) served by the in-process fallback while Redis was
   *  unreachable (or slower than `commandTimeoutMs`). */
  fallbackAcquires: number;
}

export interface RedisBudget extends KeyBudget {
  readonly stats: RedisBudgetStats;
  /**
   * A slot at once when one of the key's is free and no call of the key waits for one (in this
   * process or another), else `undefined`: one script round trip that never queues, so it never
   * goes ahead of a waiting call (a hedged request's second attempt asks this way). The lease is
   * like any other: refreshed while held, given back by `release()`. While Redis cannot be
   * reached it answers as `onRedisFailure` does: `'fallback'` the in-process slot when free;
   * `'error'` `undefined` (nothing shared can be granted; not an error, the attempt is optional).
   */
  acquireIfFree(request: BudgetAcquireRequest): Promise<BudgetLease | undefined>;
  /**
   * This process's calls of budget `id` (what `client.budget` shows), read without asking Redis:
   * `active` those holding a slot (a lease in Redis, or the fallback's while Redis is unreachable),
   * `queued` those waiting for one (for one of the process's own `limit` slots, or in Redis's
   * line). Other processes' calls are not counted: Redis's line and leases are theirs too.
   */
  state(id: string): { active: number; queued: number };
  /**
   * Connects now and checks that this Redis lets the budget in (credentials, TLS certificate, the
   * user's commands, keys and channels). Optional: the first call does the same. Rejects with a
   * `GatewayError`: `configuration_error` when Redis refused the budget (a Redis Cluster
   * included: not supported), `network_error` when it did not answer within `commandTimeoutMs`
   * (while it is known unreachable: did not come back within it) or answered with an error
   * (READONLY, OOM: at once), saying why: refused, no answer, a URL scheme the server does not
   * speak (`redis://` on a TLS port, `rediss://` on a plain one), Redis's own words; `aborted`
   * after `close()`, as `acquire` does.
   */
  ready(): Promise<void>;
  /**
   * Refuses the calls still waiting for a slot at once, and every later one, with a `GatewayError`
   * `aborted` (the budget was closed; never the fallback), takes their tickets out of Redis, keeps
   * refreshing the leases of the calls still in flight until each is released, sends the releases
   * still pending (waiting for them `commandTimeoutMs` at most), then closes the Redis connections
   * (at once when Redis is known unreachable). `signal`: aborted, it stops waiting for the calls
   * in flight (e.g. `AbortSignal.timeout(25_000)` within a grace period); their leases then stay
   * counted in Redis until their TTL runs out (a call may still run). No bound without one (only
   * the app knows its grace period). Options checked first: `configuration_error`, nothing closed.
   */
  close(options?: { signal?: AbortSignal }): Promise<void>;
}

/**
 * A KeyBudget shared by every process that points at the same Redis: a counting semaphore per
 * budget id (already a hash of origin and key; the key itself never reaches Redis).
 *
 * Every call first takes a slot of an in-process budget with the same limit, then its lease in
 * Redis: the process never runs more than the limit whatever Redis does, and when Redis cannot be
 * reached the fallback is that in-process slot, which already counts the calls the process holds.
 * The pieces: the scripts' round trips (`redis-leases.ts`), the leases held and kept alive
 * (`held-leases.ts`), the wait in the queue (`acquire-lease.ts`, `wake-ups.ts`), the failure
 * policy (`redis-failure-policy.ts`) and a known outage with its end (`redis-outage.ts`,
 * `redis-connection.ts`).
 */
export function createRedisBudget(options: RedisBudgetOptions): RedisBudget {
  checkRedisBudgetOptions(options);
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
    maxReconnectDelay: maxReconnectDelayFor(ttl),
    ...(options.tls === undefined ? {} : { tls: options.tls }),
    probe: probeKeys(keyPrefix),
    onSend: () => {
      stats.roundTrips += 1;
    },
    onAllKeysEviction: (policy) => warnOnce('eviction', allKeysEvictionWarning(policy)),
  });
  const onPastLimit = pastLimitWarning(warnOnce);
  const leases = new RedisLeases(redis, { keyPrefix, ttl, commandTimeout, onPastLimit }, stats);
  const held = new HeldLeases(leases, redis, ttl);
  const wakeUps = new WakeUps(redis, leases, (id) => held.answerCensus(id));
  // Back after a drop (maybe a restart that lost every lease): re-take what this process holds,
  // and let every waiter ask again (a slot handed over meanwhile was announced to nobody).
  redis.onReady(() => {
    held.retakeAll().catch(() => {}); // (the next refresh tries again)
    wakeUps.pollAll();
  });
  // Redis known unreachable: the waiters stop waiting for it (the failure policy, at once). Back
  // from it: what ran on the fallback is counted in Redis before anything else of this process.
  redis.onOutage(() => wakeUps.pollAll());
  redis.onRecovery(() => held.retakeAll());
  const closing = new BudgetClosing();
  const queue: LeaseQueue = {
    closing,
    leases,
    held,
    wakeUps,
    redis,
    ttl,
    maxPoll: options.maxPollIntervalMs ?? 1000,
    commandTimeout,
    warnOnce,
    onRedisFailure: redisFailurePolicy(options.onRedisFailure ?? 'fallback', {
      held,
      leases,
      redis,
      warnOnce,
      stats,
    }),
  };

  return {
    stats,
    ...callsOf(local, closing, queue),
    ready: () => readyOrWhy(redis, commandTimeout, closing),
    close: async (options) => {
      checkCloseOptions(options);
      await closeBudget({ closing, wakeUps, held, leases, redis, commandTimeout }, options?.signal);
    },
  };
}

/**
 * The budget's calls (`acquire`, `acquireIfFree`) and its count of them (`state`): each takes this
 * process's own slot (`local`), then its lease in Redis or the fallback's.
 */
function callsOf(
  local: KeyBudget,
  closing: BudgetClosing,
  queue: LeaseQueue,
): Pick<RedisBudget, 'acquire' | 'acquireIfFree' | 'state'> {
  // This process's calls of each id past its own slot and not yet granted by Redis or the fallback.
  const asking = new Map<string, number>();
  return {
    async acquire(request) {
      request.signal.throwIfAborted();
      const slot = closing.localSlot(local, request);
      return closing.take(slot, (own) =>
        counted(asking, request.id, acquireLease(queue, request, own)),
      );
    },
    async acquireIfFree(request) {
      request.signal.throwIfAborted();
      if (closing.error) throw closing.error;
      const slot = localSlotIfFree(local, request);
      return (
        slot &&
        closing.take(slot, (own) =>
          counted(asking, request.id, acquireLeaseIfFree(queue, request, own)),
        )
      );
    },
    state(id) {
      const own = local.state?.(id) ?? { active: 0, queued: 0 };
      const waiting = asking.get(id) ?? 0;
      return { active: own.active - waiting, queued: own.queued + waiting };
    },
  };
}

/** `call`, counted in `asking` under `id` until it settles. */
function counted<T>(asking: Map<string, number>, id: string, call: Promise<T>): Promise<T> {
  asking.set(id, (asking.get(id) ?? 0) + 1);
  const settled = () => {
    const left = (asking.get(id) ?? 1) - 1;
    if (left > 0) asking.set(id, left);
    else asking.delete(id);
  };
  call.then(settled, settled);
  return call;
}

/** Why an `allkeys-*` policy is a problem, said once: Redis may evict the budget's own keys. */
function allKeysEvictionWarning(policy: string): string {
  return `@infergate/redis: this Redis's maxmemory-policy is ${policy}, which the budget does not support: when Redis is full it may evict the leases of calls still in flight (the gateway then sees more than the key's limit) and waiters' places in line; use noeviction or a volatile-* policy, or a Redis of the budget's own`;
}

/**
 * `close()`: the calls still waiting are refused at once and leave Redis's queue (a wait for a
 * script's answer, or for a stopped Redis to come back, included). The calls in flight keep their
 * leases refreshed until each ends (a SIGTERM's grace period, a long stream): a lease left to
 * expire while its call still runs would let another process send one request more than the
 * key's limit, one TTL later. Then (or once `signal` aborts: the leases still held then stay
 * counted until their TTL runs out) the releases sent go out, waited for one command timeout at
 * most in all, and both connections close together (dropped at once when Redis is known
 * unreachable).
 */
async function closeBudget(
  parts: {
    closing: BudgetClosing;
    wakeUps: WakeUps;
    held: HeldLeases;
    leases: RedisLeases;
    redis: RedisConnection;
    commandTimeout: number;
  },
  signal: AbortSignal | undefined,
): Promise<void> {
  const ended = parts.closing.close();
  parts.wakeUps.pollAll(); // (the waits in Redis's queue end now)
  await ended;
  await untilAborted(parts.held.noneHeld(), signal);
  parts.held.close();
  // (Releases unanswered for a command timeout: Redis is not answering, drop the sockets.)
  const unanswered = await withTimeout(parts.leases.flush(), parts.commandTimeout).then(
    () => false,
    () => true,
  );
  await parts.redis.close(unanswered);
}

/** `done`, or `signal`'s abort, whichever comes first (never rejects). */
function untilAborted(done: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return done;
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const end = () => {
      signal.removeEventListener('abort', end);
      resolve();
    };
    signal.addEventListener('abort', end, { once: true });
    void done.then(end);
  });
}

/**
 * The process's own slot when one is free now and no call of this process waits for one (its
 * `acquire` then grants at once, queueing behind nobody), else undefined.
 */
function localSlotIfFree(
  local: KeyBudget,
  request: BudgetAcquireRequest,
): Promise<BudgetLease> | undefined {
  const now = local.state?.(request.id);
  if (now === undefined || now.active >= request.limit || now.queued > 0) return undefined;
  return local.acquire(request);
}

/** `ready()`: Redis's refusal as it is; a closed budget as `acquire` says it (`aborted`); no
 *  answer (or an error reply) as a `network_error` saying why. */
async function readyOrWhy(
  redis: RedisConnection,
  commandTimeout: number,
  closing: BudgetClosing,
): Promise<void> {
  if (closing.error) throw closing.error;
  try {
    await redis.ready();
  } catch (cause) {
    if (closing.error) throw closing.error;
    if (cause instanceof GatewayError) throw cause;
    const outage = redis.outage;
    const why = (await outage?.reason) ?? failureWords(cause, commandTimeout);
    throw new GatewayError({
      code: 'network_error',
      message: `@infergate/redis: ${outage?.headline ?? 'Redis cannot be reached'} (${why})`,
    });
  }
}

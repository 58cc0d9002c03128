// docs/gateway-protocol.md §2.5 (the key's slots counted per process while Redis is away), §10.4
// (`network_error`).
import { type BudgetAcquireRequest, type BudgetLease, GatewayError } from '@infergate/core';
import type { HeldLeases } from './held-leases';
import type { RedisConnection } from './redis-connection';
import type { RedisLeases } from './redis-leases';

/** Warns once per kind: the fallback, a smaller limit found in Redis, and leases re-taken past
 *  the key's limit. */
export type WarnOnce = (
  kind: 'fallback' | 'limit' | 'pastLimit' | 'eviction',
  message: string,
) => void;

export function warnOnceEach(warn: (message: string) => void): WarnOnce {
  const warned = new Set<Parameters<WarnOnce>[0]>();
  return (kind, message) => {
    if (warned.has(kind)) return;
    warned.add(kind);
    warn(message);
  };
}

/** The warning, once, that leases of this process were re-taken past the key's limit. */
export function pastLimitWarning(warnOnce: WarnOnce): () => void {
  return () =>
    warnOnce(
      'pastLimit',
      "@infergate/redis: leases of this process that Redis had lost were taken again past the key's limit: other calls were granted their slots meanwhile (this process stalled longer than leaseTtlMs, or ran calls on the fallback while Redis was away), so the key had more calls in flight than its limit; nothing more is granted until it is under the limit again",
    );
}

/**
 * `onRedisFailure`: what a call does when Redis is down, unreachable or slower than the command
 * timeout. `'error'` fails it with `network_error` (retryable by core's policy); `'fallback'`
 * runs it on its local slot, warning once (why Redis cannot be reached, once known: the scheme
 * check may take a moment, and the call does not wait for it).
 */
export interface FailurePolicy {
  /** `acquire`: a lease on the local slot, or a thrown `network_error` (the slot given back). */
  acquire(request: BudgetAcquireRequest, slot: BudgetLease): Promise<BudgetLease>;
  /**
   * `acquireIfFree`: the same lease under `'fallback'` (the local slot was free); none under
   * `'error'` (the slot given back): nothing shared can be granted, and the attempt that asks
   * (a hedge) is optional, so it is not failed.
   */
  acquireIfFree(request: BudgetAcquireRequest, slot: BudgetLease): Promise<BudgetLease | undefined>;
}

export function redisFailurePolicy(
  policy: 'fallback' | 'error',
  parts: {
    held: HeldLeases;
    leases: Pick<RedisLeases, 'newToken'>;
    redis: Pick<RedisConnection, 'outage'>;
    warnOnce: WarnOnce;
    stats: { fallbackAcquires: number };
  },
): FailurePolicy {
  const { held, leases, redis, warnOnce, stats } = parts;
  let warned = false;
  /** What and why, in words (a closed budget has no outage). */
  const reason = async () => {
    const outage = redis.outage;
    if (outage === undefined) return 'Redis cannot be reached (the budget is closed)';
    return `${outage.headline} (${await outage.reason})`;
  };
  const fallback = (request: BudgetAcquireRequest, slot: BudgetLease): BudgetLease => {
    if (!warned) {
      warned = true;
      void reason().then((why) =>
        warnOnce(
          'fallback',
          `@infergate/redis: ${why}; using an in-process budget (limit per process, not shared) until Redis works again`,
        ),
      );
    }
    stats.fallbackAcquires += 1;
    // The local slot is the fallback. Its token is re-taken in Redis when Redis answers again,
    // before anything else of this process reaches it, so other processes count this call.
    return held.lease(request.id, leases.newToken(), request.limit, slot);
  };
  return {
    async acquire(request, slot) {
      if (policy === 'fallback') return fallback(request, slot);
      slot.release();
      throw new GatewayError({
        code: 'network_error',
        message: `The shared key budget is unavailable: ${await reason()}`,
      });
    },
    async acquireIfFree(request, slot) {
      if (policy === 'fallback') return fallback(request, slot);
      slot.release();
      return undefined;
    },
  };
}

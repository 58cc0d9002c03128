// docs/gateway-protocol.md §2.5 (the key's slots counted per process while Redis is away), §10.4
// (`network_error`).
import { type BudgetAcquireRequest, type BudgetLease, GatewayError } from '@infergate/core';
import type { HeldLeases } from './held-leases';
import type { RedisLeases } from './redis-leases';

/** Warns once per kind: the fallback, and a smaller limit found in Redis. */
export type WarnOnce = (kind: 'fallback' | 'limit', message: string) => void;

export function warnOnceEach(warn: (message: string) => void): WarnOnce {
  const warned = new Set<'fallback' | 'limit'>();
  return (kind, message) => {
    if (warned.has(kind)) return;
    warned.add(kind);
    warn(message);
  };
}

/**
 * `onRedisFailure`: what a call does when Redis is down, unreachable or slower than the command
 * timeout. `'error'` fails it with `network_error` (retryable by core's policy); `'fallback'`
 * runs it on its local slot, warning once.
 */
export function redisFailurePolicy(
  policy: 'fallback' | 'error',
  held: HeldLeases,
  leases: Pick<RedisLeases, 'newToken'>,
  warnOnce: WarnOnce,
  stats: { fallbackAcquires: number },
) {
  return (request: BudgetAcquireRequest, slot: BudgetLease, cause: unknown): BudgetLease => {
    if (policy === 'error') {
      slot.release();
      throw new GatewayError({
        code: 'network_error',
        message: 'The shared key budget is unavailable: Redis cannot be reached',
        cause,
      });
    }
    warnOnce(
      'fallback',
      '@infergate/redis: Redis cannot be reached; using an in-process budget (limit per process, not shared) until it is back',
    );
    stats.fallbackAcquires += 1;
    // The local slot is the fallback. Its token is re-taken in Redis by the refresh once Redis
    // answers, so other processes count this call while it runs.
    return held.lease(request.id, leases.newToken(), request.limit, slot);
  };
}

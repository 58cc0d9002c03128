import type { BudgetAcquireRequest, BudgetLease } from '@infergate/core';
import type { HeldLeases } from './held-leases';
import { type RedisConnection, RedisTimeout } from './redis-connection';
import type { WarnOnce } from './redis-failure-policy';
import { type AcquireAnswer, newToken, type RedisLeases } from './redis-leases';
import { pollPause, WakeUps } from './wake-ups';

/** What every call's wait for its lease in Redis works with (one per budget). */
export interface LeaseQueue {
  leases: RedisLeases;
  held: HeldLeases;
  redis: Pick<RedisConnection, 'closed' | 'subscribe' | 'refusal'>;
  ttl: number;
  maxPoll: number;
  commandTimeout: number;
  warnOnce: WarnOnce;
  /** The failure policy: a lease on the local slot, or a thrown `network_error`. */
  onRedisFailure(request: BudgetAcquireRequest, slot: BudgetLease, cause: unknown): BudgetLease;
}

/**
 * Takes the call's lease in Redis, holding its local `slot` meanwhile: granted at once, or queued
 * (FIFO across processes) until a release wakes it, the caller aborts, or Redis fails (then the
 * failure policy decides).
 */
export async function acquireLease(
  queue: LeaseQueue,
  request: BudgetAcquireRequest,
  slot: BudgetLease,
): Promise<BudgetLease> {
  const { leases } = queue;
  const { id, limit, signal } = request;
  let token = newToken();
  const wakeUps = new WakeUps(queue.redis, leases.keys(id).channel, () => token);
  let failingSince: number | undefined;
  try {
    for (let attempt = 0; ; attempt++) {
      let answer: AcquireAnswer;
      try {
        answer = await leases.acquire(id, token, limit);
      } catch (cause) {
        // Redis refused the budget (credentials, certificate, the user's rights): whatever the
        // failure policy, the call fails with that configuration error.
        if (queue.redis.refusal !== undefined) throw queue.redis.refusal;
        // No answer (in time): the script may still run and take a slot or a place in the queue.
        leases.release(id, token, limit);
        if (signal.aborted) throw signal.reason;
        failingSince ??= performance.now();
        if (!mayRetryAfterDrop(queue, cause, failingSince)) {
          return queue.onRedisFailure(request, slot, cause);
        }
        // The connection dropped (a restart?): try again, with a new token, once Redis is back
        // (`run` waits for it), within one command timeout.
        token = newToken();
        await new Promise((resolve) => setTimeout(resolve, 50));
        continue;
      }
      failingSince = undefined;
      if (answer.appliedLimit < limit) {
        queue.warnOnce(
          'limit',
          `@infergate/redis: another process uses this key with a limit of ${answer.appliedLimit}; the smallest limit applies to all (this process asked for ${limit})`,
        );
      }
      if (signal.aborted) {
        // Granted or queued just as the caller left: give it back.
        leases.release(id, token, limit);
        throw signal.reason;
      }
      if (answer.granted) return queue.held.lease(id, token, limit, slot);
      // Wait for a release message, the caller's abort, or a bounded poll (lost messages).
      await wakeUps.wait(pollPause(attempt, queue.maxPoll, queue.ttl), signal);
      if (signal.aborted) {
        leases.release(id, token, limit);
        throw signal.reason;
      }
    }
  } finally {
    wakeUps.close();
  }
}

/**
 * A dropped connection (not a timeout, not closed) is tried again for one command timeout,
 * measured on the monotonic clock (`failingSince` is `performance.now()`): a stepped wall clock
 * neither cuts the wait short nor stretches it.
 */
function mayRetryAfterDrop(queue: LeaseQueue, cause: unknown, failingSince: number): boolean {
  const dropped = !queue.redis.closed && !(cause instanceof RedisTimeout);
  return dropped && performance.now() - failingSince < queue.commandTimeout;
}

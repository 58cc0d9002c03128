// docs/gateway-protocol.md §2.5 (the wait for a slot of the key, FIFO across processes), §4.7
// (a failover's next attempt asks ahead).
import type { BudgetAcquireRequest, BudgetLease } from '@infergate/core';
import type { HeldLeases } from './held-leases';
import { type RedisConnection, RedisTimeout } from './redis-connection';
import type { WarnOnce } from './redis-failure-policy';
import type { AcquireAnswer, RedisLeases } from './redis-leases';
import { pollPause, type WakeUps } from './wake-ups';

/** What every call's wait for its lease in Redis works with (one per budget). */
export interface LeaseQueue {
  leases: RedisLeases;
  held: HeldLeases;
  wakeUps: WakeUps;
  redis: Pick<RedisConnection, 'closed' | 'refusal'>;
  ttl: number;
  maxPoll: number;
  commandTimeout: number;
  warnOnce: WarnOnce;
  /** The failure policy: a lease on the local slot, or a thrown `network_error`. */
  onRedisFailure(request: BudgetAcquireRequest, slot: BudgetLease, cause: unknown): BudgetLease;
}

/** One try of the acquire script: its answer, or what to do when Redis gave none. */
type Attempt =
  | { answer: AcquireAnswer }
  | { retry: true }
  | { lease: BudgetLease }
  | { throws: unknown };

/**
 * Takes the call's lease in Redis, holding its local `slot` meanwhile: granted at once, or queued
 * (FIFO across processes) until a slot is handed to it (a message on this instance's wake
 * channel) or a poll finds one, the caller aborts, or Redis fails (then the failure policy
 * decides).
 */
export async function acquireLease(
  queue: LeaseQueue,
  request: BudgetAcquireRequest,
  slot: BudgetLease,
): Promise<BudgetLease> {
  const { leases, wakeUps } = queue;
  const { id, limit, signal } = request;
  const call = { token: leases.newToken(), failingSince: undefined as number | undefined };
  wakeUps.expect(call.token);
  // Subscribed beside the first script (once per budget and id), so a first call pays no wait.
  void wakeUps.listen(id);
  const granted = () => queue.held.lease(id, call.token, limit, slot);
  try {
    for (let attempt = 0; ; attempt++) {
      const listening = wakeUps.listening(id);
      const result = await tryAcquire(queue, request, slot, call);
      if ('throws' in result) throw result.throws;
      if ('lease' in result) return result.lease;
      if ('retry' in result) continue;
      const { answer } = result;
      if (answer.appliedLimit < limit) {
        queue.warnOnce(
          'limit',
          `@infergate/redis: another process uses this key with a limit of ${answer.appliedLimit}; the smallest limit applies to all (this process asked for ${limit})`,
        );
      }
      if (signal.aborted) {
        // Granted or queued just as the caller left: give it back.
        leases.release(id, call.token, limit);
        throw signal.reason;
      }
      if (answer.granted) return granted();
      // The wake channel was not confirmed when the script ran: a slot handed over meanwhile was
      // announced to nobody. Ask again as soon as it is.
      if (!listening && (await wakeUps.listen(id))) continue;
      const nearHead = answer.waitersBefore < answer.appliedLimit || !wakeUps.listening(id);
      const pause = pollPause(attempt, {
        maxPoll: queue.maxPoll,
        ttl: queue.ttl,
        nearHead,
        nextChangeMs: answer.nextChangeMs,
      });
      const reason = await wakeUps.wait(call.token, pause, signal);
      if (signal.aborted) {
        leases.release(id, call.token, limit);
        throw signal.reason;
      }
      if (reason === 'granted') return granted();
    }
  } finally {
    wakeUps.done(call.token);
  }
}

/**
 * Runs the acquire script once. Without an answer (in time) the script may still run and take a
 * slot or a place in the queue, so the token is released; a dropped connection is tried again
 * with a new token for one command timeout, measured on the monotonic clock (`failingSince` is
 * `performance.now()`: a stepped wall clock neither cuts the wait short nor stretches it).
 */
async function tryAcquire(
  queue: LeaseQueue,
  request: BudgetAcquireRequest,
  slot: BudgetLease,
  call: { token: string; failingSince: number | undefined },
): Promise<Attempt> {
  const { leases, wakeUps } = queue;
  try {
    const answer = await leases.acquire(request.id, call.token, request.limit, request.ahead);
    call.failingSince = undefined;
    return { answer };
  } catch (cause) {
    // Redis refused the budget (credentials, certificate, the user's rights): whatever the
    // failure policy, the call fails with that configuration error.
    if (queue.redis.refusal !== undefined) return { throws: queue.redis.refusal };
    leases.release(request.id, call.token, request.limit);
    if (request.signal.aborted) return { throws: request.signal.reason };
    call.failingSince ??= performance.now();
    const dropped = !queue.redis.closed && !(cause instanceof RedisTimeout);
    if (!dropped || performance.now() - call.failingSince >= queue.commandTimeout) {
      return { lease: queue.onRedisFailure(request, slot, cause) };
    }
    // The connection dropped (a restart?): try again, with a new token, once Redis is back
    // (`run` waits for it).
    wakeUps.done(call.token);
    call.token = leases.newToken();
    wakeUps.expect(call.token);
    await new Promise((resolve) => setTimeout(resolve, 50));
    return { retry: true };
  }
}

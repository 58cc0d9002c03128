// docs/gateway-protocol.md §2.5 (the wait for a slot of the key, FIFO across processes), §4.7
// (a failover's next attempt asks ahead).
import type { BudgetAcquireRequest, BudgetLease, GatewayError } from '@infergate/core';
import type { HeldLeases } from './held-leases';
import { type RedisConnection, RedisTimeout } from './redis-connection';
import type { FailurePolicy, WarnOnce } from './redis-failure-policy';
import type { AcquireAnswer, RedisLeases } from './redis-leases';
import { type Outage, RedisDown } from './redis-outage';
import { type Handover, pollPause, type WakeUps } from './wake-ups';

/** What every call's wait for its lease in Redis works with (one per budget). */
export interface LeaseQueue {
  leases: RedisLeases;
  held: HeldLeases;
  wakeUps: WakeUps;
  redis: Pick<RedisConnection, 'refusal' | 'outage' | 'failed'>;
  ttl: number;
  maxPoll: number;
  commandTimeout: number;
  warnOnce: WarnOnce;
  /** The failure policy: a lease on the local slot, a thrown `network_error`, or no slot. */
  onRedisFailure: FailurePolicy;
  /** Its `error`, set by `close()`: what every call still waiting, and every later one, is refused
   *  with (never the fallback: a closed budget counts nothing). */
  closing: { readonly error: GatewayError | undefined; readonly signal: AbortSignal };
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
 * decides). While Redis is known to be unreachable, the failure policy decides at once: no call
 * waits for it, nor sends anything; but a call already in Redis's queue when Redis began refusing
 * connections (stopped, or restarting) waits for it, at most the command timeout, to keep its
 * turn. The caller's abort (or deadline) and the budget's `close()` end every wait at once, a
 * script's answer and the wait for Redis to come back included (its ticket released either way).
 */
export async function acquireLease(
  queue: LeaseQueue,
  request: BudgetAcquireRequest,
  slot: BudgetLease,
): Promise<BudgetLease> {
  const { leases, wakeUps, redis } = queue;
  const { id, limit, signal } = request;
  if (queue.closing.error) throw queue.closing.error;
  if (redis.refusal) throw redis.refusal;
  if (redis.outage) return queue.onRedisFailure.acquire(request, slot);
  const call = {
    token: leases.newToken(),
    failingSince: undefined as number | undefined,
    /** Whether the token waits in Redis's queue (to leave it when the call stops asking). */
    queued: false,
    /** Whether the call has waited in Redis's queue: it keeps its turn through a restart. */
    inLine: false,
    /** The caller's abort or the budget's close: the wait for a script's answer ends at once. */
    ended: AbortSignal.any([signal, queue.closing.signal]),
    /** When (`performance.now()`) the last answered script was sent, and the server's time when
     *  it ran: what tells a handover message fresh (`freshHandover`). */
    askedAt: 0,
    serverNow: undefined as number | undefined,
  };
  wakeUps.expect(call.token);
  // Subscribed beside the first script (once per budget and id), so a first call pays no wait.
  void wakeUps.listen(id);
  const granted = () => queue.held.lease(id, call.token, limit, slot);
  try {
    for (let attempt = 0; ; attempt++) {
      if (redis.outage) {
        if (call.inLine && (await backInTime(queue, redis.outage, signal))) continue;
        // It started while this call waited in the queue (its wait ended then): out of line.
        if (call.queued) leases.release(id, call.token, limit);
        signal.throwIfAborted();
        if (queue.closing.error) throw queue.closing.error;
        return await queue.onRedisFailure.acquire(request, slot);
      }
      const listening = wakeUps.listening(id);
      const result = await tryAcquire(queue, request, slot, call);
      if ('throws' in result) throw result.throws;
      if ('lease' in result) return result.lease;
      if ('retry' in result) continue;
      const { answer } = result;
      warnIfSmallerLimit(queue, answer.appliedLimit, limit);
      // Granted or queued just as the caller left (or the budget closed): give it back.
      leaveIfEnded(queue, request, call.token);
      if (answer.granted) return granted();
      call.queued = true;
      call.inLine = true;
      // The wake channel was not confirmed when the script ran: a slot handed over meanwhile was
      // announced to nobody. Ask again as soon as it is.
      if (!listening && (await wakeUps.listen(id))) continue;
      const nearHead = answer.waitersBefore < answer.appliedLimit || !wakeUps.listening(id);
      const pause = pollPause(attempt, {
        maxPoll: queue.maxPoll,
        ttl: queue.ttl,
        nearHead,
        listening: wakeUps.listening(id),
        nextChangeMs: answer.nextChangeMs,
      });
      // (No wait begins once the budget closed: its `close()` ended the waits under way.)
      const reason = queue.closing.error ? 'poll' : await wakeUps.wait(call.token, pause, signal);
      leaveIfEnded(queue, request, call.token);
      // A handover that may be stale (its lease may have expired, and its slot gone to another
      // call, while the message waited): the next script confirms it, granted again at once while
      // the lease lives, queued again (nothing of the call sent) when it expired.
      if (reason === 'granted' && freshHandover(queue, call, wakeUps.handover(call.token))) {
        return granted();
      }
    }
  } finally {
    wakeUps.done(call.token);
  }
}

/**
 * Takes the call's lease only if a slot is free in Redis now and nobody waits for one (one script
 * round trip, never queued), holding its local `slot` meanwhile; else gives the slot back and
 * answers undefined. While Redis is known to be unreachable, or when this try gets no answer in
 * time, the failure policy answers (the fallback's lease, or none). A connection that drops
 * during the try answers undefined: a free slot cannot be told, and the asker can do without.
 */
export async function acquireLeaseIfFree(
  queue: LeaseQueue,
  request: BudgetAcquireRequest,
  slot: BudgetLease,
): Promise<BudgetLease | undefined> {
  const { leases, redis } = queue;
  const { id, limit, signal } = request;
  if (queue.closing.error) throw queue.closing.error;
  if (redis.refusal) throw redis.refusal;
  if (redis.outage) return queue.onRedisFailure.acquireIfFree(request, slot);
  const token = leases.newToken();
  // Where a census reaches this instance when a lease of it expires while it lives.
  void queue.wakeUps.listen(id);
  let granted: boolean;
  try {
    const ended = AbortSignal.any([signal, queue.closing.signal]);
    const answer = await leases.acquireIfFree(id, token, limit, ended);
    warnIfSmallerLimit(queue, answer.appliedLimit, limit);
    granted = answer.granted;
  } catch (cause) {
    if (redis.refusal) throw redis.refusal;
    leases.release(id, token, limit); // the script may still run
    if (signal.aborted || queue.closing.error) {
      slot.release();
      signal.throwIfAborted();
      throw queue.closing.error;
    }
    if (cause instanceof RedisTimeout || cause instanceof RedisDown || redis.outage) {
      redis.failed(cause);
      return queue.onRedisFailure.acquireIfFree(request, slot);
    }
    granted = false;
  }
  if (granted && (signal.aborted || queue.closing.error)) leases.release(id, token, limit);
  if (!granted || signal.aborted || queue.closing.error) {
    slot.release();
    signal.throwIfAborted();
    if (queue.closing.error) throw queue.closing.error;
    return undefined;
  }
  return queue.held.lease(id, token, limit, slot);
}

/** The caller aborted or the budget closed: the call's ticket (or lease) leaves Redis, and the
 *  call rejects with the abort's reason or the budget's closing error. */
function leaveIfEnded(queue: LeaseQueue, request: BudgetAcquireRequest, token: string): void {
  const { signal } = request;
  if (!signal.aborted && queue.closing.error === undefined) return;
  queue.leases.release(request.id, token, request.limit);
  signal.throwIfAborted();
  throw queue.closing.error;
}

function warnIfSmallerLimit(queue: LeaseQueue, appliedLimit: number, limit: number): void {
  if (appliedLimit >= limit) return;
  queue.warnOnce(
    'limit',
    `@infergate/redis: another process uses this key with a limit of ${appliedLimit}; the smallest limit applies to all (this process asked for ${limit})`,
  );
}

/**
 * Waits for the end of an outage of refused connections (Redis stopped, or restarting) that began
 * while the call waited in Redis's queue, at most the command timeout from its start: true when
 * Redis came back in time (the call asks again, keeping its turn), false past it, for any other
 * outage, or once the caller aborts or the budget closes.
 */
async function backInTime(queue: LeaseQueue, outage: Outage, signal: AbortSignal) {
  const left = queue.commandTimeout - (performance.now() - outage.since);
  if (!outage.keepsPlaces || left <= 0 || signal.aborted || queue.closing.error) return false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onEnd = () => {};
  const gaveUp = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), left);
    onEnd = () => resolve(false);
    signal.addEventListener('abort', onEnd, { once: true });
    queue.closing.signal.addEventListener('abort', onEnd, { once: true });
  });
  const back = await Promise.race([outage.ended.then(() => true), gaveUp]);
  clearTimeout(timer);
  signal.removeEventListener('abort', onEnd);
  queue.closing.signal.removeEventListener('abort', onEnd);
  return back;
}

/**
 * Whether a slot handed to the call is surely still its own, and stays so until its first refresh.
 * The call's last script was sent at `askedAt` and ran at server time `serverNow`, which was then
 * at least the server's time; so the server's time now is at most `serverNow + (now - askedAt)`.
 * A grant at `at >= serverNow` gave a lease that lives until `expiry` (the TTL of the process
 * whose script granted it, maybe shorter than this one's), so `expiry - serverNow` or more from
 * that script. (A grant before `serverNow` was not the call's any more when that script answered
 * it queued: its lease had expired.) Fresh when less than half of that has passed: the lease then
 * lives more than half of it more; and only when that half is at least this process's TTL/2,
 * longer than its first refresh takes (TTL/3). Otherwise (a lease granted with a shorter TTL, or a
 * message without both times: an earlier version's) the next script confirms it, which also
 * extends it to this process's TTL. This assumes what the refresh every TTL/3 already does: the
 * server's clock runs no faster than this process's monotonic one. A waiter asks at least every
 * TTL/3, so with one TTL per key only a process paused (or starved) for longer confirms (one
 * script).
 */
function freshHandover(queue: LeaseQueue, call: Call, handover: Handover | undefined): boolean {
  if (handover === undefined || call.serverNow === undefined) return false;
  if (handover.at < call.serverNow) return false;
  const lives = handover.expiry - call.serverNow;
  if (lives < queue.ttl) return false;
  return performance.now() - call.askedAt < lives / 2;
}

/** A call's state across its tries of the acquire script (see `acquireLease`). */
interface Call {
  token: string;
  failingSince: number | undefined;
  queued: boolean;
  inLine: boolean;
  ended: AbortSignal;
  askedAt: number;
  serverNow: number | undefined;
}

/**
 * Runs the acquire script once. Without an answer (in time) the script may still run and take a
 * slot or a place in the queue, so the token is released; a dropped connection is tried again
 * with a new token for one command timeout, measured on the monotonic clock (`failingSince` is
 * `performance.now()`: a stepped wall clock neither cuts the wait short nor stretches it). No
 * answer in time, or an outage found meanwhile, ends the tries at once: the failure policy (a
 * call that waited in the queue first waits for Redis refusing connections to come back). The
 * caller's abort and the budget's close end the wait for the answer at once.
 */
async function tryAcquire(
  queue: LeaseQueue,
  request: BudgetAcquireRequest,
  slot: BudgetLease,
  call: Call,
): Promise<Attempt> {
  const { leases, redis } = queue;
  const { id, limit, signal } = request;
  try {
    const askedAt = performance.now();
    const answer = await leases.acquire(id, call.token, limit, request.ahead === true, call.ended);
    call.failingSince = undefined;
    call.askedAt = askedAt;
    call.serverNow = answer.serverNow;
    return { answer };
  } catch (cause) {
    // Redis refused the budget (credentials, certificate, the user's rights): whatever the
    // failure policy, the call fails with that configuration error.
    if (redis.refusal !== undefined) return { throws: redis.refusal };
    leases.release(id, call.token, limit);
    call.queued = false;
    if (signal.aborted) return { throws: signal.reason };
    if (queue.closing.error) return { throws: queue.closing.error };
    call.failingSince ??= performance.now();
    const known = cause instanceof RedisTimeout || cause instanceof RedisDown || redis.outage;
    // (A call in line waits for a refused Redis to come back: the loop's first step.)
    if (known && call.inLine && redis.outage?.keepsPlaces) return retryWithNewToken(queue, call);
    if (known || performance.now() - call.failingSince >= queue.commandTimeout) {
      redis.failed(cause);
      return { lease: await queue.onRedisFailure.acquire(request, slot) };
    }
    // The connection dropped (a restart?): try again, with a new token, once Redis is back
    // (`run` waits for it).
    await new Promise((resolve) => setTimeout(resolve, 50));
    return retryWithNewToken(queue, call);
  }
}

/** The next try's token (the last one's script may still run: it was released). */
function retryWithNewToken(queue: LeaseQueue, call: Call): Attempt {
  queue.wakeUps.done(call.token);
  call.token = queue.leases.newToken();
  queue.wakeUps.expect(call.token);
  return { retry: true };
}

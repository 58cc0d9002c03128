import type { BudgetAcquireRequest, BudgetLease } from '@infergate/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { acquireLease, type LeaseQueue } from './acquire-lease';
import { HeldLeases } from './held-leases';
import { ACQUIRE_SCRIPT, RELEASE_SCRIPT } from './lease-scripts';
import type { RedisConnection } from './redis-connection';
import { RedisLeases } from './redis-leases';
import { WakeUps } from './wake-ups';

// NTP steps and VM resumes move the wall clock (`Date`) by seconds or minutes; the client-side
// lease timing (how long a dropped connection is waited for, how long a lost release is sent
// again) must follow the monotonic clock instead. The fake timers drive `setTimeout` and
// `performance.now()` together; `vi.setSystemTime` steps `Date` alone, as the system clock would.

const STEP_MS = 60_000;
const stepWallClock = (ms: number) => vi.setSystemTime(Date.now() + ms);

beforeEach(() => {
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'],
  });
});
afterEach(() => {
  vi.useRealTimers();
});

/** What `script` is asked to do, in order; `answer` decides each reply. */
function fakeRedis(answer: (script: string, attempt: number) => Promise<unknown>) {
  const runs: string[] = [];
  const redis: RedisConnection = {
    run(script) {
      runs.push(script);
      return answer(script, runs.filter((s) => s === script).length);
    },
    subscribe: async () => true,
    onReady: () => {},
    ready: async () => {},
    refusal: undefined,
    closed: false,
    close: async () => {},
    outage: undefined,
    failed: () => {},
    onOutage: () => {},
    onRecovery: () => {},
  };
  const count = (script: string) => runs.filter((s) => s === script).length;
  return { redis, count };
}

const dropped = () => Promise.reject(new Error('Socket closed unexpectedly'));
const stats = () => ({ expiredLeases: 0, retakenLeases: 0 });

function queueOn(redis: RedisConnection, commandTimeout: number) {
  const leases = new RedisLeases(redis, { keyPrefix: 'p', ttl: 15_000, commandTimeout }, stats());
  const fellBack: unknown[] = [];
  const queue: LeaseQueue = {
    closing: { error: undefined, signal: new AbortController().signal },
    leases,
    held: new HeldLeases(leases, redis, 15_000),
    wakeUps: new WakeUps(redis, leases, () => {}),
    redis,
    ttl: 15_000,
    maxPoll: 1000,
    commandTimeout,
    warnOnce: () => {},
    onRedisFailure: {
      async acquire(_request, slot) {
        fellBack.push('acquire');
        return slot;
      },
      async acquireIfFree(_request, slot) {
        fellBack.push('acquireIfFree');
        return slot;
      },
    },
  };
  return { queue, fellBack };
}

const request = (): BudgetAcquireRequest => ({
  id: 'id',
  limit: 4,
  signal: new AbortController().signal,
  deadline: Date.now() + 600_000,
});
const slot: BudgetLease = { release: () => {} };

describe('waiting for a dropped connection (one command timeout, monotonic)', () => {
  it('keeps waiting when the wall clock steps forward', async () => {
    // Two drops, then Redis is back: within the 2 s command timeout, so the call is granted in
    // Redis rather than sent to the fallback, however far the wall clock jumped meanwhile.
    const { redis, count } = fakeRedis((script, attempt) => {
      if (script !== ACQUIRE_SCRIPT) return Promise.resolve(0);
      // (The first drop starts the wait; the clock steps during the second try.)
      if (attempt === 2) stepWallClock(STEP_MS);
      return attempt <= 2 ? dropped() : Promise.resolve([1, 0, 4]);
    });
    const { queue, fellBack } = queueOn(redis, 2000);
    const lease = acquireLease(queue, request(), slot);
    await vi.advanceTimersByTimeAsync(500);
    await lease;
    expect(fellBack).toEqual([]);
    expect(count(ACQUIRE_SCRIPT)).toBe(3);
  });

  it('gives up after one command timeout when the wall clock steps back', async () => {
    const { redis, count } = fakeRedis((script, attempt) => {
      if (script !== ACQUIRE_SCRIPT) return Promise.resolve(0);
      if (attempt === 2) stepWallClock(-STEP_MS);
      return dropped();
    });
    const { queue, fellBack } = queueOn(redis, 300);
    const lease = acquireLease(queue, request(), slot);
    await vi.advanceTimersByTimeAsync(1000);
    expect(fellBack).toHaveLength(1);
    await lease;
    // One try every 50 ms for 300 ms, not for the minute the wall clock went back.
    expect(count(ACQUIRE_SCRIPT)).toBeLessThanOrEqual(8);
  });
});

describe('a release whose reply is lost (sent again until the TTL, monotonic)', () => {
  const ttl = 1000;
  const commandTimeout = 100;

  it('is still sent again when the wall clock steps forward', async () => {
    const { redis, count } = fakeRedis((_script, attempt) => {
      if (attempt === 1) stepWallClock(STEP_MS);
      return attempt <= 2 ? dropped() : Promise.resolve(1);
    });
    const leases = new RedisLeases(redis, { keyPrefix: 'p', ttl, commandTimeout }, stats());
    leases.release('id', 'token', 4);
    await vi.advanceTimersByTimeAsync(ttl);
    // Answered at the third try: no slot left orphaned until the lease's TTL.
    expect(count(RELEASE_SCRIPT)).toBe(3);
  });

  it('stops at the TTL when the wall clock steps back', async () => {
    const { redis, count } = fakeRedis((_script, attempt) => {
      if (attempt === 1) stepWallClock(-STEP_MS);
      return dropped();
    });
    const leases = new RedisLeases(redis, { keyPrefix: 'p', ttl, commandTimeout }, stats());
    leases.release('id', 'token', 4);
    await vi.advanceTimersByTimeAsync(ttl * 2);
    const sent = count(RELEASE_SCRIPT);
    expect(sent).toBeLessThanOrEqual(ttl / commandTimeout + 1);
    await vi.advanceTimersByTimeAsync(STEP_MS * 2);
    expect(count(RELEASE_SCRIPT)).toBe(sent);
  });
});

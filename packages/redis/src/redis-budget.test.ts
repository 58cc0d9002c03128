import { isGatewayError } from '@infergate/core';
import { pollUntil, startRedis } from '@infergate/emulator/testing/redis';
import { describe, expect, it, vi } from 'vitest';
import {
  connectedClient,
  expireLeasesNow,
  grantedByRedis,
  holdPastTtl,
  type RedisClient,
  redisForFile,
  request,
} from '../test/budgets';
import { leaseKeys } from './lease-scripts';
import { createRedisBudget } from './redis-budget';

// Tests against a running Redis use a generous command timeout: a loaded machine must not turn a
// slow answer into the fallback these tests say is not used.
const file = redisForFile({ commandTimeoutMs: 10_000 });
const budget = file.budget;

const queued = (id: string, count = 1, admin: RedisClient = file.admin) =>
  pollUntil(
    async () => (await admin.zCard(leaseKeys('infergate:budget', id).queue)) === count,
    `${count} call(s) queued in Redis`,
  );

/**
 * A place where the calls holding a lease wait until `count` hold one at once, then all go on: the
 * next `count` are let through the same way. (Every call passes once `count` are in; a budget that
 * never lets `count` in at once leaves them waiting, and the test fails on its timeout.)
 */
function meetingPoint(count: number) {
  let waiting: (() => void)[] = [];
  return (): Promise<void> =>
    new Promise((resolve) => {
      waiting.push(resolve);
      if (waiting.length < count) return;
      for (const go of waiting) go();
      waiting = [];
    });
}

describe('createRedisBudget', () => {
  it('never lets more than the limit in flight across budgets with their own connections', async () => {
    const budgets = [budget(), budget(), budget()];
    let inFlight = 0;
    let max = 0;
    const id = `limit-${Math.random()}`;
    const allIn = meetingPoint(4); // 24 calls: six rounds of 4 at once
    await Promise.all(
      budgets.flatMap((b) =>
        Array.from({ length: 8 }, async () => {
          const lease = await b.acquire(request(id));
          inFlight += 1;
          max = Math.max(max, inFlight);
          await allIn(); // held until 4 overlap, however loaded the machine
          inFlight -= 1;
          lease.release();
        }),
      ),
    );
    expect(max).toBe(4);
    expect(budgets.every((b) => b.stats.fallbackAcquires === 0)).toBe(true);
  });

  // Core aborts the signal at the call's deadline (a TimeoutError): the budget sees only the signal.
  it.each([
    ['aborted (the caller left)', new Error('caller left')],
    ['at the deadline', new DOMException('The deadline passed.', 'TimeoutError')],
  ])(
    'rejects with the signal reason when %s while queued, and frees its place',
    async (_, reason) => {
      const b = budget();
      const id = `abort-${Math.random()}`;
      const held = await budget().acquire(request(id, 1)); // another process's
      const controller = new AbortController();
      const waiting = b.acquire({ ...request(id, 1), signal: controller.signal });
      await queued(id);
      controller.abort(reason);
      await expect(waiting).rejects.toBe(reason);
      await queued(id, 0); // its place given back
      held.release();
      (await b.acquire(request(id, 1))).release();
    },
  );

  it('gives a crashed holder’s slot back once its TTL ran out and counts the expired lease', async () => {
    const crashed = budget({ leaseTtlMs: 60_000 });
    const id = `ttl-${Math.random()}`;
    await crashed.acquire(request(id, 1));
    // Never releases, never refreshes again (close() not waiting for the lease held).
    await crashed.close({ signal: AbortSignal.abort() });
    const survivor = budget({ leaseTtlMs: 60_000 });
    const waiting = survivor.acquire(request(id, 1));
    await queued(id);
    await expireLeasesNow(file.admin, id); // the TTL runs out now, not after a sleep
    const lease = await waiting; // found by the waiter's next poll
    expect(survivor.stats.expiredLeases).toBe(1);
    lease.release();
  });

  it('close() right after a release sends it first: the slot is free at once, not after a TTL', async () => {
    const leaving = createRedisBudget({
      url: file.redis.url,
      commandTimeoutMs: 10_000,
      leaseTtlMs: 60_000,
    });
    const id = `close-${Math.random()}`;
    const lease = await leaving.acquire(request(id));
    lease.release();
    await leaving.close();
    expect(await file.admin.zCard(leaseKeys('infergate:budget', id).holders)).toBe(0);
  });

  it('refreshes a lease held longer than its TTL', async () => {
    const id = `refresh-${Math.random()}`;
    const ttl = 60_000;
    // The refresh period runs on fake interval timers; the TTL runs out when the test says.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const holder = budget({ leaseTtlMs: ttl });
      const lease = await holder.acquire(request(id, 1));
      await holdPastTtl(file.admin, id, ttl); // two and a half TTLs: only the refresh keeps it
      const other = budget({ leaseTtlMs: ttl });
      const controller = new AbortController();
      const waiting = other.acquire({ ...request(id, 1), signal: controller.signal });
      await queued(id);
      controller.abort(new Error('done'));
      await expect(waiting).rejects.toThrow('done');
      expect(other.stats.expiredLeases).toBe(0);
      expect(holder.stats.retakenLeases).toBe(0); // extended each time, never lost
      lease.release();
    } finally {
      vi.useRealTimers();
    }
  });

  it('falls back to an in-process budget and warns once when Redis is unreachable', async () => {
    const down = await startRedis();
    await down.stop();
    const warnings: string[] = [];
    const b = budget({ url: down.url, commandTimeoutMs: 200, warn: (m) => warnings.push(m) });
    const a = await b.acquire(request('x'));
    const c = await b.acquire(request('x'));
    a.release();
    c.release();
    expect(warnings).toHaveLength(1);
    expect(b.stats.fallbackAcquires).toBe(2);
  });

  it("fails with a typed network_error under onRedisFailure: 'error'", async () => {
    const down = await startRedis();
    await down.stop();
    const b = budget({ url: down.url, commandTimeoutMs: 200, onRedisFailure: 'error' });
    const failure = await b.acquire(request('x')).catch((e: unknown) => e);
    expect(isGatewayError(failure) && failure.code).toBe('network_error');
  });
});

describe('Redis stopped mid-run', () => {
  it('waiters and new calls fall back (one warning) instead of hanging; releases never throw', async () => {
    const own = await startRedis();
    const warnings: string[] = [];
    // Once Redis is gone, a call waits for it to come back for at most the command timeout (the
    // subject). The budget's first call connects, which on a loaded machine can outlast it: it is
    // retried until Redis granted one, so that the waiting call below is in Redis's queue.
    const b = createRedisBudget({
      url: own.url,
      commandTimeoutMs: 5000,
      maxPollIntervalMs: 50,
      warn: (m) => warnings.push(m),
    });
    // Another process holds the only slot, so this one's call waits in Redis's queue.
    const other = createRedisBudget({ url: own.url, commandTimeoutMs: 10_000 });
    try {
      const id = `midrun-${Math.random()}`;
      await grantedByRedis(b, () => request(`${id}-warm-up`, 1));
      const fallbacksBefore = b.stats.fallbackAcquires;
      const held = await other.acquire(request(id, 1));
      const waiting = b.acquire(request(id, 1));
      const admin = await connectedClient(own.url);
      await queued(id, 1, admin);
      await admin.close();
      await own.stop();
      // The waiter waits the command timeout for Redis to come back (time is the subject, and the
      // budget's own clock cannot be driven under a real Redis client), then falls back.
      const lease = await waiting; // served by the in-process fallback
      held.release();
      lease.release();
      (await b.acquire(request(id, 1))).release();
      expect(warnings).toHaveLength(1);
      expect(b.stats.fallbackAcquires - fallbacksBefore).toBe(2);
    } finally {
      await b.close();
      await other.close();
    }
  });
});

describe('close() while calls wait', () => {
  it('refuses the waiting calls at once (aborted), takes their tickets out of Redis, and refuses later calls; none runs on the fallback', async () => {
    const id = `close-waiting-${Math.random()}`;
    const { holders, queue } = leaseKeys('infergate:budget', id);
    const warnings: string[] = [];
    const other = budget();
    const othersLeases = await Promise.all([1, 2, 3].map(() => other.acquire(request(id))));
    const closing = createRedisBudget({
      url: file.redis.url,
      commandTimeoutMs: 10_000,
      warn: (m) => warnings.push(m),
    });
    const held = await closing.acquire(request(id)); // the key's 4th slot
    // Three wait in Redis's queue, a fourth for this process's own slot (its limit is reached).
    const waiting = [1, 2, 3, 4].map(() => closing.acquire(request(id)).catch((e: unknown) => e));
    await queued(id, 3);
    const closed = closing.close(); // (resolves once `held`, a call in flight, is released)
    for (const failure of await Promise.all(waiting)) {
      expect(isGatewayError(failure) && failure.code).toBe('aborted');
      expect(String((failure as Error).message)).toContain('the budget was closed');
    }
    await pollUntil(async () => (await file.admin.zCard(queue)) === 0, 'the tickets out');
    for (const later of [closing.acquire(request(id)), closing.acquireIfFree(request(id))]) {
      const failure = await later.catch((e: unknown) => e);
      expect(isGatewayError(failure) && failure.code).toBe('aborted');
    }
    expect(closing.stats.fallbackAcquires).toBe(0);
    expect(warnings).toEqual([]);
    // The lease held at close() stays counted while its call runs, and close() sends its release
    // when it ends; a slot freed by another process goes to nobody of the closed budget.
    expect(await file.admin.zCard(holders)).toBe(4);
    othersLeases[0]!.release();
    await pollUntil(async () => (await file.admin.zCard(holders)) === 3, 'the release');
    held.release();
    await closed;
    expect(await file.admin.zCard(holders)).toBe(2);
    for (const lease of othersLeases.slice(1)) lease.release();
  });
});

describe('a lease lost while its call runs', () => {
  it('is taken again, and past the limit (its slot granted meanwhile) it stays counted and warns once', async () => {
    const id = `past-${Math.random()}`;
    const { holders } = leaseKeys('infergate:budget', id);
    const ttl = 60_000;
    const warnings: string[] = [];
    // The refresh period runs on fake interval timers: the test says when the holder refreshes.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const holder = budget({ leaseTtlMs: ttl, warn: (m) => warnings.push(m) });
      const lease = await holder.acquire(request(id, 1));
      const [token] = await file.admin.zRange(holders, 0, -1);
      // Lost with the key free (Redis wiped it): taken again at the next refresh, no warning.
      await file.admin.del(holders);
      vi.advanceTimersByTime(ttl / 3);
      await pollUntil(() => holder.stats.retakenLeases === 1, 'the first re-take');
      expect(warnings).toEqual([]);
      // Expired while its process stalled, and its slot granted to another call meanwhile.
      await file.admin.zRem(holders, token!);
      const other = await budget({ leaseTtlMs: ttl }).acquire(request(id, 1));
      vi.advanceTimersByTime(ttl / 3);
      await pollUntil(() => holder.stats.retakenLeases === 2, 'the second re-take');
      expect(await file.admin.zCard(holders)).toBe(2); // both calls are in flight: both counted
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain("past the key's limit");
      other.release();
      lease.release();
    } finally {
      vi.useRealTimers();
    }
  });
});

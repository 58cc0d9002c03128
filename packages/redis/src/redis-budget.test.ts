import { isGatewayError } from '@infergate/core';
import { startRedis, type TestRedis } from '@infergate/emulator/testing/redis';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaseKeys } from './lease-scripts';
import { createRedisBudget, type RedisBudget } from './redis-budget';

let redis: TestRedis;
const open: RedisBudget[] = [];

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await Promise.all(open.map((b) => b.close()));
  await redis.stop();
});

// Tests against a running Redis use a generous command timeout: a loaded machine must not turn a
// slow answer into the fallback these tests say is not used.
function budget(options: Partial<Parameters<typeof createRedisBudget>[0]> = {}): RedisBudget {
  const b = createRedisBudget({ url: redis.url, commandTimeoutMs: 10_000, ...options });
  open.push(b);
  return b;
}

const far = () => Date.now() + 60_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('createRedisBudget', () => {
  it('never lets more than the limit in flight across budgets with their own connections', async () => {
    const budgets = [budget(), budget(), budget()];
    let inFlight = 0;
    let max = 0;
    const id = `limit-${Math.random()}`;
    await Promise.all(
      budgets.flatMap((b) =>
        Array.from({ length: 8 }, async () => {
          const lease = await b.acquire({
            id,
            limit: 4,
            signal: new AbortController().signal,
            deadline: far(),
          });
          inFlight += 1;
          max = Math.max(max, inFlight);
          // Held long enough that 4 overlap even on a loaded machine.
          await sleep(50);
          inFlight -= 1;
          lease.release();
        }),
      ),
    );
    expect(max).toBe(4);
    expect(budgets.every((b) => b.stats.fallbackAcquires === 0)).toBe(true);
  });

  it('rejects with the signal reason when aborted while queued, and frees its place', async () => {
    const b = budget();
    const id = `abort-${Math.random()}`;
    const held = await b.acquire({
      id,
      limit: 1,
      signal: new AbortController().signal,
      deadline: far(),
    });
    const controller = new AbortController();
    const waiting = b.acquire({ id, limit: 1, signal: controller.signal, deadline: far() });
    const reason = new Error('caller left');
    setTimeout(() => controller.abort(reason), 20);
    await expect(waiting).rejects.toBe(reason);
    held.release();
    const next = await b.acquire({
      id,
      limit: 1,
      signal: new AbortController().signal,
      deadline: far(),
    });
    next.release();
  });

  it('rejects at the deadline while queued (the deadline aborts the signal)', async () => {
    const b = budget();
    const id = `deadline-${Math.random()}`;
    const held = await b.acquire({
      id,
      limit: 1,
      signal: new AbortController().signal,
      deadline: far(),
    });
    const signal = AbortSignal.timeout(30);
    const failure = await b
      .acquire({ id, limit: 1, signal, deadline: Date.now() + 30 })
      .catch((e: unknown) => e);
    expect(failure).toBe(signal.reason);
    expect(failure).toMatchObject({ name: 'TimeoutError' });
    held.release();
  });

  it('gives a crashed holder’s slot back after the TTL and counts the expired lease', async () => {
    const crashed = budget({ leaseTtlMs: 300 });
    const id = `ttl-${Math.random()}`;
    await crashed.acquire({ id, limit: 1, signal: new AbortController().signal, deadline: far() });
    await crashed.close(); // never releases, never refreshes again
    const survivor = budget({ leaseTtlMs: 300 });
    const lease = await survivor.acquire({
      id,
      limit: 1,
      signal: new AbortController().signal,
      deadline: far(),
    });
    expect(survivor.stats.expiredLeases).toBe(1);
    lease.release();
  });

  it('close() right after a release sends it first: the slot is free at once, not after a TTL', async () => {
    const leaving = createRedisBudget({
      url: redis.url,
      commandTimeoutMs: 10_000,
      leaseTtlMs: 60_000,
    });
    const id = `close-${Math.random()}`;
    const lease = await leaving.acquire({
      id,
      limit: 1,
      signal: new AbortController().signal,
      deadline: far(),
    });
    lease.release();
    await leaving.close();
    const admin = createClient({ url: redis.url });
    await admin.connect();
    try {
      expect(await admin.zCard(leaseKeys('infergate:budget', id).holders)).toBe(0);
    } finally {
      await admin.close();
    }
  });

  it('refreshes a lease held longer than its TTL', async () => {
    // The holder refreshes every TTL/3; a TTL of 1 s leaves time for timers delayed by a loaded
    // machine (at 150 ms, a late refresh let the lease expire).
    const holder = budget({ leaseTtlMs: 1000 });
    const other = budget({ leaseTtlMs: 1000 });
    const id = `refresh-${Math.random()}`;
    const lease = await holder.acquire({
      id,
      limit: 1,
      signal: new AbortController().signal,
      deadline: far(),
    });
    const controller = new AbortController();
    const waiting = other.acquire({ id, limit: 1, signal: controller.signal, deadline: far() });
    await sleep(2500); // two and a half TTLs: only the refresh keeps the slot
    controller.abort(new Error('done'));
    await expect(waiting).rejects.toThrow('done');
    expect(other.stats.expiredLeases).toBe(0);
    lease.release();
  });

  it('falls back to an in-process budget and warns once when Redis is unreachable', async () => {
    const down = await startRedis();
    await down.stop();
    const warnings: string[] = [];
    const b = budget({ url: down.url, commandTimeoutMs: 200, warn: (m) => warnings.push(m) });
    const a = await b.acquire({
      id: 'x',
      limit: 4,
      signal: new AbortController().signal,
      deadline: far(),
    });
    const c = await b.acquire({
      id: 'x',
      limit: 4,
      signal: new AbortController().signal,
      deadline: far(),
    });
    a.release();
    c.release();
    expect(warnings).toHaveLength(1);
    expect(b.stats.fallbackAcquires).toBe(2);
  });

  it("fails with a typed network_error under onRedisFailure: 'error'", async () => {
    const down = await startRedis();
    await down.stop();
    const b = budget({ url: down.url, commandTimeoutMs: 200, onRedisFailure: 'error' });
    const failure = await b
      .acquire({ id: 'x', limit: 4, signal: new AbortController().signal, deadline: far() })
      .catch((e: unknown) => e);
    expect(isGatewayError(failure) && failure.code).toBe('network_error');
  });
});

describe('Redis stopped mid-run', () => {
  it('waiters and new calls fall back (one warning) instead of hanging; releases never throw', async () => {
    const own = await startRedis();
    const warnings: string[] = [];
    // A generous command timeout: on a loaded machine a short one made the first acquire fall
    // back too. Once Redis is gone, a call waits for it to come back for at most this long.
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
      const held = await other.acquire({
        id,
        limit: 1,
        signal: new AbortController().signal,
        deadline: far(),
      });
      const queued = b.acquire({
        id,
        limit: 1,
        signal: new AbortController().signal,
        deadline: far(),
      });
      await sleep(30);
      await own.stop();
      const lease = await queued; // served by the in-process fallback
      held.release();
      lease.release();
      const next = await b.acquire({
        id,
        limit: 1,
        signal: new AbortController().signal,
        deadline: far(),
      });
      next.release();
      expect(warnings).toHaveLength(1);
      expect(b.stats.fallbackAcquires).toBe(2);
    } finally {
      await b.close();
      await other.close();
    }
  });
});

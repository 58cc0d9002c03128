import { randomUUID } from 'node:crypto';
import { isGatewayError } from '@infergate/core';
import { caught } from '@infergate/emulator/testing';
import { pollUntil } from '@infergate/emulator/testing/redis';
import { describe, expect, it } from 'vitest';
import { leaseKeys } from '../src/lease-scripts';
import { type RedisClient, redisForFile, request } from './budgets';

// redis README, `budget.close()`: a SIGTERM handler closes the budget while calls are still in
// flight (a grace period, long streams). Their leases must stay alive until each call ends: left
// to expire, another process is granted their slots one TTL later and the gateway sees 5. With
// the shortest TTL (1000 ms) the test waits on Redis's own clock passing one TTL after close(),
// then reads the leases in Redis. Against a real redis-server.
const TTL = 1000;
const file = redisForFile({ commandTimeoutMs: 10_000, leaseTtlMs: TTL, warn: () => {} });

async function redisNow(admin: RedisClient): Promise<number> {
  const [seconds, micros] = (await admin.sendCommand(['TIME'])) as [string, string];
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
}

describe('close() with calls in flight', () => {
  it('keeps their leases refreshed past one TTL, refuses new calls, and resolves after the last release', async () => {
    const id = `ig-close-${randomUUID()}`;
    const k = leaseKeys('infergate:budget', id);
    const [a, b] = [file.budget(), file.budget()];
    const held = await Promise.all([1, 2, 3, 4].map(() => a.acquire(request(id))));
    const closedAt = await redisNow(file.admin);
    let closed = false;
    const closing = a.close().then(() => {
      closed = true;
    });
    expect((await caught(a.acquire(request(id)), isGatewayError)).code).toBe('aborted');

    await pollUntil(
      async () => (await redisNow(file.admin)) > closedAt + 2 * TTL,
      "two TTLs past close() on Redis's clock",
    );
    const now = await redisNow(file.admin);
    const leases = await file.admin.zRangeWithScores(k.holders, 0, -1);
    expect(leases).toHaveLength(4);
    for (const { score } of leases) expect(score).toBeGreaterThan(now);
    expect(await b.acquireIfFree(request(id))).toBeUndefined(); // (the gateway would see 5)

    for (const lease of held.slice(0, 3)) lease.release();
    await pollUntil(async () => (await file.admin.zCard(k.holders)) === 1, '3 releases in Redis');
    expect(closed).toBe(false);
    held[3]!.release();
    await closing;
    expect(await file.admin.zCard(k.holders)).toBe(0);
    const freed = await b.acquireIfFree(request(id));
    expect(freed).toBeDefined();
    freed?.release();
  });

  it('stops waiting for them once its signal aborts: their leases are left to their TTL', async () => {
    const id = `ig-close-now-${randomUUID()}`;
    const k = leaseKeys('infergate:budget', id);
    const a = file.budget();
    const held = await a.acquire(request(id));
    const deadline = new AbortController();
    const closing = a.close({ signal: deadline.signal });
    deadline.abort();
    await closing;
    expect(await file.admin.zCard(k.holders)).toBe(1); // still counted: its call may still run
    held.release();
  });

  it('a first close() resolves when a second close({ signal }) gave up first', async () => {
    // (A SIGTERM handler's close() and a later bounded one: both must settle, or the first's
    // awaiter never exits.)
    const id = `ig-close-twice-${randomUUID()}`;
    const k = leaseKeys('infergate:budget', id);
    const a = file.budget();
    const held = await a.acquire(request(id));
    const first = a.close();
    const deadline = new AbortController();
    const second = a.close({ signal: deadline.signal });
    deadline.abort();
    await second;
    await first; // (without the fix: pending for good, the test times out)
    expect(await file.admin.zCard(k.holders)).toBe(1); // left to its TTL, as the bounded close says
    held.release();
  });
});

import { randomUUID } from 'node:crypto';
import type { BudgetLease } from '@infergate/core';
import { pollUntil, startRedis } from '@infergate/emulator/testing/redis';
import { describe, expect, it, vi } from 'vitest';
import { ACQUIRE_SCRIPT, leaseKeys } from '../src/lease-scripts';
import { expireLeasesNow, holdPastTtl, redisForFile, request } from './budgets';

// `acquireIfFree` (a hedged request's second attempt): a slot at once when one is free and no call
// of the key waits for one, else undefined; never queued, so it never goes ahead of a waiting call.
// Against a real redis-server; each budget has its own connections, as another process would.

// A generous command timeout: a slow answer on a loaded machine must not count as Redis down.
const file = redisForFile({ commandTimeoutMs: 10_000 });
const budget = file.budget;
const ask = request;
const keysOf = (id: string) => leaseKeys('infergate:budget', id);

describe('acquireIfFree', () => {
  it('a free slot: granted, held in Redis like any lease, and given back', async () => {
    const id = `free-${randomUUID()}`;
    const b = budget();
    const lease = await b.acquireIfFree(ask(id));
    expect(lease).toBeDefined();
    expect(await file.admin.zCard(keysOf(id).holders)).toBe(1);
    lease?.release();
    await pollUntil(async () => (await file.admin.zCard(keysOf(id).holders)) === 0, 'the release');
  });

  it('the key full in another process: undefined at once, nothing left in Redis', async () => {
    const id = `full-${randomUUID()}`;
    const other = budget();
    const held = await Promise.all([1, 2, 3, 4].map(() => other.acquire(ask(id))));
    const b = budget();
    await b.ready(); // connected
    const roundTrips = b.stats.roundTrips;
    expect(await b.acquireIfFree(ask(id))).toBeUndefined();
    expect(b.stats.roundTrips).toBe(roundTrips + 1); // one script, no wait
    expect(await file.admin.zCard(keysOf(id).queue)).toBe(0); // no ticket
    expect(await file.admin.zCard(keysOf(id).holders)).toBe(4);
    for (const lease of held) lease.release();
  });

  it('the key full in this process: undefined without asking Redis', async () => {
    const id = `local-${randomUUID()}`;
    const b = budget();
    const held = await Promise.all([1, 2, 3, 4].map(() => b.acquire(ask(id))));
    const roundTrips = b.stats.roundTrips;
    expect(await b.acquireIfFree(ask(id))).toBeUndefined();
    expect(b.stats.roundTrips).toBe(roundTrips);
    for (const lease of held) lease.release();
  });

  it('a call waiting: undefined, even when a slot frees at that very moment (the waiter gets it)', async () => {
    const id = `waiter-${randomUUID()}`;
    const k = keysOf(id);
    const script = (token: string) =>
      file.admin.eval(ACQUIRE_SCRIPT, {
        keys: [k.holders, k.queue, k.seen, k.seq, k.expired, k.limits, k.settle],
        arguments: [token, '1', '60000', '0', k.census, k.wake, '0'],
      }) as Promise<number[]>;
    // A holder (a crashed process: nobody answers its census) and a waiter behind it, whose
    // process listens for its handover; then the holder's lease expires (driven: its TTL runs out
    // now). No script runs between the expiry and the call below.
    await file.listener.subscribe(`${k.wake}waiter`, () => {});
    expect((await script('crashed:1'))[0]).toBe(1);
    expect((await script('waiter:1'))[0]).toBe(0);
    expect(await expireLeasesNow(file.admin, id)).toEqual(['crashed:1']);
    const b = budget();
    expect(await b.acquireIfFree(ask(id, 1))).toBeUndefined();
    expect(await file.admin.zRange(k.holders, 0, -1)).toEqual(['waiter:1']);
    expect(await file.admin.zCard(k.queue)).toBe(0);
  });

  it('a call of another process queued: undefined while it waits', async () => {
    const id = `queued-${randomUUID()}`;
    const holder = budget();
    const lease = await holder.acquire(ask(id, 1));
    const waiting = budget().acquire(ask(id, 1));
    await pollUntil(
      async () => (await file.admin.zCard(keysOf(id).queue)) === 1,
      'the waiter queued',
    );
    expect(await budget().acquireIfFree(ask(id, 1))).toBeUndefined();
    lease.release();
    (await waiting).release();
  });

  it('never more than the limit across two budgets, mixed with queued calls', async () => {
    const id = `mixed-${randomUUID()}`;
    const budgets = [budget(), budget()];
    let inFlight = 0;
    let most = 0;
    let refused = 0;
    let hedged = 0;
    const hold = async (lease: BudgetLease) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      // The call's work: a round trip of its own, so that calls overlap (no clock; no assertion
      // depends on how many do).
      await file.admin.ping();
      inFlight -= 1;
      lease.release();
    };
    await Promise.all(
      budgets.flatMap((b) =>
        Array.from({ length: 12 }, async (_, i) => {
          if (i % 2 === 0) return hold(await b.acquire(ask(id)));
          const lease = await b.acquireIfFree(ask(id));
          if (lease === undefined) refused += 1;
          else {
            hedged += 1;
            await hold(lease);
          }
        }),
      ),
    );
    expect(most).toBeLessThanOrEqual(4);
    expect(hedged + refused).toBe(12);
    expect(budgets.every((b) => b.stats.fallbackAcquires === 0)).toBe(true);
    expect(await file.admin.zCard(keysOf(id).queue)).toBe(0);
  });

  it('is refreshed while held, like a lease from acquire', async () => {
    const id = `refreshed-${randomUUID()}`;
    const ttl = 60_000;
    // The refresh period runs on fake interval timers; the TTL runs out when the test says.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const holder = budget({ leaseTtlMs: ttl });
      const lease = await holder.acquireIfFree(ask(id, 1));
      expect(lease).toBeDefined();
      await holdPastTtl(file.admin, id, ttl); // two and a half TTLs: only refreshes keep it
      const other = budget({ leaseTtlMs: ttl });
      expect(await other.acquireIfFree(ask(id, 1))).toBeUndefined();
      expect(other.stats.expiredLeases).toBe(0);
      expect(holder.stats.retakenLeases).toBe(0); // extended each time, never lost
      lease?.release();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('acquireIfFree while Redis cannot be reached', () => {
  it('answers as the fallback: a free local slot, else undefined', async () => {
    const down = await startRedis();
    await down.stop();
    const b = budget({ url: down.url, commandTimeoutMs: 2000, warn: () => {} });
    const id = `down-${randomUUID()}`;
    const leases = [];
    for (let i = 0; i < 4; i++) leases.push(await b.acquireIfFree(ask(id)));
    expect(leases.every((lease) => lease !== undefined)).toBe(true);
    expect(await b.acquireIfFree(ask(id))).toBeUndefined(); // the process holds its 4
    expect(b.stats.fallbackAcquires).toBe(4);
    for (const lease of leases) lease?.release();
  });
});

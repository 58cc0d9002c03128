import { randomUUID } from 'node:crypto';
import { pollUntil, startRedis } from '@infergate/emulator/testing/redis';
import { afterEach, describe, expect, it } from 'vitest';
import { ACQUIRE_SCRIPT, leaseKeys, RELEASE_SCRIPT } from '../src/lease-scripts';
import { budgetMaker, connectedClient } from './budgets';
import { pathTo } from './cut-path';
import { startPersistentRedis } from './persistent-redis';

// Redis restarted from a snapshot older than the leases in flight (an RDB or AOF loaded at the
// restart; a replica promoted is the same): the key's `seq` is there, its holders are not. Before
// the fix only a missing `seq` told a loss, so the first acquire after the restart granted the
// waiters the slots of calls still in flight, before their holder was back (rv-redis13 F2). Now
// the scripts keep the `run_id` of the server that wrote the key's state: another server's life
// is a loss, and the census runs as after one. Against a real redis-server that loads its RDB
// file; the holder reaches it through a path the test cuts.

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn().catch(() => {});
});
const budget = budgetMaker(
  () => ({ leaseTtlMs: 9_000, commandTimeoutMs: 5_000 }),
  (b) => cleanup.push(() => b.close()),
);

describe('Redis restarted from an older snapshot', () => {
  it('grants nothing until the holders re-took their leases', async () => {
    const redis = await startPersistentRedis();
    cleanup.push(() => redis.stop());
    const admin = await connectedClient(redis.url);
    admin.on('error', () => {}); // (the restart drops it; it reconnects)
    cleanup.push(() => admin.close());
    const path = await pathTo(redis.port);
    cleanup.push(() => path.close());
    const id = `ig-snapshot-${randomUUID()}`;
    const k = leaseKeys('infergate:budget', id);
    const warnings: string[] = [];
    const holder = budget({ url: path.url, warn: (message) => warnings.push(message) });
    const waiter = budget({ url: redis.url, warn: () => {} });
    const ask = (signal = new AbortController().signal) => ({
      id,
      limit: 4,
      signal,
      deadline: Date.now() + 600_000,
    });
    // Both processes used the key; the snapshot has its state with nobody holding a slot.
    (await waiter.acquire(ask())).release();
    (await holder.acquire(ask())).release();
    await pollUntil(async () => (await admin.zCard(k.holders)) === 0, 'the releases done');
    await admin.sendCommand(['SAVE']);

    const held = await Promise.all([1, 2, 3, 4].map(() => holder.acquire(ask())));
    const holders = (await admin.zRange(k.holders, 0, -1)).sort();
    const leaving = new AbortController();
    const waiting = [1, 2, 3, 4].map(() =>
      waiter.acquire(ask(leaving.signal)).then(
        (lease) => lease,
        () => undefined,
      ),
    );
    await pollUntil(async () => (await admin.zCard(k.queue)) === 4, 'the waiter queued');
    try {
      await path.cut();
      await redis.restart(); // loads the snapshot: `seq` and `limits`, no holder, nobody in line
      // The waiter, back, asks again at once. Before the fix its calls took the 4 slots.
      await pollUntil(
        async () =>
          (await admin.exists(k.settle)) === 1 ||
          (await admin.zRange(k.holders, 0, -1)).some((t) => !holders.includes(t)),
        "the waiter's ask after the restart",
      );
      await path.mend();
      await pollUntil(async () => {
        const now = await admin.zRange(k.holders, 0, -1);
        return holders.every((token) => now.includes(token));
      }, 'the holder back, its leases re-taken');
      expect((await admin.zRange(k.holders, 0, -1)).sort()).toEqual(holders);
      expect(warnings).toEqual([]);
    } finally {
      for (const lease of held) lease.release();
      leaving.abort();
      for (const lease of await Promise.all(waiting)) lease?.release();
    }
  }, 60_000);
});

describe("the key's state written by another server's life (its `run_id` stored with it)", () => {
  it('a release hands the restored line nothing; the next acquire runs the census', async () => {
    const redis = await startRedis();
    cleanup.push(() => redis.stop());
    const [admin, listener] = [await connectedClient(redis.url), await connectedClient(redis.url)];
    cleanup.push(() => admin.close());
    cleanup.push(() => listener.close());
    const k = leaseKeys('infergate:budget', `ig-other-life-${randomUUID()}`);
    const acquire = (token: string, known = '1') =>
      admin.eval(ACQUIRE_SCRIPT, {
        keys: [k.holders, k.queue, k.seen, k.seq, k.expired, k.limits, k.settle, k.life],
        arguments: [token, '1', '60000', known, k.census, k.wake, '0'],
      }) as Promise<number[]>;
    const woken: string[] = [];
    await listener.subscribe(`${k.wake}w`, (message) => woken.push(message));
    expect((await acquire('x:1', '0'))[0]).toBe(1);
    expect((await acquire('w:1', '0'))[0]).toBe(0);
    const [life] = await admin.zRange(k.life, 0, -1);
    expect(life).toMatch(/^[0-9a-f]{40}$/);
    // As restored from a snapshot another server wrote (or replicated to a promoted replica).
    await admin.del(k.life);
    await admin.zAdd(k.life, { score: 0, value: 'f'.repeat(40) });
    // x's release. Before the fix: it granted w the slot, as if no lease could be missing.
    await admin.eval(RELEASE_SCRIPT, {
      keys: [k.holders, k.queue, k.seen, k.limits, k.settle, k.seq, k.life],
      arguments: ['x:1', k.wake, '1', '60000'],
    });
    expect(await admin.zRange(k.queue, 0, -1)).toEqual(['w:1']);
    expect(await admin.zCard(k.holders)).toBe(0);
    // w's next ask sees the other life: a loss, so it waits for the holders' census.
    expect((await acquire('w:1'))[0]).toBe(0);
    expect(await admin.exists(k.settle)).toBe(1);
    expect(await admin.zRange(k.life, 0, -1)).toEqual([life]);
    expect(woken).toEqual([]);
  });
});

import { randomUUID } from 'node:crypto';
import { pollUntil } from '@infergate/emulator/testing/redis';
import { describe, expect, it } from 'vitest';
import { leaseKeys } from '../src/lease-scripts';
import { budgetMaker, serversPerTest } from './budgets';
import { pathTo } from './cut-path';

// Redis lost the key's state (FLUSHALL; a restart without persistence) while a holder is still
// away from it (reconnecting): the first acquire that finds the state gone asks the holders on the
// census channel and grants nothing until they re-took their leases, for at most 2/3 of a TTL. A
// process that holds nothing of the key, waiting, is still subscribed there (from its first
// lease on): before the fix it answered too, and its answer, the only one counted, ended the wait
// at once, granting its own calls the slots of the absent holder's calls still in flight
// (rv-redis13 F1). Against a real redis-server; the holder reaches it through a path the test cuts.

const { cleanup, server } = serversPerTest();
const budget = budgetMaker(
  () => ({ leaseTtlMs: 9_000, commandTimeoutMs: 5_000 }),
  (b) => cleanup.push(() => b.close()),
);

describe('a waiting process answers no census: the holders re-take their leases first', () => {
  it('its own census answer does not end the wait while the holder is away', async () => {
    const { redis, admin } = await server();
    const path = await pathTo(redis.port);
    cleanup.push(() => path.close());
    const id = `ig-census-waiter-${randomUUID()}`;
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
    // The waiter held a lease once (it listens on the census channel from then on).
    (await waiter.acquire(ask())).release();
    const held = await Promise.all([1, 2, 3, 4].map(() => holder.acquire(ask())));
    const holders = (await admin.zRange(k.holders, 0, -1)).sort();
    expect(holders).toHaveLength(4);
    const leaving = new AbortController();
    const waiting = [1, 2, 3, 4].map(() =>
      waiter.acquire(ask(leaving.signal)).then(
        (lease) => lease,
        () => undefined,
      ),
    );
    await pollUntil(async () => (await admin.zCard(k.queue)) === 4, 'the waiter queued');
    const census = async () => Number((await admin.pubSubNumSub(k.census))[k.census] ?? 0);
    await pollUntil(async () => (await census()) === 2, 'both processes on the census channel');

    try {
      // The holder loses Redis (its pub/sub with it), and Redis the key's state.
      await path.cut();
      await pollUntil(async () => (await census()) === 1, "Redis saw the holder's connections go");
      await admin.flushAll();
      // The waiter's next ask finds the state gone and runs the census. Before the fix its own
      // answer ended the wait at once and its calls took the 4 slots.
      await pollUntil(
        async () =>
          (await admin.exists(k.settle)) === 1 ||
          (await admin.zRange(k.holders, 0, -1)).some((t) => !holders.includes(t)),
        "the waiter's census",
      );
      await path.mend();
      await pollUntil(async () => {
        const now = await admin.zRange(k.holders, 0, -1);
        return holders.every((token) => now.includes(token));
      }, 'the holder back, its leases re-taken');
      expect((await admin.zRange(k.holders, 0, -1)).sort()).toEqual(holders);
      expect(holder.stats.retakenLeases).toBe(4);
      expect(warnings).toEqual([]);
    } finally {
      for (const lease of held) lease.release();
      leaving.abort();
      for (const lease of await Promise.all(waiting)) lease?.release();
    }
  }, 60_000);
});

import { randomUUID } from 'node:crypto';
import { pollUntil } from '@infergate/emulator/testing/redis';
import { afterEach, describe, expect, it } from 'vitest';
import { ACQUIRE_SCRIPT, leaseKeys, REFRESH_SCRIPT, RELEASE_SCRIPT } from '../src/lease-scripts';
import { redisForFile, request } from './budgets';

// A Redis shared with an app's cache, under maxmemory: the budget's keys must not be evicted
// silently, or another process is granted the slots of calls still in flight. Under a `volatile-*`
// policy (ElastiCache's and Memorystore's default) Redis evicts only keys with a TTL: the budget's
// keys have none (but the short settle period's). Under an `allkeys-*` policy any key may go: the
// loss of the leases is seen and handled like a restart's (a census of the holders, who re-take
// their leases before anything is granted). Against a real redis-server; the eviction is Redis's
// own, or (for `allkeys-*`, which may take any key) the leases' key deleted alone.

const file = redisForFile({ leaseTtlMs: 60_000, commandTimeoutMs: 10_000, warn: () => {} });

afterEach(async () => {
  await file.admin.configSet({ maxmemory: '0', 'maxmemory-policy': 'noeviction' });
});

describe('maxmemory with volatile-lru (the managed default) and an app filling its cache', () => {
  it('evicts the cache, never the leases: another process gets no slot while 4 are held', async () => {
    const id = `ig-volatile-${randomUUID()}`;
    const k = leaseKeys('infergate:budget', id);
    const [a, b, waiter] = [file.budget(), file.budget(), file.budget()];
    const held = await Promise.all([1, 2, 3, 4].map(() => a.acquire(request(id))));
    const queued = waiter.acquire(request(id));
    await pollUntil(async () => (await file.admin.zCard(k.queue)) === 1, 'the waiter queued');
    // Every key of the id, but the settle period's (none now), lives without a TTL.
    const keys = await file.admin.keys(`{infergate:budget:${id}}:*`);
    expect(keys).toEqual(expect.arrayContaining([k.holders, k.queue, k.seen, k.limits, k.seq]));
    for (const key of keys) expect([key, await file.admin.pTTL(key)]).toEqual([key, -1]);

    const used = Number(/used_memory:(\d+)/.exec(await file.admin.info('memory'))?.[1]);
    await file.admin.configSet({
      maxmemory: String(used + 2_000_000),
      'maxmemory-policy': 'volatile-lru',
    });
    const blob = 'x'.repeat(50_000);
    for (let i = 0; i < 80; i++) await file.admin.set(`app:cache:${id}:${i}`, blob, { EX: 3600 });
    // (Redis did evict: some of the cache is gone.)
    expect((await file.admin.keys(`app:cache:${id}:*`)).length).toBeLessThan(80);
    await file.admin.configSet({ maxmemory: '0' });

    expect(await file.admin.zCard(k.holders)).toBe(4);
    expect(await b.acquireIfFree(request(id))).toBeUndefined();
    for (const lease of held) lease.release();
    (await queued).release();
  });
});

describe('the leases key lost alone (an allkeys-* policy evicted it)', () => {
  it('the next acquire sees the loss: the holders re-take their leases, nothing is granted meanwhile', async () => {
    const id = `ig-allkeys-${randomUUID()}`;
    const k = leaseKeys('infergate:budget', id);
    const [a, b] = [file.budget(), file.budget()];
    const held = await Promise.all([1, 2, 3, 4].map(() => a.acquire(request(id))));
    await file.admin.del(k.holders); // (what the eviction does; `seq` stays)

    // Before the fix: `seq` was there, so no loss was seen, and B got a slot beside A's 4.
    expect(await b.acquireIfFree(request(id))).toBeUndefined();
    await pollUntil(() => a.stats.retakenLeases >= 4, 'the holders re-took their leases');
    expect(await file.admin.zCard(k.holders)).toBe(4);
    expect(await b.acquireIfFree(request(id))).toBeUndefined();
    for (const lease of held) lease.release();
  });

  it('a refresh or a release that meets the loss first does not hide it from the next acquire', async () => {
    const id = `ig-allkeys-first-${randomUUID()}`;
    const k = leaseKeys('infergate:budget', id);
    const acquireKeys = [k.holders, k.queue, k.seen, k.seq, k.expired, k.limits, k.settle, k.held];
    const acquire = (token: string, known: string) =>
      file.admin.eval(ACQUIRE_SCRIPT, {
        keys: acquireKeys,
        arguments: [token, '2', '60000', known, k.census, k.wake, '0'],
      }) as Promise<number[]>;
    expect((await acquire('x:1', '0'))[0]).toBe(1);
    expect((await acquire('y:1', '0'))[0]).toBe(1);
    await file.admin.del(k.holders);

    // Process x re-takes its own lease first (its periodic refresh); z releases a stale token.
    await file.admin.eval(REFRESH_SCRIPT, {
      keys: [k.holders, k.limits, k.settle, k.queue, k.seen, k.held],
      arguments: ['60000', '2', '0', k.wake, 'x:1'],
    });
    await file.admin.eval(RELEASE_SCRIPT, {
      keys: [k.holders, k.queue, k.seen, k.limits, k.settle, k.held],
      arguments: ['z:0', k.wake, '2', '60000'],
    });
    expect(await file.admin.zRange(k.holders, 0, -1)).toEqual(['x:1']);

    // y's lease is still missing: the next acquire (a process that knew the id) waits for the
    // census instead of taking y's slot.
    const [granted] = await acquire('z:1', '1');
    expect(granted).toBe(0);
    expect(await file.admin.exists(k.settle)).toBe(1);
  });
});

import { randomUUID } from 'node:crypto';
import { pollUntil } from '@infergate/emulator/testing/redis';
import { afterEach, describe, expect, it } from 'vitest';
import { ACQUIRE_SCRIPT, leaseKeys, REFRESH_SCRIPT, RELEASE_SCRIPT } from '../src/lease-scripts';
import { redisForFile, request } from './budgets';

// A Redis shared with an app's cache, under maxmemory: the budget's keys must not be evicted, or
// another process is granted the slots of calls still in flight. Under a `volatile-*` policy
// (ElastiCache's and Memorystore's default) Redis evicts only keys with a TTL: the budget's keys
// have none (but the short settle period's). An `allkeys-*` policy may evict any key: not
// supported (README, "Managed Redis"); but what the scripts can see of it, a lost `seq`, makes a
// release or a census answer grant nothing until an acquire has asked the holders. Against a real
// redis-server; the eviction is Redis's own, or (for what an `allkeys-*` policy may take) keys
// deleted by the test.

const file = redisForFile({ leaseTtlMs: 60_000, commandTimeoutMs: 10_000, warn: () => {} });

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0)) await fn();
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

describe("the id's state lost but for its queue (`seq` gone, waiters still in line)", () => {
  /** x:1 and y:1 hold the 2 slots, w:1 waits (its process listens on its wake channel). */
  async function twoHeldOneWaiting() {
    const id = `ig-lost-seq-${randomUUID()}`;
    const k = leaseKeys('infergate:budget', id);
    const acquire = (token: string, known: string) =>
      file.admin.eval(ACQUIRE_SCRIPT, {
        keys: [k.holders, k.queue, k.seen, k.seq, k.expired, k.limits, k.settle],
        arguments: [token, '2', '60000', known, k.census, k.wake, '0'],
      }) as Promise<number[]>;
    const woken: string[] = [];
    await file.listener.subscribe(`${k.wake}w`, (message) => woken.push(message));
    cleanups.push(() => file.listener.unsubscribe(`${k.wake}w`));
    expect((await acquire('x:1', '0'))[0]).toBe(1);
    expect((await acquire('y:1', '0'))[0]).toBe(1);
    expect((await acquire('w:1', '0'))[0]).toBe(0);
    return { k, acquire, woken };
  }

  it('a release hands the waiters nothing: the leases missing are still in flight', async () => {
    const { k, acquire, woken } = await twoHeldOneWaiting();
    await file.admin.del([k.holders, k.seq]);
    // x ends its call. Before the fix: the release saw 0 of 2 slots taken and granted w beside
    // y's lease, still in flight (rv-2redis F5).
    await file.admin.eval(RELEASE_SCRIPT, {
      keys: [k.holders, k.queue, k.seen, k.limits, k.settle, k.seq],
      arguments: ['x:1', k.wake, '2', '60000'],
    });
    expect(await file.admin.zRange(k.queue, 0, -1)).toEqual(['w:1']);
    expect(await file.admin.zCard(k.holders)).toBe(0);
    // w's next ask sees the loss (no `seq`) and waits for the holders' census.
    expect((await acquire('w:1', '1'))[0]).toBe(0);
    expect(await file.admin.exists(k.settle)).toBe(1);
    expect(woken).toEqual([]);
    // y answers it (re-takes its lease): the loss is handled, and the free slot is w's. (Had the
    // acquire not written `seq` again, the answer would hand nothing, and w would wait for good.)
    await file.admin.eval(REFRESH_SCRIPT, {
      keys: [k.holders, k.limits, k.settle, k.queue, k.seen, k.seq],
      arguments: ['60000', '2', '1', k.wake, 'y:1'],
    });
    expect((await file.admin.zRange(k.holders, 0, -1)).sort()).toEqual(['w:1', 'y:1']);
    await pollUntil(() => woken.length === 1, 'w woken');
    expect(woken[0]).toMatch(/^w:1 /);
  });

  it('the last answer to a census hands the waiters nothing either', async () => {
    const { k, woken } = await twoHeldOneWaiting();
    // A census under way (one answer awaited), and the state lost meanwhile but for the queue.
    await file.admin.set(k.settle, '1', { PX: 40_000 });
    await file.admin.del([k.holders, k.seq]);
    // x answers (re-takes its lease). Before the fix: the answer ended the settle period and
    // granted w the slot of y's lease, still in flight (rv-2redis F6).
    await file.admin.eval(REFRESH_SCRIPT, {
      keys: [k.holders, k.limits, k.settle, k.queue, k.seen, k.seq],
      arguments: ['60000', '2', '1', k.wake, 'x:1'],
    });
    expect(await file.admin.zRange(k.holders, 0, -1)).toEqual(['x:1']);
    expect(await file.admin.zRange(k.queue, 0, -1)).toEqual(['w:1']);
    expect(woken).toEqual([]);
  });

  it('an acquire that finds it while a census is under way asks the holders about it too', async () => {
    const { k, acquire } = await twoHeldOneWaiting();
    const asked: string[] = [];
    await file.listener.subscribe(k.census, (message) => asked.push(message));
    cleanups.push(() => file.listener.unsubscribe(k.census));
    await file.admin.set(k.settle, '1', { PX: 40_000 }); // (one answer awaited)
    await file.admin.del([k.holders, k.seq]);
    expect((await acquire('w:1', '1'))[0]).toBe(0);
    // Before: only a census of expired leases counted, and y's lost lease waited for its refresh.
    expect(await file.admin.get(k.settle)).toBe('2');
    await pollUntil(() => asked.length === 1, 'the holders asked');
    expect(asked).toEqual(['lost']);
  });
});

describe('an allkeys-* maxmemory policy (not supported)', () => {
  it.each(['allkeys-lru', 'volatile-lru', 'noeviction'])(
    'under %s, ready() warns once naming it, for allkeys-* only',
    async (policy) => {
      await file.admin.configSet({ 'maxmemory-policy': policy });
      const warnings: string[] = [];
      const b = file.budget({ warn: (message) => warnings.push(message) });
      await b.ready();
      const held = await b.acquire(request(`ig-policy-${randomUUID()}`));
      held.release();
      expect(warnings).toEqual(
        policy.startsWith('allkeys-')
          ? [expect.stringMatching(/maxmemory-policy is allkeys-lru, which the budget does not/)]
          : [],
      );
    },
  );
});

import { startRedis, type TestRedis } from '@infergate/emulator/testing/redis';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACQUIRE_SCRIPT, leaseKeys, RELEASE_SCRIPT } from '../src/lease-scripts';
import type { RedisBudget } from '../src/redis-budget';
import { budgetMaker } from './budgets';

// How waiters learn that a slot is theirs, against a real redis-server: a release hands the slot
// to the first waiter in line and announces it on that waiter's own budget instance's channel —
// one message per handover, however many budgets (processes) wait — and a waiter whose message
// was lost still finds the slot it was handed when it asks again.

let redis: TestRedis;
let watcher: ReturnType<typeof createClient>;
let admin: ReturnType<typeof createClient>;
const open: RedisBudget[] = [];

beforeAll(async () => {
  redis = await startRedis();
  watcher = createClient({ url: redis.url });
  admin = createClient({ url: redis.url });
  await Promise.all([watcher.connect(), admin.connect()]);
});
afterAll(async () => {
  await Promise.all(open.map((b) => b.close()));
  await Promise.all([watcher.close(), admin.close()]);
  await redis.stop();
});

// A long TTL: waiters further back than the limit ask again only every TTL/3 (20 s here), so
// what moves them during the test is the message of the handover.
const budget = budgetMaker(
  () => ({ url: redis.url, commandTimeoutMs: 10_000, leaseTtlMs: 60_000 }),
  (b) => open.push(b),
);

const request = (id: string) => ({
  id,
  limit: 1,
  signal: new AbortController().signal,
  deadline: Date.now() + 600_000,
});

async function until(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((r) => setTimeout(r, 10));
}

describe('a release hands the slot over', () => {
  it('to the first waiter in line, FIFO across budgets, with one message per handover', async () => {
    const id = `handover-${Math.random()}`;
    const keys = leaseKeys('infergate:budget', id);
    const messages: { channel: string; token: string }[] = []; // (token: the message)
    await watcher.pSubscribe(`${keys.wake}*`, (token, channel) =>
      messages.push({ channel, token }),
    );

    const holder = budget();
    let lease = await holder.acquire(request(id));
    // Ten budgets (as ten processes would have), each with one waiter, queued in this order.
    const waiters = Array.from({ length: 10 }, () => budget());
    const granted: number[] = [];
    const waiting = [];
    for (const [i, w] of waiters.entries()) {
      waiting.push(
        w.acquire(request(id)).then((l) => {
          granted.push(i);
          return l;
        }),
      );
      await until(async () => (await admin.zCard(keys.queue)) === i + 1);
    }
    for (let i = 0; i < waiters.length; i++) {
      lease.release();
      lease = await waiting[i]!;
    }
    lease.release();
    await until(async () => (await admin.zCard(keys.holders)) === 0);

    expect(granted).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // One message per handover, each on the channel of the budget instance that owns the token;
    // and the waiter that thereby becomes first in line is told when the earliest lease expires.
    const handovers = messages.filter((m) => !m.token.startsWith('near '));
    expect(handovers).toHaveLength(10);
    for (const { channel, token } of handovers) {
      expect(channel).toBe(`${keys.wake}${token.split(':')[0]}`);
    }
    expect(new Set(handovers.map((m) => m.channel)).size).toBe(10);
    const nearing = messages.filter((m) => m.token.startsWith('near ')).map((m) => m.token);
    expect(nearing.map((m) => m.split(' ')[2])).toEqual(handovers.slice(1).map((m) => m.token));
    for (const m of nearing) expect(Number(m.split(' ')[1])).toBeGreaterThan(50_000);
  });
});

describe('a failover keeps its turn', () => {
  it('its next attempt (`ahead`) is handed the next slot before the waiters already in line', async () => {
    const id = `ahead-${Math.random()}`;
    const keys = leaseKeys('infergate:budget', id);
    const lease = await budget().acquire(request(id));
    const order: string[] = [];
    const wait = (name: string, ahead: boolean) =>
      budget()
        .acquire({ ...request(id), ...(ahead ? { ahead } : {}) })
        .then((l) => {
          order.push(name);
          return l;
        });
    const plain = wait('plain', false);
    await until(async () => (await admin.zCard(keys.queue)) === 1);
    const failover = wait('failover', true);
    await until(async () => (await admin.zCard(keys.queue)) === 2);
    lease.release();
    (await Promise.race([failover, plain])).release();
    for (const granted of await Promise.all([failover, plain])) granted.release();
    expect(order).toEqual(['failover', 'plain']);
  });
});

describe('a waiter whose message was lost', () => {
  it('finds the slot it was handed when it asks again', async () => {
    const id = `lost-${Math.random()}`;
    const k = leaseKeys('infergate:budget', id);
    const acquireKeys = [k.holders, k.queue, k.seen, k.seq, k.expired, k.limits, k.settle];
    const acquire = (token: string) =>
      admin.eval(ACQUIRE_SCRIPT, {
        keys: acquireKeys,
        arguments: [token, '1', '60000', '0', k.census, k.wake],
      }) as Promise<number[]>;
    expect((await acquire('holder:1'))[0]).toBe(1);
    expect((await acquire('waiter:1'))[0]).toBe(0);
    await admin.eval(RELEASE_SCRIPT, {
      keys: [k.holders, k.queue, k.seen, k.limits, k.settle],
      arguments: ['holder:1', k.wake, '1', '60000'],
    });
    // Nobody listened on waiter's channel; the slot is its own all the same.
    expect(await admin.zRange(k.holders, 0, -1)).toEqual(['waiter:1']);
    expect((await acquire('waiter:1'))[0]).toBe(1);
    expect((await acquire('third:1'))[0]).toBe(0);
  });
});

describe('an expired lease', () => {
  async function scripts(ttlMs: number) {
    const id = `census-${Math.random()}`;
    const k = leaseKeys('infergate:budget', id);
    const acquireKeys = [k.holders, k.queue, k.seen, k.seq, k.expired, k.limits, k.settle];
    const acquire = (token: string) =>
      admin.eval(ACQUIRE_SCRIPT, {
        keys: acquireKeys,
        arguments: [token, '1', String(ttlMs), '0', k.census, k.wake],
      }) as Promise<number[]>;
    return { k, acquire };
  }

  it('of a process that is gone costs no wait: nobody listens on its channel', async () => {
    const { k, acquire } = await scripts(100);
    expect((await acquire('gone:1'))[0]).toBe(1);
    await new Promise((r) => setTimeout(r, 150));
    expect((await acquire('next:1'))[0]).toBe(1);
    expect(await admin.exists(k.settle)).toBe(0);
  });

  it('of a process still alive is asked for on its own channel before anyone is granted', async () => {
    const { k, acquire } = await scripts(100);
    const asked: string[] = [];
    await watcher.subscribe(`${k.wake}alive`, (message) => asked.push(message));
    expect((await acquire('alive:1'))[0]).toBe(1);
    await new Promise((r) => setTimeout(r, 150));
    expect((await acquire('next:1'))[0]).toBe(0);
    expect(await admin.get(k.settle)).toBe('1');
    await until(async () => asked.length > 0);
    expect(asked).toEqual(['census']);
  });
});

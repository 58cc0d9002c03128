import { pollUntil } from '@infergate/emulator/testing/redis';
import { describe, expect, it } from 'vitest';
import { ACQUIRE_SCRIPT, leaseKeys, RELEASE_SCRIPT } from '../src/lease-scripts';
import { request as ask, expireLeasesNow, redisForFile } from './budgets';

// How waiters learn that a slot is theirs, against a real redis-server: a release hands the slot
// to the first waiter in line and announces it on that waiter's own budget instance's channel —
// one message per handover, however many budgets (processes) wait — and a waiter whose message
// was lost still finds the slot it was handed when it asks again.

// A long TTL: waiters further back than the limit ask again only every TTL/3 (20 s here), so
// what moves them during the test is the message of the handover.
const file = redisForFile({ commandTimeoutMs: 10_000, leaseTtlMs: 60_000 });
const budget = file.budget;
const request = (id: string) => ask(id, 1);
const queued = (id: string, count: number) =>
  pollUntil(
    async () => (await file.admin.zCard(leaseKeys('infergate:budget', id).queue)) === count,
    `${count} waiter(s) queued`,
  );

describe('a release hands the slot over', () => {
  it('to the first waiter in line, FIFO across budgets, with one message per handover', async () => {
    const id = `handover-${Math.random()}`;
    const keys = leaseKeys('infergate:budget', id);
    // (token: the message's token; a handover's message is
    // `<token> <server ms of the grant> <server ms the lease expires>`)
    // The listener only records: an expect thrown in it would escape through the socket's
    // handler (an unhandled error of the run, not a failure of this test). Asserted below.
    const received: { channel: string; message: string }[] = [];
    await file.listener.pSubscribe(`${keys.wake}*`, (message, channel) => {
      received.push({ channel, message });
    });

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
      await queued(id, i + 1);
    }
    for (let i = 0; i < waiters.length; i++) {
      lease.release();
      lease = await waiting[i]!;
    }
    lease.release();
    await pollUntil(async () => (await file.admin.zCard(keys.holders)) === 0, 'the last release');

    expect(granted).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const messages = received.map(({ channel, message }) => {
      const handover = !message.startsWith('near ');
      if (handover) {
        const [, at, expiry] = message.split(' ').map(Number);
        expect(at).toBeGreaterThan(0);
        expect(expiry).toBeGreaterThan(at ?? Number.POSITIVE_INFINITY);
      }
      return { channel, token: handover ? (message.split(' ')[0] ?? '') : message };
    });
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
    await queued(id, 1);
    const failover = wait('failover', true);
    await queued(id, 2);
    lease.release();
    (await Promise.race([failover, plain])).release();
    for (const granted of await Promise.all([failover, plain])) granted.release();
    expect(order).toEqual(['failover', 'plain']);
  });
});

/** The acquire script run by hand for `id`'s tokens (a limit of 1, a TTL of a minute). */
function scripts(id: string) {
  const k = leaseKeys('infergate:budget', id);
  const acquireKeys = [k.holders, k.queue, k.seen, k.seq, k.expired, k.limits, k.settle];
  const acquire = (token: string) =>
    file.admin.eval(ACQUIRE_SCRIPT, {
      keys: acquireKeys,
      arguments: [token, '1', '60000', '0', k.census, k.wake],
    }) as Promise<number[]>;
  return { k, acquire };
}

describe('a waiter nobody listens for (its process died, or its pub/sub connection is down)', () => {
  it('is passed over: the slot goes to the next waiter in line, and nobody holds it for a TTL', async () => {
    const id = `dead-${Math.random()}`;
    const { k, acquire } = scripts(id);
    const holder = budget();
    const lease = await holder.acquire(request(id));
    // A waiter of a process that is gone: its ticket is in line, nobody listens on its channel.
    expect((await acquire('dead:1'))[0]).toBe(0);
    const live = budget().acquire(request(id));
    await queued(id, 2);
    lease.release();
    (await live).release();
    await pollUntil(async () => (await file.admin.zCard(k.holders)) === 0, 'the last release');
    // It asked lately: it keeps its place (a live one takes the next slot when it asks again).
    expect(await file.admin.zRange(k.queue, 0, -1)).toEqual(['dead:1']);
  });

  it('keeps its place while it asked lately, and takes a free slot when it asks again', async () => {
    const { k, acquire } = scripts(`lost-${Math.random()}`);
    expect((await acquire('holder:1'))[0]).toBe(1);
    expect((await acquire('waiter:1'))[0]).toBe(0);
    await release(k, 'holder:1');
    expect(await file.admin.zCard(k.holders)).toBe(0);
    expect((await acquire('waiter:1'))[0]).toBe(1);
    expect((await acquire('third:1'))[0]).toBe(0);
  });

  it('leaves the line once it has not asked for half a TTL', async () => {
    const { k, acquire } = scripts(`stale-${Math.random()}`);
    expect((await acquire('holder:1'))[0]).toBe(1);
    expect((await acquire('gone:1'))[0]).toBe(0);
    // Its last ask was 40 s ago (TTL 60 s): the next handover drops it instead of passing it over.
    const [seconds] = (await file.admin.sendCommand(['TIME'])) as string[];
    await file.admin.zAdd(k.seen, { score: Number(seconds) * 1000 + 20_000, value: 'gone:1' });
    await release(k, 'holder:1');
    expect(await file.admin.zCard(k.queue)).toBe(0);
    expect(await file.admin.zCard(k.holders)).toBe(0);
  });
});

/** The release script run by hand (a limit of 1, a TTL of a minute). */
function release(k: ReturnType<typeof leaseKeys>, token: string) {
  return file.admin.eval(RELEASE_SCRIPT, {
    keys: [k.holders, k.queue, k.seen, k.limits, k.settle, k.seq],
    arguments: [token, k.wake, '1', '60000'],
  });
}

// The lease's TTL runs out when the test says (`expireLeasesNow`), not after a sleep.
describe('an expired lease', () => {
  it('of a process that is gone costs no wait: nobody listens on its channel', async () => {
    const id = `census-${Math.random()}`;
    const { k, acquire } = scripts(id);
    expect((await acquire('gone:1'))[0]).toBe(1);
    expect(await expireLeasesNow(file.admin, id)).toEqual(['gone:1']);
    expect((await acquire('next:1'))[0]).toBe(1);
    expect(await file.admin.exists(k.settle)).toBe(0);
  });

  it('of a process still alive is asked for on its own channel before anyone is granted', async () => {
    const id = `census-${Math.random()}`;
    const { k, acquire } = scripts(id);
    const asked: string[] = [];
    await file.listener.subscribe(`${k.wake}alive`, (message) => asked.push(message));
    expect((await acquire('alive:1'))[0]).toBe(1);
    expect(await expireLeasesNow(file.admin, id)).toEqual(['alive:1']);
    expect((await acquire('next:1'))[0]).toBe(0);
    expect(await file.admin.get(k.settle)).toBe('1');
    await pollUntil(() => asked.length > 0, 'the census message');
    expect(asked).toEqual(['census']);
  });
});

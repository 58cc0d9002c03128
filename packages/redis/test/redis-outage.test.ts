import { randomUUID } from 'node:crypto';
import type { BudgetLease } from '@infergate/core';
import { createGatewayClient, isGatewayError } from '@infergate/core';
import { startEmulator } from '@infergate/emulator';
import { caught } from '@infergate/emulator/testing';
import { pollUntil, startRedis, type TestRedis } from '@infergate/emulator/testing/redis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { leaseKeys } from '../src/lease-scripts';
import { budgetMaker, connectedClient, grantedByRedis, untilBackOnRedis } from './budgets';
import { makeCertificates } from './tls-certificates';

// A Redis outage costs a call nothing once it is known: the first call that finds Redis refused
// (or silent for a command timeout) starts it, and every call after takes the failure policy at
// once while the budget watches for Redis in the background. Against real redis-servers on
// loopback. "At once" is asserted without a clock: the call settles before a `setImmediate`
// callback runs, so it awaited no I/O and no timer — nothing a loaded machine could make late.

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn().catch(() => {});
});

async function redisServer(port?: number): Promise<TestRedis> {
  const redis = await startRedis(port);
  cleanup.push(() => redis.stop());
  return redis;
}

/**
 * A loopback port where nothing listens (a server started there, then stopped), for a test that
 * starts Redis there later; a test that only needs a refusal uses port 1.
 */
async function deadPort(): Promise<number> {
  const redis = await startRedis();
  await redis.stop();
  return redis.port;
}

const budget = budgetMaker(
  () => ({ warn: () => {} }),
  (b) => cleanup.push(() => b.close()),
);

const ask = (id: string) => ({
  id,
  limit: 4,
  signal: new AbortController().signal,
  deadline: Date.now() + 60_000,
});

/** What `promise` settled to before the next turn of the event loop, or 'not at once'. */
function atOnce<T>(promise: Promise<T>): Promise<T | 'not at once'> {
  const later = new Promise<'not at once'>((resolve) => setImmediate(() => resolve('not at once')));
  return Promise.race([promise, later]);
}

/**
 * `promise`, marked handled: a test that fails before awaiting it leaves the rejection the
 * cleanup's `close()` gives it (the budget was closed) unreported, not an unhandled rejection
 * that fails the run. Awaiting it still sees the rejection.
 */
function handledLater<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}

async function adminOf(url: string) {
  const admin = await connectedClient(url);
  admin.on('error', () => {}); // (a restart drops it too)
  cleanup.push(() => admin.close());
  return admin;
}

describe('Redis refusing connections', () => {
  it('the first call finds out; every later one falls back at once, with no round trip', async () => {
    const warnings: string[] = [];
    const port = await deadPort();
    const b = budget({ url: `redis://127.0.0.1:${port}`, warn: (m) => warnings.push(m) });
    const id = `refused-${randomUUID()}`;
    const held: BudgetLease[] = [await b.acquire(ask(id))];
    const roundTrips = b.stats.roundTrips;
    for (let i = 0; i < 20; i++) {
      const lease = await atOnce(b.acquire(ask(id)));
      expect(lease, `call ${i + 2}`).not.toBe('not at once');
      (lease as BudgetLease).release();
    }
    const free = await atOnce(b.acquireIfFree(ask(id)));
    expect(free).not.toBe('not at once');
    expect(free).toBeDefined();
    held.push(free as BudgetLease);
    expect(b.stats.roundTrips).toBe(roundTrips);
    expect(b.stats.fallbackAcquires).toBe(22);
    await pollUntil(() => warnings.length > 0, 'the warning');
    expect(warnings).toEqual([expect.stringContaining('(connection refused)')]);

    // Redis starts: the budget returns to it by itself, the two calls still running counted there.
    const redis = await redisServer(port);
    await untilBackOnRedis(b);
    const admin = await adminOf(redis.url);
    expect(await admin.zCard(leaseKeys('infergate:budget', id).holders)).toBe(2);
    const fallbackAcquires = b.stats.fallbackAcquires;
    const lease = await b.acquire(ask(id));
    expect(b.stats.fallbackAcquires).toBe(fallbackAcquires);
    expect(await admin.zCard(leaseKeys('infergate:budget', id).holders)).toBe(3);
    for (const l of [...held, lease]) l.release();
    expect(warnings).toHaveLength(1);
  });

  it("onRedisFailure 'error': later calls fail at once, naming why", async () => {
    // Port 1: nothing listens there, and no server of a test beside this one can be given it.
    const b = budget({ url: 'redis://127.0.0.1:1', onRedisFailure: 'error' });
    const id = `refused-error-${randomUUID()}`;
    const first = await caught(b.acquire(ask(id)), isGatewayError);
    expect(first.code).toBe('network_error');
    const next = await atOnce(caught(b.acquire(ask(id)), isGatewayError));
    expect(isGatewayError(next) && next.code).toBe('network_error');
    expect((next as Error).message).toContain('(connection refused)');
    // A hedge is optional: no slot, not an error, while nothing shared can be granted.
    expect(await atOnce(b.acquireIfFree(ask(id)))).toBeUndefined();
    expect(b.stats.fallbackAcquires).toBe(0);
  });
});

describe('Redis stopped while connected (issue 53)', () => {
  // A command timeout of two minutes: a call that waited for the dropped connection to come back
  // (as before the fix: 2 s by default, and the message said "no answer within 2000 ms") would
  // outlast the test's own bound. A stopped Redis refuses connections: that is known at the first
  // reconnection attempt, and nothing waits for it.
  const patient = { leaseTtlMs: 60_000, commandTimeoutMs: 120_000 };

  it('the next call falls back at once, saying the connection was refused', async () => {
    const redis = await redisServer();
    const warnings: string[] = [];
    const b = budget({ url: redis.url, ...patient, warn: (m) => warnings.push(m) });
    const id = `stopped-${randomUUID()}`;
    (await b.acquire(ask(id))).release(); // connected
    await redis.stop();
    const first = await b.acquire(ask(id));
    expect(b.stats.fallbackAcquires).toBe(1);
    const roundTrips = b.stats.roundTrips;
    const next = await atOnce(b.acquire(ask(id)));
    expect(next).not.toBe('not at once');
    for (const lease of [first, next as BudgetLease]) lease.release();
    expect(b.stats.roundTrips).toBe(roundTrips);
    await pollUntil(() => warnings.length > 0, 'the warning');
    expect(warnings).toEqual([expect.stringContaining('(connection refused)')]);
  }, 30_000);

  it("onRedisFailure 'error': the next call fails at once with network_error, saying refused", async () => {
    const redis = await redisServer();
    const b = budget({ url: redis.url, ...patient, onRedisFailure: 'error' });
    const id = `stopped-error-${randomUUID()}`;
    (await b.acquire(ask(id))).release(); // connected
    await redis.stop();
    const error = await caught(b.acquire(ask(id)), isGatewayError);
    expect(error.code).toBe('network_error');
    expect(error.message).toContain('(connection refused)');
    expect(error.message).not.toContain('timed out');
  }, 30_000);

  it('a call waiting in its queue waits for it to come back (a restart), keeping its turn', async () => {
    const redis = await redisServer();
    const id = `stopped-queued-${randomUUID()}`;
    const keys = leaseKeys('infergate:budget', id);
    const holder = budget({ url: redis.url, ...patient });
    const waiter = budget({ url: redis.url, ...patient });
    const held = await Promise.all(Array.from({ length: 4 }, () => holder.acquire(ask(id))));
    const waiting = handledLater(waiter.acquire(ask(id)));
    const admin = await adminOf(redis.url);
    await pollUntil(async () => (await admin.zCard(keys.queue)) === 1, 'the waiter queued');
    await redis.restart();
    // Meanwhile the holder's new calls fall back at once; the waiter waits in Redis's queue.
    await untilBackOnRedis(holder);
    for (const lease of held) lease.release();
    (await waiting).release();
    expect(waiter.stats.fallbackAcquires).toBe(0);
  }, 60_000);
});

describe('Redis frozen while a call waits for it: the abort or deadline ends the wait (issue 53)', () => {
  // A command timeout of two minutes: before the fix the call ended only then.
  const patient = { leaseTtlMs: 60_000, commandTimeoutMs: 120_000 };

  it('acquire and acquireIfFree reject with the abort reason at once; the late lease is released', async () => {
    const redis = await redisServer();
    const id = `frozen-abort-${randomUUID()}`;
    const b = budget({ url: redis.url, ...patient });
    (await b.acquire(ask(id))).release(); // connected
    redis.freeze();
    try {
      for (const take of [b.acquire, b.acquireIfFree]) {
        const controller = new AbortController();
        const sent = b.stats.roundTrips;
        const asking = take.call(b, { ...ask(id), signal: controller.signal }).catch((e) => e);
        await pollUntil(() => b.stats.roundTrips > sent, 'the script sent to the frozen Redis');
        const reason = new Error('the caller left');
        controller.abort(reason);
        expect(await atOnce(asking)).toBe(reason);
      }
    } finally {
      redis.resume();
    }
    // The scripts ran when Redis resumed; the releases sent after them leave nothing held.
    const admin = await adminOf(redis.url);
    await pollUntil(
      async () => (await admin.zCard(leaseKeys('infergate:budget', id).holders)) === 0,
      'no lease left',
    );
    expect(b.stats.fallbackAcquires).toBe(0);
  }, 30_000);

  it("a chat call's deadline ends it, with nothing sent to the gateway", async () => {
    const redis = await redisServer();
    const server = await startEmulator({ port: 0 });
    cleanup.push(() => server.close());
    const b = budget({ url: redis.url, ...patient });
    const client = createGatewayClient({ baseURL: server.url, apiKey: server.apiKey, budget: b });
    await client.chat({ model: 'community/general', messages: [{ role: 'user', content: 'hi' }] });
    server.emulator.resetCounters();
    redis.freeze();
    let error: unknown;
    try {
      error = await client
        .chat(
          { model: 'community/general', messages: [{ role: 'user', content: 'hi' }] },
          { timeoutMs: 500 },
        )
        .catch((e: unknown) => e);
    } finally {
      redis.resume();
    }
    expect(isGatewayError(error) && error.code).toBe('timeout');
    expect(server.emulator.counters.requests.chat).toBe(0);
  }, 30_000);
});

describe('Redis frozen (SIGSTOP, then SIGCONT)', () => {
  it('one call waits a command timeout; the others fall back at once; back, the fallback calls are counted before anything is granted', async () => {
    const redis = await redisServer();
    const id = `frozen-${randomUUID()}`;
    const keys = leaseKeys('infergate:budget', id);
    // A TTL of a minute: the periodic refresh (every 20 s) cannot be what registers the fallback's
    // calls when Redis is back.
    // 2 s is the frozen phase's subject (one call waits it). The first call, on a healthy Redis,
    // connects: on a loaded machine that can outlast 2 s, so it is retried until Redis granted one.
    const a = budget({ url: redis.url, leaseTtlMs: 60_000, commandTimeoutMs: 2_000 });
    await grantedByRedis(a, () => ask(id));
    const fallbacksBefore = a.stats.fallbackAcquires;
    redis.freeze();
    let held: BudgetLease[];
    try {
      held = [await a.acquire(ask(id))]; // no answer within 2 s: the outage starts
      for (let i = 0; i < 3; i++) {
        const lease = await atOnce(a.acquire(ask(id)));
        expect(lease, `call ${i + 2}`).not.toBe('not at once');
        held.push(lease as BudgetLease);
      }
      expect(a.stats.fallbackAcquires - fallbacksBefore).toBe(4);
    } finally {
      redis.resume();
    }
    await untilBackOnRedis(a);
    expect(a.stats.retakenLeases).toBeGreaterThanOrEqual(4);

    // Another process: the key's 4 slots are the fallback's calls, now counted in Redis.
    const b = budget({ url: redis.url, leaseTtlMs: 60_000, commandTimeoutMs: 10_000 });
    expect(await b.acquireIfFree(ask(id))).toBeUndefined();
    const order: string[] = [];
    const waiting = handledLater(
      b.acquire(ask(id)).then((lease) => {
        order.push('b');
        return lease;
      }),
    );
    const admin = await adminOf(redis.url);
    await pollUntil(async () => (await admin.zCard(keys.queue)) === 1, 'b queued');
    expect(order).toEqual([]);
    order.push('a released one');
    held[0]!.release();
    const granted = await waiting;
    expect(order).toEqual(['a released one', 'b']);
    for (const lease of [...held, granted]) lease.release();
  });
});

describe('close() during an outage (herd19 f1)', () => {
  // A command timeout of two minutes: a waiting call that close() did not end would wait for it
  // (as before the fix) and outlast the test's own bound.
  const patient = { leaseTtlMs: 60_000, commandTimeoutMs: 120_000 };

  /** Four leases held by one budget, and another's call waiting in Redis's queue. */
  async function oneWaiting(redis: TestRedis, id: string) {
    const holder = budget({ url: redis.url, ...patient });
    const waiter = budget({ url: redis.url, ...patient });
    const held = await Promise.all(Array.from({ length: 4 }, () => holder.acquire(ask(id))));
    cleanup.push(async () => {
      for (const lease of held) lease.release();
    });
    const waiting = handledLater(waiter.acquire(ask(id)));
    const admin = await adminOf(redis.url);
    const { queue } = leaseKeys('infergate:budget', id);
    await pollUntil(async () => (await admin.zCard(queue)) === 1, 'the waiter queued');
    await admin.close();
    return { holder, waiter, waiting };
  }

  it('Redis stopped: the call waiting for it to come back is refused at once', async () => {
    const redis = await redisServer();
    const id = `close-stopped-${randomUUID()}`;
    const { waiter, waiting } = await oneWaiting(redis, id);
    await redis.stop();
    // Another call settles once the outage is known (the fallback): the waiter now waits for
    // Redis to come back (at most the command timeout) to keep its turn.
    (await waiter.acquire(ask(`other-${id}`))).release();
    const closing = handledLater(waiter.close());
    const refused = await caught(waiting, isGatewayError);
    expect(refused.code).toBe('aborted');
    expect(refused.message).toMatch(/the budget was closed/);
    await closing;
    expect(waiter.stats.fallbackAcquires).toBe(1); // (the other call only)
  }, 30_000);

  it('Redis frozen: the call waiting for a script is refused at once; close() drops the sockets after one command timeout', async () => {
    const redis = await redisServer();
    const id = `close-frozen-${randomUUID()}`;
    const { holder, waiter, waiting } = await oneWaiting(redis, id);
    // The waiter's next poll held in Redis (its scripts wait while writes are paused), then Redis
    // frozen: the waiter waits for a script's answer. Seen in Redis's own state, not by a new
    // send after the freeze: a poll sent just before it would never be followed by another.
    const admin = await adminOf(redis.url);
    const holderSent = holder.stats.roundTrips;
    await admin.sendCommand(['CLIENT', 'PAUSE', '600000', 'WRITE']);
    cleanup.push(() => admin.sendCommand(['CLIENT', 'UNPAUSE']));
    // (A refresh of the holder's leases, if one came meanwhile, is held too: not the waiter's.)
    await pollUntil(
      async () => (await heldInRedis(admin)) > (holder.stats.roundTrips > holderSent ? 1 : 0),
      "the waiter's poll held in Redis",
    );
    redis.freeze();
    try {
      // The close's timers (its bound, the ticket's release) on a clock the test moves.
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const closing = handledLater(waiter.close());
      expect((await caught(waiting, isGatewayError)).code).toBe('aborted');
      await vi.advanceTimersByTimeAsync(patient.commandTimeoutMs);
      // No answer to the release within one command timeout: no graceful close that waits for
      // the frozen server a second time (per connection, one after the other, before the fix).
      expect(await atOnce(closing)).toBeUndefined();
    } finally {
      vi.useRealTimers();
      redis.resume();
    }
  }, 30_000);
});

/** How many clients' commands Redis holds (`blocked_clients`: a pause's, here). */
async function heldInRedis(admin: Awaited<ReturnType<typeof adminOf>>): Promise<number> {
  const info = await admin.info('clients');
  return Number(/blocked_clients:(\d+)/.exec(info)?.[1] ?? 0);
}

describe('a URL whose scheme the server does not speak', () => {
  it('redis:// on a TLS port: the warning and ready() say to use rediss://', async () => {
    const certificates = makeCertificates();
    cleanup.push(async () => certificates.remove());
    const tlsRedis = await startRedis(undefined, certificates);
    cleanup.push(() => tlsRedis.stop());
    const password = `pw-${randomUUID()}`;
    const warnings: string[] = [];
    const b = budget({
      url: `redis://user:${password}@127.0.0.1:${tlsRedis.port}`,
      warn: (m) => warnings.push(m),
    });
    const error = await caught(b.ready(), isGatewayError);
    expect(error.code).toBe('network_error');
    expect(error.message).toContain('speaks TLS: use a rediss:// URL');
    (await b.acquire(ask(`scheme-${randomUUID()}`))).release(); // the fallback
    await pollUntil(() => warnings.length > 0, 'the warning');
    expect(warnings).toEqual([expect.stringContaining('speaks TLS: use a rediss:// URL')]);
    for (const text of [...warnings, (error as Error).message, JSON.stringify(error)]) {
      expect(text).not.toContain(password);
    }
  });

  it('rediss:// on a plain port: the warning and ready() say to use redis://', async () => {
    const redis = await redisServer();
    const warnings: string[] = [];
    // The TLS greeting gets no answer from a plain Redis: the first connection times out.
    const b = budget({
      url: `rediss://127.0.0.1:${redis.port}`,
      commandTimeoutMs: 500,
      warn: (m) => warnings.push(m),
    });
    (await b.acquire(ask(`scheme-${randomUUID()}`))).release(); // the fallback
    await pollUntil(() => warnings.length > 0, 'the warning');
    expect(warnings).toEqual([expect.stringContaining('not TLS: use a redis:// URL')]);
    const error = await caught(b.ready(), isGatewayError);
    expect(error.code).toBe('network_error');
    expect(error.message).toContain('not TLS: use a redis:// URL');
  });
});

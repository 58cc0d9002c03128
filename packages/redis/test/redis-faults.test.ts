import { createGatewayClient } from '@infergate/core';
import { budgetId } from '@infergate/core/internal';
import { type EmulatedGateway, emulate } from '@infergate/emulator/testing';
import { startRedis, type TestRedis } from '@infergate/emulator/testing/redis';
import { createClient } from 'redis';
import { afterEach, describe, expect, it } from 'vitest';
import type { RedisBudget } from '../src/redis-budget';
import { budgetMaker } from './budgets';

// A Redis that forgets, freezes or answers late, as a restarted or managed one may: the gateway
// (the emulator's real HTTP server, which answers 429 past 4 in flight per key) must never see more
// than the key's limit. Each budget has its own connections and in-process count, as another
// process would. Bounds, not exact timings: the machine may be loaded.

const MODEL = 'community/general';
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn().catch(() => {});
});

async function redisServer(): Promise<TestRedis> {
  const redis = await startRedis();
  cleanup.push(() => redis.stop());
  return redis;
}

async function gateway(latencyMs: number): Promise<EmulatedGateway> {
  const server = await emulate({ as: 'http', scenario: { latencyMs } });
  cleanup.push(() => server.close());
  return server;
}

const budget = budgetMaker(
  () => ({ warn: () => {} }),
  (b) => cleanup.push(() => b.close()),
);

function client(
  server: EmulatedGateway,
  b: RedisBudget,
  maxConcurrencyPerKey?: number,
  timeoutMs?: number,
) {
  return createGatewayClient({
    baseURL: server.baseURL,
    apiKey: server.apiKey,
    budget: b,
    maxRetries: 0,
    maxConcurrency: 8,
    maxConcurrencyPerKey,
    timeoutMs,
  });
}

/** Starts `count` chat calls; each settles to 'ok' or the error code. */
function calls(c: ReturnType<typeof client>, count: number): Promise<string[]> {
  return Promise.all(
    Array.from({ length: count }, (_, i) =>
      c
        .chat({ model: MODEL, messages: [{ role: 'user', content: `n${i}` }] })
        .then(() => 'ok')
        .catch((error: { code?: string }) => error.code ?? String(error)),
    ),
  );
}

async function until(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** An acquire request on the emulator's key (as core would send it). */
const probe = (server: EmulatedGateway) => ({
  id: budgetId(server.baseURL, server.apiKey),
  limit: 4,
  signal: new AbortController().signal,
  deadline: Date.now() + 60_000,
});

const inflight = (server: EmulatedGateway) => server.emulator.counters.inflight[server.apiKey] ?? 0;

function expectNoMoreThan4(server: EmulatedGateway, results: string[]) {
  expect(results.filter((r) => r !== 'ok')).toEqual([]);
  expect(server.emulator.counters.concurrencyRejections).toBe(0);
  expect(server.emulator.counters.maxInflight[server.apiKey]).toBeLessThanOrEqual(4);
}

async function flushAll(url: string): Promise<void> {
  const admin = createClient({ url });
  await admin.connect();
  await admin.flushAll();
  await admin.close();
}

describe('Redis forgets the leases while calls run', () => {
  it('FLUSHALL: the holders re-take their leases; another process is not granted 4 more', async () => {
    const redis = await redisServer();
    // Answers take 8 s: on a loaded machine the flush and the next refresh must still land while
    // the four calls are in flight (with 3 s they once ended first, and nothing was re-taken).
    const server = await gateway(8000);
    const a = budget({ url: redis.url, leaseTtlMs: 3000, commandTimeoutMs: 10_000 });
    const b = budget({ url: redis.url, leaseTtlMs: 3000, commandTimeoutMs: 10_000 });
    const first = calls(client(server, a), 4);
    await until(() => inflight(server) === 4, 'four calls at the gateway');
    await flushAll(redis.url);
    const second = calls(client(server, b), 4);
    const results = [...(await first), ...(await second)];
    expectNoMoreThan4(server, results);
    expect(a.stats.retakenLeases).toBeGreaterThanOrEqual(4);
  });

  it('restart without persistence: the holders re-take their leases once reconnected', async () => {
    const redis = await redisServer();
    // Answers take 10 s: a restart and the re-take on a loaded machine still land while they run.
    const server = await gateway(10_000);
    const a = budget({ url: redis.url, leaseTtlMs: 3000, commandTimeoutMs: 10_000 });
    const first = calls(client(server, a), 4);
    await until(() => inflight(server) === 4, 'four calls at the gateway');
    await redis.restart();
    // Another process starts once the holders are back (while Redis is away it would count
    // alone, the documented fallback); before the fix nothing was re-taken (it starts after 2 s,
    // while the first calls still run).
    await until(() => a.stats.retakenLeases >= 4, 'the leases re-taken');
    expect(inflight(server)).toBe(4);
    const b = budget({ url: redis.url, leaseTtlMs: 3000, commandTimeoutMs: 10_000 });
    const second = calls(client(server, b), 4);
    const results = [...(await first), ...(await second)];
    expectNoMoreThan4(server, results);
    expect(b.stats.fallbackAcquires).toBe(0);
  });

  it('restart: calls of a running process that wait in Redis wait for it to come back', async () => {
    const redis = await redisServer();
    const server = await gateway(6000);
    const a = budget({ url: redis.url, leaseTtlMs: 3000, commandTimeoutMs: 10_000 });
    const b = budget({ url: redis.url, leaseTtlMs: 3000, commandTimeoutMs: 10_000 });
    const first = calls(client(server, a), 4);
    await until(() => inflight(server) === 4, 'four calls at the gateway');
    const second = calls(client(server, b), 4); // queued in Redis behind the first four
    await new Promise((r) => setTimeout(r, 300));
    await redis.restart();
    const results = [...(await first), ...(await second)];
    expectNoMoreThan4(server, results);
    // They did not count alone in the fallback: Redis was back within the command timeout.
    expect(b.stats.fallbackAcquires).toBe(0);
  });

  it('a process that used the key before waits for the holders after a loss', async () => {
    const redis = await redisServer();
    const server = await gateway(3000);
    const a = budget({ url: redis.url, leaseTtlMs: 3000, commandTimeoutMs: 10_000 });
    const b = budget({ url: redis.url, leaseTtlMs: 3000, commandTimeoutMs: 10_000 });
    await calls(client(server, b), 1); // b has seen the key's state in Redis
    server.emulator.resetCounters();
    const first = calls(client(server, a), 4);
    await until(() => inflight(server) === 4, 'four calls at the gateway');
    await flushAll(redis.url);
    const second = calls(client(server, b), 4);
    const results = [...(await first), ...(await second)];
    expectNoMoreThan4(server, results);
  });
});

describe('Redis answers after commandTimeoutMs', () => {
  const late = {
    'frozen (SIGSTOP, then SIGCONT)': async (redis: TestRedis, during: () => Promise<void>) => {
      redis.freeze();
      try {
        await during();
      } finally {
        redis.resume();
      }
    },
    'busy with a slow script': async (redis: TestRedis, during: () => Promise<void>) => {
      const admin = createClient({ url: redis.url });
      await admin.connect();
      // Holds the server for 3 s: every other command is answered after it.
      const busy = admin.eval(
        "local t = redis.call('TIME') local stop = t[1] * 1000 + t[2] / 1000 + 3000 repeat t = redis.call('TIME') until t[1] * 1000 + t[2] / 1000 > stop",
      );
      // The script is running (300 ms for it to start on a loaded machine, 2.7 s left of it: far
      // more than the 300 ms commandTimeoutMs the acquire below must outlast).
      await new Promise((r) => setTimeout(r, 300));
      try {
        await during();
      } finally {
        await busy;
        await admin.close();
      }
    },
  };
  it.each(Object.entries(late))(
    '%s: the lease a late script took is given back, no orphan slot',
    async (_how, slow) => {
      const redis = await redisServer();
      const id = `late-${Math.random()}`;
      const request = () => ({
        id,
        limit: 4,
        signal: new AbortController().signal,
        deadline: Date.now() + 60_000,
      });
      // A TTL of a minute: an orphan would hold its slot for the whole test.
      const a = budget({ url: redis.url, leaseTtlMs: 60_000, commandTimeoutMs: 300 });
      (await a.acquire(request())).release(); // connected
      await slow(redis, async () => {
        const lease = await a.acquire(request()); // no answer in time: the fallback
        lease.release();
        expect(a.stats.fallbackAcquires).toBeGreaterThanOrEqual(1);
      });
      const b = budget({ url: redis.url, leaseTtlMs: 60_000, commandTimeoutMs: 10_000 });
      const signal = AbortSignal.timeout(20_000);
      const leases = await Promise.all(
        Array.from({ length: 4 }, () =>
          b.acquire({ id, limit: 4, signal, deadline: Date.now() + 20_000 }),
        ),
      );
      for (const l of leases) l.release();
      expect(b.stats.fallbackAcquires).toBe(0);
    },
  );
});

describe('Redis frozen while calls run (SIGSTOP, then SIGCONT)', () => {
  it("onRedisFailure 'error': the other process's calls fail typed, the gateway never sees more than 4, and no slot is lost", async () => {
    const redis = await redisServer();
    const server = await gateway(5000);
    // A TTL of a minute: a lease orphaned by a late script would hold its slot past the test.
    // b's 2 s command timeout fails the frozen calls; its first call, on a healthy Redis, must be
    // answered within it (300 ms was not always enough on a loaded CI machine).
    const a = budget({ url: redis.url, leaseTtlMs: 60_000, commandTimeoutMs: 10_000 });
    const b = budget({
      url: redis.url,
      leaseTtlMs: 60_000,
      commandTimeoutMs: 2_000,
      onRedisFailure: 'error',
    });
    (await a.acquire(probe(server))).release(); // both connected
    (await b.acquire(probe(server))).release();
    const first = calls(client(server, a), 4);
    await until(() => inflight(server) === 4, 'four calls at the gateway');
    redis.freeze();
    let second: string[];
    try {
      second = await calls(client(server, b), 4);
    } finally {
      redis.resume();
    }
    expect(second).toEqual(['network_error', 'network_error', 'network_error', 'network_error']);
    expect(await first).toEqual(['ok', 'ok', 'ok', 'ok']);
    // The acquires Redis ran late were released: once the first calls end, all 4 slots are free
    // (an orphan would keep a call waiting past its 20 s deadline). Asked by a third process: b's
    // command timeout, there to fail the frozen calls fast, can fail calls on a loaded CI machine
    // too.
    const c = budget({ url: redis.url, leaseTtlMs: 60_000, commandTimeoutMs: 10_000 });
    const third = await calls(client(server, c, undefined, 20_000), 4);
    expect(third).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(server.emulator.counters.concurrencyRejections).toBe(0);
    expect(server.emulator.counters.maxInflight[server.apiKey]).toBeLessThanOrEqual(4);
  });
});

describe('Redis frozen longer than the lease TTL', () => {
  it('the leases that expired meanwhile are asked for before another process is granted', async () => {
    const redis = await redisServer();
    const server = await gateway(6000);
    const a = budget({ url: redis.url, leaseTtlMs: 1000, commandTimeoutMs: 10_000 });
    const b = budget({ url: redis.url, leaseTtlMs: 1000, commandTimeoutMs: 10_000 });
    (await b.acquire(probe(server))).release(); // connected
    const first = calls(client(server, a), 4);
    await until(() => inflight(server) === 4, 'four calls at the gateway');
    redis.freeze();
    // Sent while Redis is frozen: it runs them, and the holders' refreshes, when it resumes, in
    // no fixed order; by its clock the four leases have expired by then.
    const second = calls(client(server, b), 4);
    await new Promise((r) => setTimeout(r, 2500));
    redis.resume();
    const results = [...(await first), ...(await second)];
    expectNoMoreThan4(server, results);
  });
});

describe('Redis unreachable mid-lease', () => {
  it('the fallback counts the slots this process already holds', async () => {
    const redis = await redisServer();
    const server = await gateway(2000);
    const a = budget({ url: redis.url, leaseTtlMs: 3000, commandTimeoutMs: 2000 });
    const c = client(server, a);
    const first = calls(c, 4);
    await until(() => inflight(server) === 4, 'four calls at the gateway');
    await redis.stop();
    const second = calls(c, 4);
    const results = [...(await first), ...(await second)];
    expectNoMoreThan4(server, results);
    expect(a.stats.fallbackAcquires).toBeGreaterThanOrEqual(4);
  });
});

describe('two apps on one key with limits 4 and 8', () => {
  it('the smallest limit applies to both: tickets stay in order and the gateway sees ≤ 4', async () => {
    const redis = await redisServer();
    const server = await gateway(300);
    const warnings: string[] = [];
    const four = budget({ url: redis.url, leaseTtlMs: 3000, commandTimeoutMs: 10_000 });
    const eight = budget({
      url: redis.url,
      leaseTtlMs: 3000,
      commandTimeoutMs: 10_000,
      warn: (m) => warnings.push(m),
    });
    await calls(client(server, four, 4), 1); // the limit-4 app has used the key
    server.emulator.resetCounters();
    const results = await Promise.all([
      calls(client(server, four, 4), 8),
      calls(client(server, eight, 8), 8),
    ]);
    expectNoMoreThan4(server, results.flat());
    expect(warnings.some((w) => w.includes('smallest limit'))).toBe(true);
  });

  it("the limit-4 app's first waiter is served before the limit-8 app's later tickets", async () => {
    const redis = await redisServer();
    const id = budgetId('http://x.test', `mixed-${Math.random()}`);
    const four = budget({ url: redis.url, leaseTtlMs: 3000, commandTimeoutMs: 10_000 });
    const eight = budget({ url: redis.url, leaseTtlMs: 3000, commandTimeoutMs: 10_000 });
    const admin = createClient({ url: redis.url });
    await admin.connect();
    cleanup.push(() => admin.close());
    const queued = async (count: number) => {
      while ((await admin.zCard(`{infergate:budget:${id}}:queue`)) < count) {
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    const ask = (b: RedisBudget, limit: number) =>
      b.acquire({ id, limit, signal: new AbortController().signal, deadline: Date.now() + 60_000 });
    (await ask(four, 4)).release(); // the limit-4 app has used the key
    const holding = await Promise.all([1, 2, 3, 4].map(() => ask(eight, 8)));
    const order: string[] = [];
    const waiter = ask(four, 4).then((l) => {
      order.push('four');
      return l;
    });
    await queued(1); // queued first
    const later = [1, 2, 3].map((i) =>
      ask(eight, 8).then((l) => {
        order.push(`eight-${i}`);
        return l;
      }),
    );
    await queued(4);
    expect(order).toEqual([]); // the limit 4 applies: all 4 slots are taken
    holding[0]?.release();
    (await waiter).release();
    for (const l of holding.slice(1)) l.release();
    for (const l of await Promise.all(later)) l.release();
    expect(order[0]).toBe('four');
  });
});

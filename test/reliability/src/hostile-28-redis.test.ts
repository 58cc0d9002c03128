import { createGatewayClient, type GatewayClient, type KeyBudget } from '@infergate/core';
import { budgetId } from '@infergate/core/internal';
import { type EmulatedGateway, emulate } from '@infergate/emulator/testing';
import { pollUntil, startRedis, type TestRedis } from '@infergate/emulator/testing/redis';
import { createRedisBudget, type RedisBudget } from '@infergate/redis';
import { createClient } from 'redis';
import { afterAll, afterEach, describe, expect } from 'vitest';
import { grantedByRedis, untilWaitingInRedis } from '../../../packages/redis/test/budgets';
import { hostileSuite } from './harness/hostile-rows';

/**
 * The hostile cases outside core: a Redis that forgets, freezes or answers late under the
 * shared budget, and the emulator's count of a request being generated. The gateway is the
 * emulator's real HTTP server, which answers 429 past 4 of a key in flight: every call of a row
 * succeeds without a retry and the emulator never counts more than 4. (packages/redis's
 * redis-faults test has the cases these rows do not.)
 *
 * The first process's calls are held by the emulator (`hold()`) while the fault happens and the
 * other process's calls wait in Redis's queue; then released. The rows wait for those states, not
 * for an answer latency meant to outlast them on a loaded machine. A lease's TTL runs out when a
 * row says (its expiry set to now); a command timeout, the subject of its rows, is waited for.
 */

const MODEL = 'community/general';
const suite = hostileSuite('hostile-28-redis');
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn().catch(() => {});
});
afterAll(() => suite.write());

async function redisServer(): Promise<TestRedis> {
  const redis = await startRedis();
  cleanup.push(() => redis.stop());
  return redis;
}

async function gateway(scenario: Record<string, unknown>): Promise<EmulatedGateway> {
  const server = await emulate({ as: 'http', scenario });
  cleanup.push(() => server.close());
  return server;
}

function budget(
  url: string,
  options: Partial<Parameters<typeof createRedisBudget>[0]> = {},
): RedisBudget {
  const b = createRedisBudget({ url, leaseTtlMs: 3000, warn: () => {}, ...options });
  cleanup.push(() => b.close());
  return b;
}

function calls(
  server: EmulatedGateway,
  b: KeyBudget,
  count: number,
  maxConcurrencyPerKey?: number,
  timeoutMs?: number,
): Promise<string[]> {
  const client = createGatewayClient({
    baseURL: server.baseURL,
    apiKey: server.apiKey,
    budget: b,
    maxRetries: 0,
    maxConcurrency: 8,
    maxConcurrencyPerKey,
    timeoutMs,
  });
  return chats(client, count);
}

/** `count` chats of `client` at once: each `'ok'` or its error's code. */
function chats(client: GatewayClient, count: number): Promise<string[]> {
  return Promise.all(
    Array.from({ length: count }, (_, i) =>
      client
        .chat({ model: MODEL, messages: [{ role: 'user', content: `n${i}` }] })
        .then(() => 'ok')
        .catch((error: { code?: string }) => error.code ?? String(error)),
    ),
  );
}

function expectAtMost4(server: EmulatedGateway, results: string[]): void {
  expect(results.filter((r) => r !== 'ok')).toEqual([]);
  expect(server.emulator.counters.concurrencyRejections).toBe(0);
  expect(server.emulator.counters.maxInflight[server.apiKey]).toBeLessThanOrEqual(4);
}

/**
 * 4 calls of one process held at the gateway, `fault` done to Redis; once the holders re-took
 * their leases, 4 calls of another process, which must wait in Redis's line; then the answers.
 */
async function loseLeases(fault: (redis: TestRedis) => Promise<void>): Promise<void> {
  const redis = await redisServer();
  const server = await gateway({});
  const release = server.hold();
  const a = budget(redis.url, { commandTimeoutMs: 10_000 });
  const first = calls(server, a, 4);
  await server.untilHeld(4, { key: server.apiKey });
  await fault(redis);
  await pollUntil(() => a.stats.retakenLeases >= 4, 'the leases re-taken');
  expect(server.counters.inflight[server.apiKey]).toBe(4);
  const b = budget(redis.url, { commandTimeoutMs: 10_000 });
  const second = calls(server, b, 4);
  await untilWaitingInRedis(redis.url, server);
  release();
  expectAtMost4(server, [...(await first), ...(await second)]);
  // Redis was back within the command timeout: the other process did not count alone.
  expect(b.stats.fallbackAcquires).toBe(0);
}

describe('hostile 28: a Redis that forgets', () => {
  suite.row(
    {
      id: 'Q-flushall',
      area: 'redis',
      case: 'FLUSHALL while one process runs 4 calls; another process then sends 4',
      expect: 'the holders re-take their leases; the gateway never sees more than 4; 0 429s',
      before:
        'refresh returned 0 and stopped; the other process was granted 4 more (8 at the gateway, 429s)',
    },
    () =>
      loseLeases(async (redis) => {
        const admin = createClient({ url: redis.url });
        await admin.connect();
        await admin.flushAll();
        await admin.close();
      }),
  );
  suite.row(
    {
      id: 'Q-restart',
      area: 'redis',
      case: 'redis-server killed and restarted empty while one process runs 4 calls',
      expect: 'the holders re-take their leases on reconnecting; at most 4 at the gateway',
      before: 'the leases were never re-taken; another process was granted 4 more',
    },
    () => loseLeases((redis) => redis.restart()),
  );
  suite.row(
    {
      id: 'Q-restart-queued',
      area: 'redis',
      case: 'redis-server restarted empty while one process runs 4 calls and another has 4 queued',
      expect:
        'the queued calls wait for Redis to come back (no fallback) and run after the first four; 0 429s',
      before: 'the queued calls fell back to a fresh in-process budget at once: 8 at the gateway',
    },
    async () => {
      const redis = await redisServer();
      const server = await gateway({});
      const release = server.hold();
      const a = budget(redis.url, { commandTimeoutMs: 10_000 });
      const b = budget(redis.url, { commandTimeoutMs: 10_000 });
      const first = calls(server, a, 4);
      await server.untilHeld(4, { key: server.apiKey });
      const second = calls(server, b, 4);
      await untilWaitingInRedis(redis.url, server);
      await redis.restart();
      // The restart emptied the queue: the waiting calls ask again once Redis is back, and wait
      // there again behind the re-taken leases (a fallback would have sent them to the gateway).
      await pollUntil(() => a.stats.retakenLeases >= 4, 'the leases re-taken');
      await untilWaitingInRedis(redis.url, server);
      release();
      expectAtMost4(server, [...(await first), ...(await second)]);
      expect(b.stats.fallbackAcquires).toBe(0);
    },
  );
  suite.row(
    {
      id: 'Q-late-reply',
      area: 'redis',
      case: 'Redis frozen (SIGSTOP) past commandTimeoutMs during an acquire, then resumed',
      expect:
        'the call falls back; the lease the late script took is released: another process gets all 4 slots',
      before: 'the late lease stayed as an orphan for leaseTtlMs (one slot lost)',
    },
    async () => {
      const redis = await redisServer();
      const id = `late-${Math.random()}`;
      const ask = (b: RedisBudget, signal: AbortSignal) =>
        b.acquire({ id, limit: 4, signal, deadline: Date.now() + 60_000 });
      // 300 ms is the frozen phase's subject; the first call connects, which on a loaded machine
      // can outlast it: retried until Redis granted one (else no late script, the wrong path).
      const a = budget(redis.url, { leaseTtlMs: 60_000, commandTimeoutMs: 300 });
      await grantedByRedis(a, () => ({
        id,
        limit: 4,
        signal: new AbortController().signal,
        deadline: Date.now() + 60_000,
      }));
      const fallbacksBefore = a.stats.fallbackAcquires;
      redis.freeze();
      try {
        (await ask(a, new AbortController().signal)).release();
      } finally {
        redis.resume();
      }
      expect(a.stats.fallbackAcquires - fallbacksBefore).toBeGreaterThanOrEqual(1);
      const b = budget(redis.url, { leaseTtlMs: 60_000, commandTimeoutMs: 10_000 });
      const signal = AbortSignal.timeout(20_000);
      const leases = await Promise.all([1, 2, 3, 4].map(() => ask(b, signal)));
      for (const lease of leases) lease.release();
      expect(b.stats.fallbackAcquires).toBe(0);
    },
  );
  suite.row(
    {
      id: 'Q-sigstop-error',
      area: 'redis',
      case: "Redis frozen (SIGSTOP) while one process runs 4 calls; another process (onRedisFailure: 'error') sends 4; then SIGCONT",
      expect:
        'the 4 fail with network_error; at most 4 at the gateway; afterwards all 4 slots are free (no orphan lease)',
      before: 'the late acquires left 4 orphan leases: the next calls waited leaseTtlMs',
    },
    async () => {
      const redis = await redisServer();
      const server = await gateway({});
      // A TTL of a minute: a lease orphaned by a late script would hold its slot past the test.
      // b's command timeout fails the frozen calls (time is the subject). Its first call, on a
      // healthy Redis, connects, which on a loaded machine can outlast it: retried until Redis
      // granted one (a refused one is an outage that would fail the frozen calls at once).
      const a = budget(redis.url, { leaseTtlMs: 60_000, commandTimeoutMs: 60_000 });
      const b = budget(redis.url, {
        leaseTtlMs: 60_000,
        commandTimeoutMs: 2000,
        onRedisFailure: 'error',
      });
      await grantedByRedis(b, () => ({
        id: `warm-up-${Math.random()}`,
        limit: 4,
        signal: new AbortController().signal,
        deadline: Date.now() + 60_000,
      }));
      server.emulator.resetCounters();
      const release = server.hold();
      const first = calls(server, a, 4);
      await server.untilHeld(4, { key: server.apiKey });
      redis.freeze();
      let second: string[];
      try {
        second = await calls(server, b, 4);
      } finally {
        redis.resume();
      }
      release();
      expect(second).toEqual(['network_error', 'network_error', 'network_error', 'network_error']);
      expect(await first).toEqual(['ok', 'ok', 'ok', 'ok']);
      // All 4 slots free: a third process gets them well within leaseTtlMs (an orphan lease would
      // hold its slot 60 s, past the calls' 20 s deadline). Not asked through `b`: its command
      // timeout, there to fail the frozen calls, can fail calls on a loaded machine too.
      const c = budget(redis.url, { leaseTtlMs: 60_000, commandTimeoutMs: 10_000 });
      expectAtMost4(server, await calls(server, c, 4, undefined, 20_000));
    },
  );
  suite.row(
    {
      id: 'Q-freeze-past-ttl',
      area: 'redis',
      case: "one process's 4 leases expire in Redis while it runs 4 calls (a freeze past the TTL), and another process sends 4",
      expect:
        'the expired leases are asked for (census) before their slots are granted; at most 4 at the gateway',
      before: 'leases expired by the frozen clock were free slots at once: 8 at the gateway',
    },
    async () => {
      const redis = await redisServer();
      const server = await gateway({});
      // A TTL of a minute: no refresh runs during the row; the leases expire when the row says,
      // as a Redis frozen past the TTL finds them when it resumes (its clock cannot be injected).
      const a = budget(redis.url, { leaseTtlMs: 60_000, commandTimeoutMs: 10_000 });
      const b = budget(redis.url, { leaseTtlMs: 60_000, commandTimeoutMs: 10_000 });
      await calls(server, b, 1); // connected
      server.emulator.resetCounters();
      const release = server.hold();
      const first = calls(server, a, 4);
      await server.untilHeld(4, { key: server.apiKey });
      const admin = createClient({ url: redis.url });
      await admin.connect();
      cleanup.push(() => admin.close());
      const holders = `{infergate:budget:${budgetId(server.baseURL, server.apiKey)}}:holders`;
      const tokens = await admin.zRange(holders, 0, -1);
      expect(tokens).toHaveLength(4);
      await admin.zAdd(
        holders,
        tokens.map((value) => ({ score: 0, value })),
        { XX: true },
      );
      const second = calls(server, b, 4);
      // The census: the live holders answer it by re-taking their leases.
      await pollUntil(() => a.stats.retakenLeases >= 4, 'the leases re-taken');
      await untilWaitingInRedis(redis.url, server);
      release();
      expectAtMost4(server, [...(await first), ...(await second)]);
      expect(b.stats.expiredLeases).toBe(4);
    },
  );
  suite.row(
    {
      id: 'Q-fallback-held',
      area: 'redis',
      case: 'Redis unreachable while a process holds 4 leases; it sends 4 more',
      expect: 'the fallback counts the 4 held: the 4 more wait; at most 4 at the gateway',
      before: 'a fresh in-process fallback: the process ran 8',
    },
    async () => {
      const redis = await redisServer();
      const server = await gateway({});
      // Not the subject: a stopped Redis refuses connections, an outage at once. Generous, so
      // that the first four, on a healthy Redis, are granted by it however loaded the machine.
      const a = budget(redis.url, { commandTimeoutMs: 60_000 });
      const id = budgetId(server.baseURL, server.apiKey);
      // One client for both batches, its catalog read before the hold: a client's first look-up
      // takes a slot too, and would wait behind the 4 held with the chats that need it.
      const client = createGatewayClient({
        baseURL: server.baseURL,
        apiKey: server.apiKey,
        budget: a,
        maxRetries: 0,
        maxConcurrency: 8,
      });
      await client.model(MODEL);
      const release = server.hold();
      try {
        const first = chats(client, 4);
        await server.untilHeld(4, { key: server.apiKey });
        expect(a.stats.fallbackAcquires).toBe(0); // the first four hold leases in Redis
        await redis.stop();
        // The budget knows Redis is down before the 4 more: a call of another key, on the
        // fallback at once (a stopped Redis refuses connections). So they meet the fallback as
        // soon as they ask, never Redis.
        const other = { id: `${id}-other`, limit: 4, signal: new AbortController().signal };
        (await a.acquire({ ...other, deadline: Date.now() + 60_000 })).release();
        expect(a.stats.fallbackAcquires).toBe(1);
        const second = chats(client, 4);
        // The 4 more wait for a slot of the fallback, which counts the 4 held: until the budget
        // says all 4 wait, or one reached the gateway (a fallback that forgot the 4 held let it
        // through: the gateway, at its limit, refuses it at once; refusals are not held).
        const refused = () => server.counters.concurrencyRejections;
        await pollUntil(() => a.state(id).queued === 4 || refused() > 0, 'the 4 more waiting');
        expect(refused()).toBe(0);
        expect(a.state(id)).toEqual({ active: 4, queued: 4 });
        release();
        expectAtMost4(server, [...(await first), ...(await second)]);
      } finally {
        release();
      }
      expect(a.stats.fallbackAcquires).toBeGreaterThanOrEqual(4);
    },
  );
  suite.row(
    {
      id: 'Q-mixed-limits',
      area: 'redis',
      case: 'two apps on one key with limits 4 and 8, 8 calls each at once',
      expect:
        'the smallest limit applies to both (ticket order kept); at most 4 at the gateway; 0 429s',
      before:
        "the limit-8 app's later tickets overtook the limit-4 app's first waiter (8 at the gateway)",
    },
    async () => {
      const redis = await redisServer();
      const server = await gateway({ latencyMs: 300 });
      const warnings: string[] = [];
      const four = budget(redis.url, { commandTimeoutMs: 10_000 });
      const eight = budget(redis.url, { commandTimeoutMs: 10_000, warn: (m) => warnings.push(m) });
      await calls(server, four, 1, 4); // the limit-4 app has used the key
      server.emulator.resetCounters();
      const results = await Promise.all([calls(server, four, 8, 4), calls(server, eight, 8, 8)]);
      expectAtMost4(server, results.flat());
      expect(warnings.some((w) => w.includes('smallest limit'))).toBe(true);
    },
  );
});

describe('hostile 28: the emulator counts a request being generated', () => {
  suite.row(
    {
      id: 'E-inflight-arrival',
      area: 'emulator',
      case: 'a non-streamed chat waiting for its headers (latency or slow_headers) on a model of capacity 1',
      expect: '/models inflight counts it; a second request is model_busy',
      before:
        'counted only for the time its stream would take: inflight 0, the second request served',
    },
    async () => {
      const server = await gateway({ models: { 'community/plain': { capacity: 1 } } });
      server.emulator.injectFault({ fault: 'slow_headers', ms: 60_000, endpoint: 'chat' });
      const ask = (signal?: AbortSignal) =>
        fetch(`${server.baseURL}/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            model: 'community/plain',
            messages: [{ role: 'user', content: 'hi' }],
          }),
          signal,
        });
      const listed = async () => {
        const list = (await (
          await fetch(`${server.baseURL}/models`, {
            headers: { authorization: `Bearer ${server.apiKey}` },
          })
        ).json()) as { data: { id: string; inflight: number }[] };
        return list.data.find((m) => m.id === 'community/plain')?.inflight;
      };
      const abort = new AbortController();
      const first = ask(abort.signal).catch(() => undefined);
      await pollUntil(async () => (await listed()) === 1, '/models counting the first request');
      server.emulator.clearFaults();
      const second = await ask();
      expect(second.status).toBe(429);
      expect(((await second.json()) as { error: { code: string } }).error.code).toBe('model_busy');
      abort.abort();
      await first;
    },
  );
});

import { budgetId } from '@infergate/core/internal';
import type { EmulatedGateway } from '@infergate/emulator/testing';
import { pollUntil, startRedis, type TestRedis } from '@infergate/emulator/testing/redis';
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { leaseKeys } from '../src/lease-scripts';
import { createRedisBudget, type RedisBudget, type RedisBudgetOptions } from '../src/redis-budget';

/**
 * A test file's way to make Redis budgets: each over `defaults()` (read at each call, so it may
 * name a server started later) and then the call's options, handed to `keep` (the file's list of
 * what its cleanup closes).
 */
export function budgetMaker(
  defaults: () => Partial<RedisBudgetOptions>,
  keep: (budget: RedisBudget) => void,
): (options?: Partial<RedisBudgetOptions>) => RedisBudget {
  return (options = {}) => {
    const budget = createRedisBudget({ ...defaults(), ...options } as RedisBudgetOptions);
    keep(budget);
    return budget;
  };
}

export type RedisClient = ReturnType<typeof createClient>;

/** A plain client of the test's own on `url`, connected. */
export async function connectedClient(url: string): Promise<RedisClient> {
  const client: RedisClient = createClient({ url });
  await client.connect();
  return client;
}

/**
 * For a test file whose tests each start their own redis-server(s): `cleanup` takes what to undo
 * after the test (run last first, each failure ignored), and `server()` starts a redis-server with
 * a plain client of the test's own on it, both gone after the test. The client ignores its error
 * events: a test that stops or fails over its server drops it.
 */
export function serversPerTest(): {
  cleanup: (() => Promise<unknown>)[];
  server(): Promise<{ redis: TestRedis; admin: RedisClient }>;
} {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn().catch(() => {});
  });
  return {
    cleanup,
    async server() {
      const redis = await startRedis();
      const admin = await connectedClient(redis.url);
      admin.on('error', () => {});
      cleanup.push(() => redis.stop());
      cleanup.push(() => admin.close());
      return { redis, admin };
    },
  };
}

/**
 * A failover's demotion: the Redis of `admin` becomes a replica of the one on `primaryPort`
 * (keeping its connections open), waited until it answers a write with READONLY.
 */
export async function demoteToReplicaOf(admin: RedisClient, primaryPort: number): Promise<void> {
  await admin.replicaOf('127.0.0.1', primaryPort);
  await pollUntil(
    () =>
      admin.set('probe', '1').then(
        () => false,
        (e: Error) => e.message.startsWith('READONLY'),
      ),
    'the demoted node answering READONLY',
  );
}

/** One redis-server for a whole test file, with two plain clients of the test's own. */
export interface FileRedis {
  redis: TestRedis;
  /** For reading and writing keys. */
  admin: RedisClient;
  /** For a subscription or MONITOR (a connection that does nothing else). */
  listener: RedisClient;
  /** A budget on this server over the file's `defaults`, closed after the file's tests. */
  budget(options?: Partial<RedisBudgetOptions>): RedisBudget;
}

/**
 * Starts a redis-server and connects the two clients before the file's tests; after them closes
 * every budget made with `budget()`, the clients, and the server. The fields are set once the
 * file's tests run.
 */
export function redisForFile(defaults: Partial<RedisBudgetOptions> = {}): FileRedis {
  const open: RedisBudget[] = [];
  const file = {
    budget: budgetMaker(
      () => ({ url: file.redis.url, ...defaults }),
      (b) => open.push(b),
    ),
  } as FileRedis;
  beforeAll(async () => {
    file.redis = await startRedis();
    [file.admin, file.listener] = await Promise.all([
      connectedClient(file.redis.url),
      connectedClient(file.redis.url),
    ]);
  });
  afterAll(async () => {
    // Whatever started: a failed start is reported by beforeAll, not hidden behind this hook's.
    await Promise.all(open.map((b) => b.close()));
    await Promise.all([file.admin?.close(), file.listener?.close()]);
    await file.redis?.stop();
  });
  return file;
}

/** An acquire request for `id` that only the test ends (no abort, a deadline far away). */
export const request = (id: string, limit = 4) => ({
  id,
  limit,
  signal: new AbortController().signal,
  deadline: Date.now() + 600_000,
});

/**
 * Makes every lease of `id` expire now, by the server's clock, as the TTL would once it ran out
 * (a lease's score in the holders' set is its expiry): the test drives the expiry instead of
 * sleeping through a TTL. Answers the tokens.
 */
export async function expireLeasesNow(
  admin: RedisClient,
  id: string,
  keyPrefix = 'infergate:budget',
): Promise<string[]> {
  const holders = leaseKeys(keyPrefix, id).holders;
  const tokens = await admin.zRange(holders, 0, -1);
  if (tokens.length > 0) {
    await admin.zAdd(
      holders,
      tokens.map((value) => ({ score: 0, value })),
      { XX: true },
    );
  }
  return tokens;
}

/**
 * Keeps `id`'s one lease held through 2.5 of its TTLs without sleeping through them. Its holder
 * took it under fake interval timers (`vi.useFakeTimers({ toFake: ['setInterval',
 * 'clearInterval'] })`): each refresh period the lease's TTL runs out now, the fake clock moves
 * one period (TTL/3), and the holder's refresh must write a new expiry before the next.
 */
export async function holdPastTtl(admin: RedisClient, id: string, ttl: number): Promise<void> {
  const holders = leaseKeys('infergate:budget', id).holders;
  for (let period = 0; period < 8; period++) {
    const [token] = await expireLeasesNow(admin, id);
    if (token === undefined) throw new Error(`no lease of ${id} held`);
    vi.advanceTimersByTime(Math.floor(ttl / 3));
    await pollUntil(
      async () => ((await admin.zScore(holders, token)) ?? 0) > 0,
      `the refresh of period ${period + 1}`,
    );
  }
}

/**
 * Until a call of `gateway`'s key waits in Redis's line (a ticket taken, no slot granted), or the
 * gateway saw more than its limit (the failure a test checks for). Shared with the reliability
 * suite's Redis rows.
 */
export async function untilWaitingInRedis(url: string, gateway: EmulatedGateway): Promise<void> {
  const admin = await connectedClient(url);
  const { queue } = leaseKeys('infergate:budget', budgetId(gateway.baseURL, gateway.apiKey));
  try {
    await pollUntil(
      async () => gateway.counters.concurrencyRejections > 0 || (await admin.zCard(queue)) > 0,
      'a call waiting in Redis',
    );
  } finally {
    await admin.close();
  }
}

/** What `grantedByRedis` uses of a budget (a structural type: the reliability suite's budgets come
 *  from the built package). */
interface WarmableBudget<R> {
  acquire(request: R): Promise<{ release(): void }>;
  ready(): Promise<void>;
  readonly stats: { readonly fallbackAcquires: number };
}

/**
 * Until one of `budget`'s calls was granted by Redis itself (not by its fallback, not refused):
 * a budget's first call connects, and on a loaded machine that can outlast a short
 * `commandTimeoutMs` kept for the test's later phase (its subject), starting an outage early and
 * sending the test down the wrong path. A missed try waits for the budget to be back on Redis.
 */
export async function grantedByRedis<R>(budget: WarmableBudget<R>, ask: () => R): Promise<void> {
  for (let tries = 1; ; tries++) {
    const fallbacks = budget.stats.fallbackAcquires;
    const granted = await budget.acquire(ask()).then(
      (lease) => {
        lease.release();
        return true;
      },
      () => false, // `onRedisFailure: 'error'`
    );
    if (granted && budget.stats.fallbackAcquires === fallbacks) return;
    if (tries === 10) throw new Error(`grantedByRedis: ${tries} calls, none granted by Redis`);
    await untilBackOnRedis(budget);
  }
}

/** Until `budget.ready()` resolves: Redis answers again and the budget re-took its leases. */
export const untilBackOnRedis = (budget: { ready(): Promise<void> }) =>
  pollUntil(
    () =>
      budget.ready().then(
        () => true,
        () => false,
      ),
    'the budget back on Redis',
  );

import { GatewayError } from '@infergate/core';
import { pollUntil, startRedis, type TestRedis } from '@infergate/emulator/testing/redis';
import { afterEach, describe, expect, it } from 'vitest';
import type { RedisBudget } from '../src/redis-budget';
import { budgetMaker, connectedClient, type RedisClient, request } from './budgets';

// Redis answering a script with an error reply (READONLY: the node was demoted to a replica by a
// failover, or the URL names a reader endpoint; OOM: maxmemory reached): an answer, not a lost
// connection. The call that meets it takes the failure policy at once, naming the reply; so does
// every later call until a probe finds a writable primary again. Never a configuration error:
// the user's rights are fine, and the budget works again once Redis does.

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn().catch(() => {});
});

async function server(): Promise<{ redis: TestRedis; admin: RedisClient }> {
  const redis = await startRedis();
  const admin = await connectedClient(redis.url);
  cleanup.push(() => redis.stop());
  cleanup.push(() => admin.close());
  return { redis, admin };
}

const warnings: string[] = [];
const budget = budgetMaker(
  () => ({ warn: (message: string) => warnings.push(message), leaseTtlMs: 1000 }),
  (b) => cleanup.push(() => b.close()),
);

/** What `promise` rejected with (a GatewayError), or fails the test when it resolves. */
async function rejection(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(
    () => new Error('resolved'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GatewayError);
  return error as GatewayError;
}

const readyNow = (b: RedisBudget) =>
  b.ready().then(
    () => true,
    () => false,
  );

describe('READONLY after a failover demoted the node the budget is connected to', () => {
  it('the first call fails at once naming READONLY; the outage lasts until Redis is a writable primary again', async () => {
    const [primary, other] = await Promise.all([server(), server()]);
    const b = budget({ url: primary.redis.url, onRedisFailure: 'error' });
    const id = `ig-readonly-${Math.random()}`;
    const holders = `{infergate:budget:${id}}:holders`;
    (await b.acquire(request(id))).release();
    // (Its release answered first: one lost to READONLY would keep the lease for its TTL.)
    await pollUntil(async () => (await primary.admin.zCard(holders)) === 0, 'the release done');
    await primary.admin.replicaOf('127.0.0.1', other.redis.port);
    await pollUntil(
      () =>
        primary.admin.set('probe', '1').then(
          () => false,
          (e: Error) => e.message.startsWith('READONLY'),
        ),
      'the node answering READONLY',
    );

    const before = b.stats.roundTrips;
    const first = await rejection(b.acquire(request(id)));
    expect(first.code).toBe('network_error');
    expect(first.message).toMatch(
      /Redis answers with an error \("READONLY .*point it at the primary/,
    );
    // The script and the first probes: not a retry every 50 ms for a command timeout (~40).
    expect(b.stats.roundTrips - before).toBeLessThan(5);
    // Probes that a replica answers (a read) do not end the outage: it still says READONLY.
    await pollUntil(() => b.stats.roundTrips >= before + 5, 'probes answered');
    const ready = await rejection(b.ready());
    expect(ready.code).toBe('network_error');
    expect(ready.message).toMatch(/READONLY/);
    // A budget created now, against the replica: a temporary failure too, not a refusal.
    const fresh = await rejection(budget({ url: primary.redis.url }).ready());
    expect(fresh.code).toBe('network_error');
    expect(fresh.message).toMatch(/READONLY/);

    await primary.admin.sendCommand(['REPLICAOF', 'NO', 'ONE']);
    await pollUntil(() => readyNow(b), 'the budget back on the primary');
    const lease = await b.acquire(request(id));
    expect(await primary.admin.zCard(holders)).toBe(1);
    lease.release();
  });
});

describe('OOM at the first access check (maxmemory reached)', () => {
  it('is a temporary failure following onRedisFailure, not an ACL refusal; the budget recovers with Redis', async () => {
    const { redis, admin } = await server();
    await admin.configSet({ 'maxmemory-policy': 'noeviction', maxmemory: '1' });
    warnings.length = 0;
    const b = budget({ url: redis.url, onRedisFailure: 'fallback' });
    const id = `ig-oom-${Math.random()}`;
    const ready = await rejection(b.ready());
    expect(ready.code).toBe('network_error');
    expect(ready.isRetryable).toBe(true);
    expect(ready.message).toMatch(/OOM command not allowed/);
    expect(ready.message).not.toMatch(/grant|cannot run/);
    const fallback = await b.acquire(request(id));
    expect(b.stats.fallbackAcquires).toBe(1);
    expect(warnings.join('\n')).toMatch(/Redis answers with an error \("OOM .*in-process budget/);
    fallback.release();

    await admin.configSet('maxmemory', '0');
    await pollUntil(() => readyNow(b), 'the budget back once Redis accepts writes');
    const lease = await b.acquire(request(id));
    expect(b.stats.fallbackAcquires).toBe(1);
    expect(await admin.zCard(`{infergate:budget:${id}}:holders`)).toBe(1);
    lease.release();
  });
});

describe('ready() after close()', () => {
  it('rejects as acquire() does: aborted, the budget was closed (not "Redis cannot be reached")', async () => {
    const { redis } = await server();
    const b = budget({ url: redis.url });
    await b.ready();
    await b.close();
    const acquired = await rejection(b.acquire(request('ig-closed')));
    const ready = await rejection(b.ready());
    expect(ready.code).toBe('aborted');
    expect(ready.message).toBe(acquired.message);
    expect(ready.message).toMatch(/the budget was closed/);
  });
});

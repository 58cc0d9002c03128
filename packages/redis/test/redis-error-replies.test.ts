import { isGatewayError } from '@infergate/core';
import { caught } from '@infergate/emulator/testing';
import { pollUntil, type TestRedis } from '@infergate/emulator/testing/redis';
import { describe, expect, it } from 'vitest';
import type { RedisBudget } from '../src/redis-budget';
import {
  budgetMaker,
  connectedClient,
  demoteToReplicaOf,
  type RedisClient,
  request,
  serversPerTest,
} from './budgets';

// Redis answering a script with an error reply (READONLY: the node was demoted to a replica by a
// failover, or the URL names a reader endpoint; OOM: maxmemory reached): an answer, not a lost
// connection. The call that meets it takes the failure policy at once, naming the reply; so does
// every later call until a probe finds a writable primary again. Never a configuration error:
// the user's rights are fine, and the budget works again once Redis does.

const { cleanup, server } = serversPerTest();

const warnings: string[] = [];
const budget = budgetMaker(
  () => ({ warn: (message: string) => warnings.push(message), leaseTtlMs: 1000 }),
  (b) => cleanup.push(() => b.close()),
);

/**
 * What `action` resolves with, and the EVALs (MONITOR's lines) the server ran meanwhile: those
 * between two markers the test's own client sends before and after (MONITOR reports in order).
 */
async function commandsDuring<T>(
  { redis, admin }: { redis: TestRedis; admin: RedisClient },
  action: () => Promise<T>,
): Promise<{ result: T; sent: string[] }> {
  const lines: string[] = [];
  const listener = await connectedClient(redis.url);
  cleanup.push(() => listener.close());
  await listener.monitor((line) => lines.push(String(line)));
  const marker = `marker-${Math.random()}`;
  await admin.echo(`start ${marker}`);
  const result = await action();
  await admin.echo(`end ${marker}`);
  await pollUntil(() => lines.some((l) => l.includes(`"end ${marker}"`)), 'the end marker');
  const start = lines.findIndex((l) => l.includes(`"start ${marker}"`));
  const end = lines.findIndex((l) => l.includes(`"end ${marker}"`));
  const sent = lines.slice(start + 1, end).filter((l) => / "EVAL" /i.test(l));
  return { result, sent };
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
    await demoteToReplicaOf(primary.admin, other.redis.port);

    const before = b.stats.roundTrips;
    const { result: first, sent } = await commandsDuring(primary, () =>
      caught(b.acquire(request(id)), isGatewayError),
    );
    expect(first.code).toBe('network_error');
    expect(first.message).toMatch(
      /Redis answers with an error \("READONLY .*point it at the primary/,
    );
    // The acquire script once: not again every 50 ms for a command timeout (~40 times). (Counted
    // by the server, not by roundTrips: the outage's probes may run before the call rejects.)
    expect(sent.filter((line) => line.includes(`"7" "${holders}"`))).toHaveLength(1);
    // Probes that a replica answers (a read) do not end the outage: it still says READONLY.
    await pollUntil(() => b.stats.roundTrips >= before + 5, 'probes answered');
    const ready = await caught(b.ready(), isGatewayError);
    expect(ready.code).toBe('network_error');
    expect(ready.message).toMatch(/READONLY/);
    // A budget created now, against the replica: a temporary failure too, not a refusal.
    const fresh = await caught(budget({ url: primary.redis.url }).ready(), isGatewayError);
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
    const ready = await caught(b.ready(), isGatewayError);
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
    const acquired = await caught(b.acquire(request('ig-closed')), isGatewayError);
    const ready = await caught(b.ready(), isGatewayError);
    expect(ready.code).toBe('aborted');
    expect(ready.message).toBe(acquired.message);
    expect(ready.message).toMatch(/the budget was closed/);
  });
});

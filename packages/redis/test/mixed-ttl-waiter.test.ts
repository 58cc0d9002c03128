import { randomUUID } from 'node:crypto';
import { pollUntil } from '@infergate/emulator/testing/redis';
import { describe, expect, it } from 'vitest';
import { ACQUIRE_SCRIPT, leaseKeys } from '../src/lease-scripts';
import { redisForFile, request } from './budgets';

// Processes of one key with different `leaseTtlMs` (the serverless advice: 3000-5000 beside the
// default 15 000). A waiter whose wake channel is silent when a slot is handed out (its pub/sub
// connection down a moment) is passed over, and keeps its place while it asked within half of
// *its own* TTL: not half of the releasing process's, which would drop a short-TTL waiter that
// asked a moment ago as if it were dead. Against a real redis-server; the silent waiter is written
// by the acquire script itself, as its process's first ask writes it.

const file = redisForFile({ commandTimeoutMs: 10_000, warn: () => {} });

describe('a waiter with a shorter TTL than the releasing process, its channel silent', () => {
  it('is passed over but keeps its place in line: it asked just now', async () => {
    const id = `ig-mixed-ttl-${randomUUID()}`;
    const k = leaseKeys('infergate:budget', id);
    const [holder, next] = [1, 2].map(() => file.budget({ leaseTtlMs: 15_000 }));
    const lease = await holder!.acquire(request(id, 1));
    // S (leaseTtlMs 4000) asks: queued first, nobody listening on its instance's channel.
    const silent = 'silent-instance:1:4000';
    const [granted] = (await file.admin.eval(ACQUIRE_SCRIPT, {
      keys: [k.holders, k.queue, k.seen, k.seq, k.expired, k.limits, k.settle],
      arguments: [silent, '1', '4000', '0', k.census, k.wake, '0'],
    })) as number[];
    expect(granted).toBe(0);
    const queued = next!.acquire(request(id, 1));
    await pollUntil(async () => (await file.admin.zCard(k.queue)) === 2, 'both waiting');

    lease.release(); // (the 15 000 ms process's release script hands the slot out)
    (await queued).release();
    // Before the fix: S was dropped from the line (its `seen`, ask + 4000, was under now + 7500).
    expect(await file.admin.zRange(k.queue, 0, -1)).toEqual([silent]);
  });
});

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ACQUIRE_SCRIPT, leaseKeys } from '../src/lease-scripts';
import { redisForFile, request } from './budgets';

// redis README: a crashed process's slot comes back once its lease's TTL runs out — not a TTL
// later. A lease's score is its expiry (server ms): the test writes one just past, or just short
// of, Redis's own TIME, instead of waiting through a TTL. Against a real redis-server.
const TTL = 60_000;
const file = redisForFile({ commandTimeoutMs: 10_000, leaseTtlMs: TTL });

/** A lease of `id`'s one slot held by a crashed process (nobody answers its census), expiring at
 *  `expiresIn` ms from now by Redis's clock. Answers the holders' set. */
async function crashedHolder(id: string, expiresIn: number): Promise<string> {
  const k = leaseKeys('infergate:budget', id);
  const granted = (await file.admin.eval(ACQUIRE_SCRIPT, {
    keys: [k.holders, k.queue, k.seen, k.seq, k.expired, k.limits, k.settle],
    arguments: ['crashed:1', '1', String(TTL), '0', k.census, k.wake, '0'],
  })) as number[];
  expect(granted[0]).toBe(1);
  const [seconds, micros] = (await file.admin.sendCommand(['TIME'])) as [string, string];
  const now = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
  await file.admin.zAdd(k.holders, { score: now + expiresIn, value: 'crashed:1' }, { XX: true });
  return k.holders;
}

describe('a lease expires when its TTL runs out', () => {
  it('a lease whose TTL ran out a few ms ago is reclaimed by the next acquire', async () => {
    const id = `expired-${randomUUID()}`;
    const holders = await crashedHolder(id, -5);
    const lease = await file.budget().acquireIfFree(request(id, 1));
    expect(lease).toBeDefined();
    expect(await file.admin.zRange(holders, 0, -1)).not.toContain('crashed:1');
    lease?.release();
  });

  it('a lease with time left of its TTL is kept: the slot stays taken', async () => {
    const id = `alive-${randomUUID()}`;
    const holders = await crashedHolder(id, 10_000);
    expect(await file.budget().acquireIfFree(request(id, 1))).toBeUndefined();
    expect(await file.admin.zRange(holders, 0, -1)).toEqual(['crashed:1']);
  });
});

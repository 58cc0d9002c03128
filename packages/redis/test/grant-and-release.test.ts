import { randomUUID } from 'node:crypto';
import { pollUntil } from '@infergate/emulator/testing/redis';
import { describe, expect, it } from 'vitest';
import { leaseKeys } from '../src/lease-scripts';
import { redisForFile, request } from './budgets';

// What a grant writes and what a release gives back, read from Redis right after the call instead
// of waited for. A lease's score in the holders' set is its expiry (server ms): a process that
// crashes before its first refresh gives its slot back one TTL after the grant, not later. And a
// released slot goes to the next waiter at once (the release script hands it over), not when the
// released lease would have expired. Against a real redis-server; each budget has its own
// connections, as another process would.

// Long enough that a lease kept past its release, or granted for several TTLs, cannot expire
// during the test, and that no refresh (every TTL/3) rewrites a score before it is read.
const TTL = 300_000;
const file = redisForFile({ commandTimeoutMs: 10_000, leaseTtlMs: TTL });
const keysOf = (id: string) => leaseKeys('infergate:budget', id);

/** Redis's clock in ms, as the scripts read it (TIME). */
async function redisNow(): Promise<number> {
  const [seconds, micros] = (await file.admin.sendCommand(['TIME'])) as [string, string];
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
}

/** The ms each lease of `id` has left, by Redis's clock, keyed by token. */
async function timeLeft(id: string): Promise<Record<string, number>> {
  const entries = await file.admin.zRangeWithScores(keysOf(id).holders, 0, -1);
  const now = await redisNow();
  return Object.fromEntries(entries.map(({ value, score }) => [value, score - now]));
}

/** Each lease of `id` expires within one TTL of now (and has not yet). */
async function expectOneTtlLeft(id: string, holders: number): Promise<void> {
  const left = Object.values(await timeLeft(id));
  expect(left).toHaveLength(holders);
  for (const ms of left) {
    expect(ms).toBeGreaterThan(0);
    expect(ms).toBeLessThanOrEqual(TTL);
  }
}

describe('a granted lease expires one TTL after its grant', () => {
  it('a slot granted by acquire', async () => {
    const id = `acquire-${randomUUID()}`;
    const lease = await file.budget().acquire(request(id, 2));
    await expectOneTtlLeft(id, 1);
    lease.release();
  });

  it('a slot granted by acquireIfFree', async () => {
    const id = `if-free-${randomUUID()}`;
    const lease = await file.budget().acquireIfFree(request(id, 2));
    expect(lease).toBeDefined();
    await expectOneTtlLeft(id, 1);
    lease?.release();
  });

  it('a slot handed to a waiter by a release', async () => {
    const id = `handover-${randomUUID()}`;
    const held = await file.budget().acquire(request(id, 1));
    const waiting = file.budget().acquire(request(id, 1));
    await pollUntil(
      async () => (await file.admin.zCard(keysOf(id).queue)) === 1,
      'the waiter queued',
    );
    held.release();
    const lease = await waiting;
    await expectOneTtlLeft(id, 1);
    lease.release();
  });
});

describe('a release frees the slot for the next waiter', () => {
  // Nothing else can free the slot during the test: the held lease would expire only after TTL,
  // well past the test's timeout. So the waiter's grant comes from the release or not at all.
  it('a call of another process waiting on a full key is granted once the holder releases', async () => {
    const id = `release-${randomUUID()}`;
    const holder = file.budget();
    const held = await holder.acquire(request(id, 1));
    const [heldToken] = await file.admin.zRange(keysOf(id).holders, 0, -1);
    let granted = false;
    const waiting = file
      .budget()
      .acquire(request(id, 1))
      .then((lease) => {
        granted = true;
        return lease;
      });
    await pollUntil(
      async () => (await file.admin.zCard(keysOf(id).queue)) === 1,
      'the waiter queued',
    );
    expect(granted).toBe(false); // the key is full: it waits
    held.release();
    const lease = await waiting;
    const holders = await file.admin.zRange(keysOf(id).holders, 0, -1);
    expect(holders).toHaveLength(1);
    expect(holders).not.toContain(heldToken);
    expect(await file.admin.zCard(keysOf(id).queue)).toBe(0);
    lease.release();
    await pollUntil(async () => (await file.admin.zCard(keysOf(id).holders)) === 0, 'the release');
  });
});

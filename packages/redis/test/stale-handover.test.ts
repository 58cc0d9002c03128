import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { pollUntil } from '@infergate/emulator/testing/redis';
import { expect, it } from 'vitest';
import { leaseKeys } from '../src/lease-scripts';
import { redisForFile, request } from './budgets';

// A process paused (SIGSTOP) while it waits in Redis's line is handed a slot; the lease expires
// unused and its slot goes to another call. When it resumes, the message of that handover is still
// in its socket: it must not start its call on it (a fifth in flight), but queue again.
// (Review rv-redis F4.) Needs `pnpm --filter @infergate/redis build` (the worker loads dist).
const worker = fileURLToPath(new URL('./waiter-worker.mjs', import.meta.url));
// The subject is a lease running out by the server's clock while its process is paused: a short
// TTL (the test waits for Redis's events, never a sleep; a TTL and the settle period pass).
const TTL_MS = 3000;
const file = redisForFile({ leaseTtlMs: TTL_MS, commandTimeoutMs: 60_000 });

it(
  'a waiter paused while its handed-over lease expired queues again: never over the limit',
  () => pausedWaiter(TTL_MS),
  120_000,
);

// Processes of one key may use different TTLs: the lease handed over lives the TTL of the process
// whose release granted it (here 3 s), not the waiter's (30 s). Paused for less than half of its
// own TTL but longer than the lease lived, the waiter must not take the message as fresh.
// (Review rv-redis2 F1: 5 in flight.) It waits behind 4 of our calls, so it asks again only every
// TTL/3 (10 s): no poll of its own is due when it resumes, only the message.
it(
  'a waiter with a longer TTL, handed a shorter-TTL lease that expired while it was paused, queues again',
  () => pausedWaiter(10 * TTL_MS, 4),
  120_000,
);

/** The worker (lease TTL `workerTtl`) queues behind our 4 leases (and `behind` calls of ours in
 *  line), is paused (SIGSTOP) and handed a slot we release; its lease expires, our fifth call takes
 *  the slot, and it resumes. */
async function pausedWaiter(workerTtl: number, behind = 0): Promise<void> {
  const id = `stale-handover-${Math.random()}`;
  const child = spawn(process.execPath, [worker], {
    env: { ...process.env, REDIS_URL: file.redis.url, ID: id, TTL_MS: String(workerTtl) },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const exited = once(child, 'exit');
  try {
    const keys = leaseKeys('infergate:budget', id);
    const mine = file.budget();
    const first4 = await Promise.all(Array.from({ length: 4 }, () => mine.acquire(request(id))));
    // (Another budget: a process queues in Redis no more calls than its limit.)
    const other = file.budget();
    const inLine = Array.from({ length: behind }, () => other.acquire(request(id)));
    await pollUntil(async () => (await file.admin.zCard(keys.queue)) === behind, 'ours queued');
    await pollUntil(async () => out.startsWith('ready\n'), 'the worker ready');
    child.stdin.end('go\n'); // its one acquire queues behind our 4 leases
    await pollUntil(
      async () => (await file.admin.zCard(keys.queue)) === behind + 1,
      'the worker queued',
    );
    if (behind > 0) {
      // Its second script (sent once its wake channel is confirmed) ran: its pause has begun.
      const [queued] = await file.admin.zRange(keys.queue, -1, -1);
      const seenAt = await file.admin.zScore(keys.seen, queued ?? '');
      await pollUntil(
        async () => ((await file.admin.zScore(keys.seen, queued ?? '')) ?? 0) > (seenAt ?? 0),
        'the worker asked twice',
      );
    }
    child.kill('SIGSTOP');
    let held = first4;
    if (behind > 0) {
      for (const lease of first4) lease.release();
      held = await Promise.all(inLine); // the worker is next in line
    }
    const ours = new Set(await file.admin.zRange(keys.holders, 0, -1));
    held[0]?.release(); // handed to the paused worker: the message waits in its socket
    let handed = '';
    await pollUntil(async () => {
      const tokens = await file.admin.zRange(keys.holders, 0, -1);
      handed = tokens.find((t) => !ours.has(t)) ?? '';
      return handed !== '';
    }, 'the slot handed to the worker');
    // Our next call gets that slot once the worker's lease expired (it answers no census).
    const fifth = await mine.acquire(request(id));
    expect(await file.admin.zScore(keys.holders, handed)).toBeNull();
    child.kill('SIGCONT');
    const instance = handed.split(':')[0];
    // When the worker last asked Redis as a waiter (its `seen` expiry), once it asks again.
    const lastAsked = async () => {
      const seen = await file.admin.zRangeWithScores(keys.seen, 0, -1);
      const scores = seen.filter((s) => s.value.startsWith(`${instance}:`)).map((s) => s.score);
      return scores.length > 0 ? Math.max(...scores) : undefined;
    };
    // Until it says it holds a slot, or it asked as a waiter twice since it resumed: the
    // second time is after it handled the stale message (at its first answer it had not yet).
    let first: number | undefined;
    await pollUntil(async () => {
      if (out.includes('granted\n')) return true;
      const asked = await lastAsked();
      if (asked === undefined) return false;
      first ??= asked;
      return asked > first;
    }, 'the worker queued again, or granted');
    expect(out).toBe('ready\n');
    expect(await file.admin.zCard(keys.holders)).toBe(4); // ours: the worker holds none
    // Its turn comes when a slot frees, and nothing was re-taken past the limit.
    fifth.release();
    await exited;
    const [said, stats] = out.slice('ready\n'.length).trim().split('\n');
    expect(said).toBe('granted');
    expect(JSON.parse(stats ?? '{}')).toMatchObject({ retakenLeases: 0 });
    for (const lease of held.slice(1)) lease.release();
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

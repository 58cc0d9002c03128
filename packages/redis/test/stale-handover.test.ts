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

it('a waiter paused while its handed-over lease expired queues again: never over the limit', async () => {
  const id = `stale-handover-${Math.random()}`;
  const child = spawn(process.execPath, [worker], {
    env: { ...process.env, REDIS_URL: file.redis.url, ID: id, TTL_MS: String(TTL_MS) },
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
    const held = await Promise.all(Array.from({ length: 4 }, () => mine.acquire(request(id))));
    const ours = new Set(await file.admin.zRange(keys.holders, 0, -1));
    await pollUntil(async () => out.startsWith('ready\n'), 'the worker ready');
    child.stdin.end('go\n'); // its one acquire queues behind our 4 leases
    await pollUntil(async () => (await file.admin.zCard(keys.queue)) === 1, 'the worker queued');
    child.kill('SIGSTOP');
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
}, 120_000);

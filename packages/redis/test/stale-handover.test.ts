import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pollUntil } from '@infergate/emulator/testing/redis';
import { beforeAll, expect, it } from 'vitest';
import { leaseKeys, REFRESH_SCRIPT } from '../src/lease-scripts';
import { redisForFile, request } from './budgets';

// A process paused (SIGSTOP) while it waits in Redis's line is handed a slot; the lease expires
// unused and its slot goes to another call. When it resumes, the message of that handover is still
// in its socket: it must not start its call on it (a fifth in flight), but queue again.
// (Review rv-redis F4.) Needs `pnpm --filter @infergate/redis build` (the worker loads dist).
const worker = fileURLToPath(new URL('./waiter-worker.mjs', import.meta.url));
// The subject is a lease running out while its process is paused. Neither clock is waited for: the
// test expires the handed lease in Redis (its expiry set to 0, as Redis's clock passing it finds
// it) and steps the paused worker's monotonic clock by the lease's life (the budget assumes that
// Redis's clock runs no faster). TTLs long enough that no refresh, poll or timeout of either process
// is due while the test runs: the worker asks Redis only when the test makes it.
const TTL_MS = 60_000;
const file = redisForFile({ leaseTtlMs: TTL_MS, commandTimeoutMs: 60_000 });
// Every command Redis ran, as MONITOR says it once run: `<time> [<db> <address>] "<COMMAND>" …`
// (`lua` for a script's own commands).
const ran: string[] = [];
beforeAll(() => file.listener.monitor((line) => ran.push(String(line))));
/** How many scripts sent by a client (not a script's own commands) named `token` so far. */
const scriptsOf = (token: string) =>
  ran.filter(
    (line) => /^\S+ \[\d+ (?!lua\])[^\]]+\] "eval/i.test(line) && line.includes(`"${token}"`),
  ).length;

it(
  'a waiter paused while its handed-over lease expired queues again: never over the limit',
  () => pausedWaiter(TTL_MS),
  120_000,
);

// Processes of one key may use different TTLs: the lease handed over lives the TTL of the process
// whose release granted it (here 60 s), not the waiter's (600 s). Paused for less than half of its
// own TTL but longer than the lease lived, the waiter must not take the message as fresh.
// (Review rv-redis2 F1: 5 in flight.) It waits behind 4 of our calls, so it asks again only every
// TTL/3 (200 s): no poll of its own is due when it resumes, only the message.
it(
  'a waiter with a longer TTL, handed a shorter-TTL lease that expired while it was paused, queues again',
  () => pausedWaiter(10 * TTL_MS, 4),
  120_000,
);

const release = (lease: { release(): void }) => lease.release();
const ignore = () => {};

/** The worker (lease TTL `workerTtl`) queues behind our 4 leases (and `behind` calls of ours in
 *  line), is paused (SIGSTOP) and handed a slot we release; its lease expires, our fifth call takes
 *  the slot, and it resumes. */
async function pausedWaiter(workerTtl: number, behind = 0): Promise<void> {
  const id = `stale-handover-${Math.random()}`;
  const clock = join(mkdtempSync(join(tmpdir(), 'stale-handover-')), 'clock');
  writeFileSync(clock, '0');
  const child = spawn(process.execPath, [worker], {
    env: {
      ...process.env,
      REDIS_URL: file.redis.url,
      ID: id,
      TTL_MS: String(workerTtl),
      CLOCK_FILE: clock,
      MAX_POLL_MS: String(workerTtl),
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const exited = once(child, 'exit');
  // Every acquire of ours, kept so that a failing assertion still releases its leases (or, for a
  // wait still under way, the lease it is granted later; the file's close() refuses the rest):
  // close() waits for every lease held, so one left held would hang the file's cleanup.
  const acquires: Promise<{ release(): void }>[] = [];
  const acquire = <L extends { release(): void }>(leased: Promise<L>): Promise<L> => {
    acquires.push(leased);
    return leased;
  };
  try {
    const keys = leaseKeys('infergate:budget', id);
    const mine = file.budget();
    const first4 = await Promise.all(
      Array.from({ length: 4 }, () => acquire(mine.acquire(request(id)))),
    );
    // (Another budget: a process queues in Redis no more calls than its limit.)
    const other = file.budget();
    const inLine = Array.from({ length: behind }, () => acquire(other.acquire(request(id))));
    await pollUntil(async () => (await file.admin.zCard(keys.queue)) === behind, 'ours queued');
    await pollUntil(async () => out.startsWith('ready\n'), 'the worker ready');
    child.stdin.end('go\n'); // its one acquire queues behind our 4 leases
    await pollUntil(
      async () => (await file.admin.zCard(keys.queue)) === behind + 1,
      'the worker queued',
    );
    // Its second script (sent once its wake channel is confirmed) ran: its pause has begun (the
    // answer, if still unread, comes before the message it is paused for).
    const [queued = ''] = await file.admin.zRange(keys.queue, -1, -1);
    await pollUntil(() => scriptsOf(queued) >= 2, 'the worker asked twice');
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
    // The lease lived its TTL while the worker was paused: by Redis's clock and by the worker's.
    await file.admin.zAdd(keys.holders, { score: 0, value: handed }, { XX: true });
    writeFileSync(clock, String(TTL_MS));
    // Our next call gets that slot, the worker's lease expired. Its script asks the worker's
    // instance to re-take its leases (a census), and grants nothing until the answer or the
    // settle period's end (2/3 TTL): the paused worker cannot answer, so the test answers as it
    // would, holding none (the census answer of the refresh script), which ends the period and
    // hands the slot to our call.
    const asking = acquire(mine.acquire(request(id)));
    await pollUntil(async () => (await file.admin.exists(keys.settle)) === 1, 'the census asked');
    await file.admin.eval(REFRESH_SCRIPT, {
      keys: [keys.holders, keys.limits, keys.settle, keys.queue, keys.seen, keys.seq],
      arguments: [String(workerTtl), '4', '1', keys.wake],
    });
    const fifth = await asking;
    expect(await file.admin.zScore(keys.holders, handed)).toBeNull();
    const asked = scriptsOf(handed);
    child.kill('SIGCONT');
    // Until it says it holds a slot, or it asked Redis again: no poll nor timeout of its is due,
    // so that script is the one its handling of the stale message sent (queued again).
    await pollUntil(
      () => out.includes('granted\n') || scriptsOf(handed) > asked,
      'the worker queued again, or granted',
    );
    await pollUntil(
      async () => out.includes('granted\n') || (await file.admin.zCard(keys.queue)) === 1,
      'the worker in line again, or granted',
    );
    expect(out).toBe('ready\n');
    expect(await file.admin.zCard(keys.holders)).toBe(4); // ours: the worker holds none
    // Its turn comes when a slot frees, and nothing was re-taken past the limit.
    fifth.release();
    await exited;
    const [said, stats] = out.slice('ready\n'.length).trim().split('\n');
    expect(said).toBe('granted');
    expect(JSON.parse(stats ?? '{}')).toMatchObject({ retakenLeases: 0 });
  } finally {
    for (const leased of acquires) leased.then(release, ignore);
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dirname(clock), { recursive: true, force: true });
  }
}

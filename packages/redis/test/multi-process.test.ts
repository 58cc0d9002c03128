import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { budgetId } from '@infergate/core/internal';
import { budgetSeen, emulate } from '@infergate/emulator/testing';
import { startRedis, type TestRedis } from '@infergate/emulator/testing/redis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRedisBudget } from '../src/redis-budget';
import { connectedClient, expireLeasesNow, request } from './budgets';

// Real processes, a real redis-server and the emulator's real HTTP server: the key's budget of 4
// must hold across processes. Needs `pnpm --filter @infergate/redis build` (the workers load dist).
const worker = fileURLToPath(new URL('./worker.mjs', import.meta.url));
// A hang guard only: on a loaded 2-core machine, starting 3–4 Node processes (cold imports of core,
// redis and the emulator) alone took most of the default 60 s. What the tests assert is counted
// (requests, peaks, leases), never timed, so the bound is generous.
const PROCESSES_TEST_TIMEOUT_MS = 180_000;
// The emulator's wait for the workers' calls to reach it: a safety net, as generous as the test.
const patient = { timeoutMs: 150_000 };
let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis.stop();
});

interface WorkerReport {
  results: { ok: boolean; code?: string; ms: number }[];
  stats: { expiredLeases: number; fallbackAcquires: number };
}

interface Worker {
  ready: Promise<void>;
  go(): void;
  report: Promise<WorkerReport>;
}

function startWorker(env: Record<string, string>): Worker {
  const child = spawn(process.execPath, [worker], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    if (out.startsWith('ready\n')) markReady();
  });
  return {
    ready,
    go: () => child.stdin.end('go\n'),
    report: once(child, 'exit').then(() => JSON.parse(out.slice('ready\n'.length)) as WorkerReport),
  };
}

it(
  '3 processes × 8 callers on one key: 0 gateway 429s, 4 in flight at the peak and never more',
  async () => {
    // All 24 calls start together (each worker waits for the others to be ready) and each takes
    // 100–150 ms once answered, so they contend for the 4 slots.
    const server = await emulate({ as: 'http', scenario: { latencyMs: { min: 100, max: 150 } } });
    try {
      const env = {
        BASE_URL: server.baseURL,
        API_KEY: server.apiKey,
        REDIS_URL: redis.url,
        CALLERS: '8',
      };
      const workers = [startWorker(env), startWorker(env), startWorker(env)];
      await Promise.all(workers.map((w) => w.ready));
      // The first answers wait until 4 calls are in flight at once: the peak is the limit, reached
      // however slowly the processes start.
      const release = server.hold();
      for (const w of workers) w.go();
      await server.untilHeld(4, { key: server.apiKey, ...patient });
      release();
      const reports = await Promise.all(workers.map((w) => w.report));
      const results = reports.flatMap((r) => r.results);
      expect(results.filter((r) => !r.ok)).toEqual([]);
      expect(reports.every((r) => r.stats.fallbackAcquires === 0)).toBe(true);
      expect(budgetSeen(server)).toEqual({ chat: 24, concurrencyRejections: 0, maxInflight: 4 });
    } finally {
      await server.close();
    }
  },
  PROCESSES_TEST_TIMEOUT_MS,
);

it(
  'a process killed mid-request gives its slot back when its lease expires, with no wait for it',
  async () => {
    const server = await emulate({ as: 'http' });
    server.hold(); // the requests stay in flight until the processes are killed
    // A TTL of a minute: the leases expire when the test says (`expireLeasesNow`), not by a sleep.
    const env = {
      BASE_URL: server.baseURL,
      API_KEY: server.apiKey,
      REDIS_URL: redis.url,
      HOLD: '1',
      TTL_MS: '60000',
    };
    const holders = Array.from({ length: 4 }, () =>
      spawn(process.execPath, [worker], {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'inherit'],
      }),
    );
    const budget = createRedisBudget({
      url: redis.url,
      leaseTtlMs: 60_000,
      commandTimeoutMs: 60_000, // a slow answer on a loaded machine must not count as Redis down
    });
    const admin = await connectedClient(redis.url);
    try {
      await Promise.all(holders.map((h) => once(h.stdout, 'data')));
      await server.untilHeld(4, { key: server.apiKey, ...patient }); // all four hold a slot at the gateway
      for (const h of holders) h.kill('SIGKILL');
      await Promise.all(holders.map((h) => once(h, 'exit')));
      const id = budgetId(server.baseURL, server.apiKey);
      expect(await expireLeasesNow(admin, id)).toHaveLength(4);
      // Granted by its first script: the dead processes listen on no channel, so no census waits.
      const lease = await budget.acquire(request(id));
      expect(budget.stats.expiredLeases).toBe(4);
      expect(budget.stats.roundTrips).toBe(2); // the access check, then the one acquire script
      lease.release();
    } finally {
      for (const h of holders) if (h.exitCode === null) h.kill('SIGKILL');
      await admin.close();
      await budget.close();
      await server.close();
    }
  },
  PROCESSES_TEST_TIMEOUT_MS,
);

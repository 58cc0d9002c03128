/**
 * B7 — one key shared by 4 processes × 50 callers, 400 requests, gateway latency 50 ms, cap 4:
 * in-process budgets only (each process believes it owns the 4 slots) vs the Redis budget
 * (@infergate/redis) vs the single-process floor (one process, 50 callers, 400 requests).
 * Needs `redis-server` on PATH (bash scripts/ensure-redis.sh). Run: node bench/src/b7-redis-budget.mjs
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { spawnEmulator } from './emulator-process.mjs';
import { fmtMs, fmtRatio, log, median } from './harness.mjs';

const LATENCY_MS = 50;
const CAP = 4;
const TOTAL = 400;
const WORKER = fileURLToPath(new URL('./b7-worker.mjs', import.meta.url));

async function startRedis() {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address();
  probe.close();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let seen = '';
  for await (const chunk of child.stdout) {
    seen += chunk;
    if (seen.includes('Ready to accept connections')) break;
  }
  child.stdout.resume();
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill('SIGKILL') };
}

async function runOnce(processes, redisUrl) {
  const server = await spawnEmulator({ latencyMs: LATENCY_MS, maxConcurrentPerKey: CAP });
  try {
    const env = {
      ...process.env,
      BASE_URL: server.url,
      API_KEY: server.apiKey,
      CALLERS: '50',
      REQUESTS: String(TOTAL / processes),
      ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
    };
    const workers = Array.from({ length: processes }, () => {
      const child = spawn(process.execPath, [WORKER], { env, stdio: ['pipe', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (c) => {
        out += c;
      });
      const ready = new Promise((resolve) => {
        const check = () => (out.includes('ready\n') ? resolve() : setTimeout(check, 5));
        check();
      });
      const done = once(child, 'exit').then(() => JSON.parse(out.split('\n')[1]));
      return { child, ready, done };
    });
    await Promise.all(workers.map((w) => w.ready));
    await server.reset();
    const start = performance.now();
    for (const w of workers) w.child.stdin.write('go\n');
    const results = await Promise.all(workers.map((w) => w.done));
    const wallMs = performance.now() - start;
    const counters = await server.counters();
    return {
      wallMs,
      rejections: counters.concurrencyRejections,
      failures: results.reduce((n, r) => n + r.failures, 0),
      maxInflight: Math.max(0, ...Object.values(counters.maxInflight)),
      roundTripsPerRequest: results.reduce((n, r) => n + r.roundTrips, 0) / TOTAL,
      // Fairness: the slowest process's mean call time over the fastest's (1.00 = even).
      spread:
        Math.max(...results.map((r) => r.meanMs)) /
        Math.max(1, Math.min(...results.map((r) => r.meanMs))),
      meanMsByProcess: results.map((r) => Math.round(r.meanMs)),
      p95MsByProcess: results.map((r) => Math.round(r.p95Ms)),
    };
  } finally {
    await server.close();
  }
}

export async function runB7({ quick } = {}) {
  const repeats = quick ? 1 : 3;
  const redis = await startRedis();
  const cases = [
    ['single process, in-process budget (floor)', 1, undefined],
    ['4 processes, in-process budgets only', 4, undefined],
    ['4 processes, Redis budget', 4, redis.url],
  ];
  const rows = [];
  try {
    for (const [name, processes, url] of cases) {
      const runs = [];
      for (let r = 0; r < repeats; r++) runs.push(await runOnce(processes, url));
      const row = {
        name,
        wallMs: median(runs.map((x) => x.wallMs)),
        rejections: median(runs.map((x) => x.rejections)),
        failures: median(runs.map((x) => x.failures)),
        maxInflight: Math.max(...runs.map((x) => x.maxInflight)),
        roundTripsPerRequest: median(runs.map((x) => x.roundTripsPerRequest)),
        spread: median(runs.map((x) => x.spread)),
        meanMsByProcess: runs.at(-1).meanMsByProcess,
        p95MsByProcess: runs.at(-1).p95MsByProcess,
      };
      log(`B7 ${name}: ${fmtMs(row.wallMs)}, ${row.rejections} 429s, ${row.failures} failed`);
      rows.push(row);
    }
  } finally {
    redis.stop();
  }
  const floor = rows[0].wallMs;
  console.log(
    '| case | wall time | vs floor | gateway 429s | failed calls | max in flight | Redis round trips / request | mean call time per process (ms) | spread (slowest / fastest) |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(
      `| ${r.name} | ${fmtMs(r.wallMs)} | ${fmtRatio(r.wallMs / floor)} | ${r.rejections} | ${r.failures} | ${r.maxInflight} | ${r.roundTripsPerRequest.toFixed(2)} | ${r.meanMsByProcess.join(' / ')} | ${r.spread.toFixed(2)} |`,
    );
  }
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await runB7({ quick: process.argv.includes('--quick') });
}

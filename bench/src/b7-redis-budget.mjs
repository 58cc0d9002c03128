/**
 * B7 — one key shared by 4 processes × 50 callers, 400 requests, gateway latency 50 ms, cap 4:
 * in-process budgets only (each process believes it owns the 4 slots) vs the Redis budget
 * (@infergate/redis) vs the single-process floor (one process, 50 callers, 400 requests).
 * Needs `redis-server` on PATH (bash scripts/ensure-redis.sh).
 * Run: node bench/src/b7-redis-budget.mjs [--quick] [--store]   (or pnpm bench … --only B7)
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { spawnEmulator } from './emulator-process.mjs';
import { fmtMs, fmtRatio, log, median } from './harness.mjs';
import { hasRedisServer, startRedisServer, withoutRedis } from './redis-process.mjs';
import { check, target } from './results.mjs';

const LATENCY_MS = 50;
const CAP = 4;
const TOTAL = 400;
const CALLERS = 50;
const WORKER = fileURLToPath(new URL('./b7-worker.mjs', import.meta.url));

async function runOnce(processes, redisUrl) {
  const server = await spawnEmulator({ latencyMs: LATENCY_MS, maxConcurrentPerKey: CAP });
  try {
    const env = {
      ...process.env,
      BASE_URL: server.url,
      API_KEY: server.apiKey,
      CALLERS: String(CALLERS),
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
        const poll = () => (out.includes('ready\n') ? resolve() : setTimeout(poll, 5));
        poll();
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
  if (!hasRedisServer()) return withoutRedis('B7');
  const repeats = quick ? 1 : 3;
  const redis = await startRedisServer();
  const cases = [
    [`single process × ${CALLERS} callers, in-process budget (floor)`, 1, undefined],
    [`4 processes × ${CALLERS} callers, in-process budgets only`, 4, undefined],
    [`4 processes × ${CALLERS} callers, @infergate/redis budget`, 4, redis.url],
  ];
  const results = [];
  try {
    for (const [name, processes, url] of cases) {
      const runs = [];
      for (let r = 0; r < repeats; r++) runs.push(await runOnce(processes, url));
      const result = {
        name,
        wallMs: median(runs.map((x) => x.wallMs)),
        rejections: median(runs.map((x) => x.rejections)),
        failures: median(runs.map((x) => x.failures)),
        maxInflight: Math.max(...runs.map((x) => x.maxInflight)),
        roundTripsPerRequest: median(runs.map((x) => x.roundTripsPerRequest)),
        spread: median(runs.map((x) => x.spread)),
        meanMsByProcess: runs.at(-1).meanMsByProcess,
        p95MsByProcess: runs.at(-1).p95MsByProcess,
        runs,
      };
      log(
        `B7 ${name}: ${fmtMs(result.wallMs)}, ${result.rejections} 429s, ${result.failures} failed`,
      );
      results.push(result);
    }
  } finally {
    await redis.stop();
  }
  const [floor, , shared] = results;
  const rows = results.map((r, i) => ({
    case: r.name,
    wall: fmtMs(r.wallMs),
    'vs floor': fmtRatio(r.wallMs / floor.wallMs),
    'gateway 429s': r.rejections,
    'failed calls': r.failures,
    'max in flight': r.maxInflight,
    'Redis round trips / request': cases[i][2] ? r.roundTripsPerRequest.toFixed(2) : '—',
    'mean call time per process (ms)': r.meanMsByProcess.join(' / '),
    'spread (slowest / fastest process mean)':
      r.meanMsByProcess.length > 1 ? r.spread.toFixed(2) : '—',
  }));
  return {
    sections: [
      {
        title: `B7 one key shared by 4 processes: ${TOTAL} chat calls, latency ${LATENCY_MS} ms, cap ${CAP}, one redis-server (median of ${repeats})`,
        rows,
        note: "Mean call time: queue wait (budget) plus the gateway latency, per process, from the last run of each case. B7 predates the Redis budget's direct handover (issue 37): B8 measures a fleet of 32 processes.",
      },
    ],
    targets: [
      target(
        'B7.redis',
        `4 processes × ${CALLERS} callers sharing one key through the @infergate/redis budget`,
        [
          check('wall vs floor', shared.wallMs / floor.wallMs, '<=', 1.1, 'ratio'),
          check('429s', shared.rejections, '=', 0, 'count'),
          check('failed calls', shared.failures, '=', 0, 'count'),
          check('max in flight', shared.maxInflight, '<=', CAP, 'count'),
        ],
      ),
    ],
    parameters: { total: TOTAL, callers: CALLERS, repeats, latencyMs: LATENCY_MS, cap: CAP },
    data: { results },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { runStandalone } = await import('./runner.mjs');
  await runStandalone('B7', runB7);
}

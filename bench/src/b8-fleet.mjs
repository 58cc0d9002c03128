/**
 * B8 — a fleet on one key: 32 processes × 25 callers, 2,000 chat calls, gateway latency 50 ms,
 * cap 4, through one Redis, against the single-process floor (one process, 25 callers, the
 * in-process budget). A third case gives every caller its own Redis budget, so that 800 waiters
 * queue in Redis at once (the wake-up herd). Every client warms up first (a client's first chat
 * call also reads the catalog). The emulator and redis-server run in their own processes. Needs `redis-server` (bash scripts/ensure-redis.sh).
 * Run: node bench/src/b8-fleet.mjs [--quick] [--store]   (or pnpm --filter @infergate/bench bench -- --only B8)
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { spawnEmulator } from './emulator-process.mjs';
import { fmtMs, fmtRatio, log, median } from './harness.mjs';
import { hasRedisServer, startRedisServer, withoutRedis } from './redis-process.mjs';
import { check, context, target } from './results.mjs';

const LATENCY_MS = 50;
const CAP = 4;
const WORKER = fileURLToPath(new URL('./b8-worker.mjs', import.meta.url));

function startWorker(env) {
  const child = spawn(process.execPath, [WORKER], { env, stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  let markReady;
  const ready = new Promise((resolve) => {
    markReady = resolve;
  });
  child.stdout.on('data', (chunk) => {
    out += chunk;
    if (out.startsWith('ready\n')) markReady();
  });
  const done = once(child, 'exit').then(([code]) => {
    if (code !== 0) throw new Error(`B8 worker exited with ${code}: ${out}`);
    return JSON.parse(out.slice('ready\n'.length));
  });
  done.catch(() => {}); // awaited by the run, which stops every worker on the first failure
  return { child, ready: Promise.race([ready, done]), done };
}

/** One run: `processes` workers × `callers` callers share `total` calls; Redis when `redis`. */
async function runOnce({ processes, callers, total, redis, perCaller }) {
  const server = await spawnEmulator({ latencyMs: LATENCY_MS, maxConcurrentPerKey: CAP });
  let workers = [];
  try {
    workers = Array.from({ length: processes }, (_, i) =>
      startWorker({
        ...process.env,
        BASE_URL: server.url,
        API_KEY: server.apiKey,
        CALLERS: String(callers),
        // 2,000 over 32: 63 for the first 16 processes, 62 for the others.
        REQUESTS: String(Math.floor(total / processes) + (i < total % processes ? 1 : 0)),
        ...(redis ? { REDIS_URL: redis.url } : {}),
        ...(perCaller ? { BUDGET_PER_CALLER: '1' } : {}),
      }),
    );
    await Promise.all(workers.map((w) => w.ready));
    await server.reset();
    const commandsBefore = await redis?.commandCounts();
    const start = performance.now();
    for (const w of workers) w.child.stdin.write('go\n');
    const results = await Promise.all(workers.map((w) => w.done));
    const wallMs = performance.now() - start;
    const commandsAfter = await redis?.commandCounts();
    const counters = await server.counters();
    const means = results.map((r) => r.meanMs);
    return {
      wallMs,
      rejections: counters.concurrencyRejections,
      sent: counters.requests.chat,
      // Gateway requests other than the chat calls (a client's catalog read): each takes a slot of
      // the key like a call, so the warm-up does them; one here would be work the floor does not do.
      otherRequests: Object.entries(counters.requests).reduce(
        (n, [endpoint, count]) => (endpoint === 'chat' ? n : n + count),
        0,
      ),
      failures: results.reduce((n, r) => n + r.failures, 0),
      fallbacks: results.reduce((n, r) => n + r.fallbackAcquires, 0),
      maxInflight: Math.max(0, ...Object.values(counters.maxInflight)),
      scriptsPerRequest: results.reduce((n, r) => n + r.roundTrips, 0) / total,
      roundTripsPerRequest: redis
        ? (commandsAfter.roundTrips - commandsBefore.roundTrips) / total
        : undefined,
      commandsPerSecond: redis ? (commandsAfter.all - commandsBefore.all) / (wallMs / 1000) : 0,
      // Fairness: the slowest process's mean call time over the fastest's (1.00 = even).
      spread: Math.max(...means) / Math.max(1, Math.min(...means)),
      meanMs: means,
    };
  } finally {
    for (const w of workers) w.child.kill('SIGKILL');
    await server.close();
  }
}

/** 0 429s, no failure, at most CAP in flight, within 1.1× the floor; the fleet evenly spread. */
function targetsOf({ fleet, herd, floorMs, processes, callers }) {
  const held = (s) => [
    check('429s', s.rejections, '=', 0, 'count'),
    check('failed calls', s.failures, '=', 0, 'count'),
    check('max in flight', s.maxInflight, '<=', CAP, 'count'),
    check('wall vs floor', s.wallMs / floorMs, '<=', 1.1, 'ratio'),
  ];
  return [
    target(
      'B8.fleet',
      `fleet: ${processes} processes × ${callers} callers, one Redis budget per process`,
      [...held(fleet), check('spread', fleet.spread, '<=', 1.2, 'number')],
      [
        context('Redis round trips / request', fleet.roundTripsPerRequest, 'number'),
        context('gateway requests besides the chat calls', fleet.otherRequests, 'count'),
      ],
    ),
    target(
      'B8.herd',
      `herd: ${processes * callers} waiters in Redis (one budget per caller)`,
      held(herd),
      [
        context('Redis round trips / request', herd.roundTripsPerRequest, 'number'),
        context('gateway requests besides the chat calls', herd.otherRequests, 'count'),
      ],
    ),
  ];
}

const rate = (perSecond) => `${Math.round(perSecond).toLocaleString('en-US')}/s`;

export async function runB8({ quick } = {}) {
  if (!hasRedisServer()) return withoutRedis('B8');
  const total = quick ? 400 : 2000;
  const repeats = quick ? 1 : 2;
  const processes = 32;
  const callers = 25;
  const redis = await startRedisServer();
  const cases = [
    ['1 process × 25 callers, in-process budget (floor)', { processes: 1, callers }],
    [
      `${processes} processes × ${callers} callers, one Redis budget per process`,
      { processes, callers, redis },
    ],
    [
      `${processes} processes × ${callers} callers, one Redis budget per caller (${processes * callers} waiters in Redis)`,
      { processes, callers, redis, perCaller: true },
    ],
  ];
  const data = {};
  try {
    for (let r = 0; r < repeats; r++) {
      for (const [name, options] of cases) {
        const result = await runOnce({ ...options, total });
        log(
          `B8 ${name}: ${fmtMs(result.wallMs)}, ${result.rejections} 429s, max ${result.maxInflight} in flight, ${(result.roundTripsPerRequest ?? 0).toFixed(2)} round trips/request, spread ${result.spread.toFixed(2)}, ${result.otherRequests} other gateway requests`,
        );
        data[name] = [...(data[name] ?? []), result];
      }
    }
  } finally {
    await redis.stop();
  }
  const summary = Object.fromEntries(
    Object.entries(data).map(([name, runs]) => {
      const mid = runs.toSorted((a, b) => a.wallMs - b.wallMs)[Math.floor(runs.length / 2)];
      return [
        name,
        {
          ...mid,
          wallMs: median(runs.map((x) => x.wallMs)),
          rejections: Math.max(...runs.map((x) => x.rejections)),
          otherRequests: Math.max(...runs.map((x) => x.otherRequests)),
          maxInflight: Math.max(...runs.map((x) => x.maxInflight)),
          spread: Math.max(...runs.map((x) => x.spread)),
          runs,
        },
      ];
    }),
  );
  const [floorName, fleetName, herdName] = cases.map(([name]) => name);
  const floorMs = summary[floorName].wallMs;
  const rows = Object.entries(summary).map(([name, s]) => ({
    case: name,
    wall: fmtMs(s.wallMs),
    'vs floor': fmtRatio(s.wallMs / floorMs),
    'gateway 429s': s.rejections,
    'failed calls': s.failures,
    'max in flight': s.maxInflight,
    'Redis round trips / request (scripts + pub/sub)':
      s.roundTripsPerRequest === undefined ? '—' : s.roundTripsPerRequest.toFixed(2),
    'Redis commands/s (with those inside scripts)':
      s.roundTripsPerRequest === undefined ? '—' : rate(s.commandsPerSecond),
    'spread (slowest / fastest process mean)': s.meanMs.length > 1 ? s.spread.toFixed(2) : '—',
    fallbacks: s.fallbacks,
  }));
  const fleet = summary[fleetName];
  const herd = summary[herdName];
  return {
    sections: [
      {
        title: `B8 a fleet on one key: ${total} chat calls, latency ${LATENCY_MS} ms, cap ${CAP}, one redis-server (median of ${repeats}; 429s, in flight and spread: worst run)`,
        rows,
        note: `Per-process mean call time (ms), fleet: ${fleet.meanMs.map(Math.round).join(' / ')}`,
      },
    ],
    targets: targetsOf({ fleet, herd, floorMs, processes, callers }),
    parameters: { total, processes, callers, repeats, latencyMs: LATENCY_MS, cap: CAP },
    data: { total, processes, callers, latencyMs: LATENCY_MS, cap: CAP, results: summary },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { runStandalone } = await import('./runner.mjs');
  await runStandalone('B8', runB8);
}

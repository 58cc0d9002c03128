/**
 * B8s — serverless churn on one key: 500 short-lived processes (at most 40 alive at once), each
 * connecting cold, making 1–3 chat calls and leaving — a third `close()` their budget, a third
 * exit without closing, a third are SIGKILLed mid-call — against the emulator (latency 50 ms,
 * cap 4) and one redis-server. A watcher reads the leases in Redis every 20 ms: how many are held
 * at once, and when each lease of a dead process comes back. Then the cold-start cost (budget
 * created → first lease granted, no other process) in fresh processes: the in-process budget,
 * Redis over redis:// and over rediss:// (TLS; certificates made with `openssl`).
 * Needs `redis-server` (bash scripts/ensure-redis.sh).
 * Run: node bench/src/b8s-serverless.mjs [--quick] [--ttl 2000] [--store]
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { budgetId } from '@infergate/core/internal';
import { spawnEmulator } from './emulator-process.mjs';
import { fmtMs, log } from './harness.mjs';
import {
  hasRedisServer,
  makeCertificates,
  startRedisServer,
  withoutRedis,
} from './redis-process.mjs';
import { check, target } from './results.mjs';

const LATENCY_MS = 50;
const CAP = 4;
const WORKER = fileURLToPath(new URL('./b8s-worker.mjs', import.meta.url));
const MODES = ['close', 'exit', 'kill'];

const percentile = (values, p) => {
  if (values.length === 0) return Number.NaN;
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

function startWorker(env) {
  const child = spawn(process.execPath, [WORKER], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const lines = [];
  child.stdout.on('data', (chunk) => {
    out += chunk;
    let nl = out.indexOf('\n');
    while (nl !== -1) {
      lines.push(out.slice(0, nl));
      child.emit('line', out.slice(0, nl));
      out = out.slice(nl + 1);
      nl = out.indexOf('\n');
    }
  });
  const exited = once(child, 'exit');
  const result = () => {
    const json = lines.find((l) => l.startsWith('{'));
    return json ? JSON.parse(json) : undefined;
  };
  return { child, exited, result };
}

/**
 * Reads the id's leases every 20 ms (server time from TIME): the most held at once, and for each
 * lease that disappeared after its expiry (a dead process's), when it expired, when a call first
 * waited for a slot after that (`wantedAt`: a slot nobody asks for is not missed), and when an
 * acquire removed it.
 */
function watchLeases(admin, holdersKey, queueKey, settleKey) {
  const live = new Map(); // token → expiry (server ms)
  const dead = []; // { expiresAt, removedAt, wantedAt }
  /** Poll times (server ms) at which calls waited in the queue. */
  const waited = [];
  let maxHeld = 0;
  let settleMs = 0;
  let lastNow;
  let stopped = false;
  const poll = async () => {
    const [time, leases, settling, queued] = await admin
      .multi()
      .time()
      .zRangeWithScores(holdersKey, 0, -1)
      .exists(settleKey)
      .zCard(queueKey)
      .exec();
    const now = Number(time[0]) * 1000 + Math.floor(Number(time[1]) / 1000);
    if (queued > 0) waited.push(now);
    if (settling && lastNow !== undefined) settleMs += now - lastNow;
    lastNow = now;
    maxHeld = Math.max(maxHeld, leases.length);
    const seen = new Set();
    for (const { value, score } of leases) {
      seen.add(value);
      live.set(value, score);
    }
    for (const [token, expiresAt] of live) {
      if (seen.has(token)) continue;
      live.delete(token);
      if (now < expiresAt) continue; // released in time
      const wantedAt = waited.find((t) => t >= expiresAt) ?? now;
      dead.push({ expiresAt, removedAt: now, wantedAt: Math.min(wantedAt, now) });
    }
  };
  const loop = (async () => {
    while (!stopped) {
      await poll().catch(() => {});
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      await poll().catch(() => {});
      for (const [, expiresAt] of live) {
        if (lastNow >= expiresAt)
          dead.push({ expiresAt, removedAt: undefined, wantedAt: undefined });
      }
      return {
        maxHeld,
        dead,
        settleMs,
        stillHeld: [...live.values()].filter((e) => e > lastNow).length,
      };
    },
  };
}

async function churn({ processes, alive, ttl }) {
  const server = await spawnEmulator({ latencyMs: LATENCY_MS, maxConcurrentPerKey: CAP });
  const redis = await startRedisServer();
  const id = budgetId(server.url, server.apiKey);
  const holders = `{infergate:budget:${id}}:holders`;
  const queue = `{infergate:budget:${id}}:queue`;
  const settle = `{infergate:budget:${id}}:settle`;
  const running = new Set();
  try {
    await server.reset();
    const watcher = watchLeases(redis.admin, holders, queue, settle);
    const deaths = []; // { mode, at (ms, Date.now) }
    const results = [];
    let killedMidCall = 0;
    const start = performance.now();
    let next = 0;
    const launch = () => {
      const i = next++;
      const mode = MODES[i % 3];
      const worker = startWorker({
        BASE_URL: server.url,
        API_KEY: server.apiKey,
        REDIS_URL: redis.url,
        TTL_MS: String(ttl),
        CALLS: String(1 + ((i * 7) % 3)),
        MODE: mode,
      });
      running.add(worker);
      if (mode === 'kill') {
        worker.child.on('line', (line) => {
          if (line !== 'holding') return;
          // The lease is granted; the request goes out now and takes 50 ms: kill it on its way.
          setTimeout(() => {
            if (worker.result() === undefined) killedMidCall += 1;
            deaths.push({ mode, at: Date.now() });
            worker.child.kill('SIGKILL');
          }, 10);
        });
      }
      return worker.exited.then(([code, signal]) => {
        running.delete(worker);
        if (mode === 'exit') deaths.push({ mode, at: Date.now() });
        const result = worker.result();
        if (result) results.push(result);
        else if (signal !== 'SIGKILL')
          log(`B8s worker ${i} (${mode}) exited with ${code} and no result`);
      });
    };
    // A pool of `alive` slots: a new instance starts as soon as one is gone.
    await Promise.all(
      Array.from({ length: alive }, async () => {
        while (next < processes) await launch();
      }),
    );
    const wallMs = performance.now() - start;
    // Let the last dead leases expire, then read what came back when.
    await new Promise((r) => setTimeout(r, ttl + 500));
    const leases = await watcher.stop();
    const counters = await server.counters();
    return { wallMs, counters, leases, deaths, results, killedMidCall };
  } finally {
    for (const w of running) w.child.kill('SIGKILL');
    await redis.stop();
    await server.close();
  }
}

/** Cold start in `samples` fresh processes, one after the other (no other process contends). */
async function coldStarts(samples, env) {
  const times = [];
  for (let i = 0; i < samples; i++) {
    const worker = startWorker({ ...env, MODE: 'cold' });
    await worker.exited;
    const result = worker.result();
    if (result?.firstLeaseMs !== undefined) times.push(result.firstLeaseMs);
  }
  return times;
}

async function coldStartRows(samples) {
  const rows = [];
  const row = (name, times) => ({
    'budget (fresh process, nothing else running)': name,
    'cold start p50': `${percentile(times, 50).toFixed(2)} ms`,
    'cold start p99': `${percentile(times, 99).toFixed(2)} ms`,
    samples: times.length,
  });
  rows.push(row('in-process (core default)', await coldStarts(samples, {})));
  const plain = await startRedisServer();
  try {
    rows.push(
      row('Redis, redis:// (loopback)', await coldStarts(samples, { REDIS_URL: plain.url })),
    );
  } finally {
    await plain.stop();
  }
  let tls;
  try {
    tls = makeCertificates();
  } catch {
    log('B8s: no openssl, the rediss:// cold start is skipped');
  }
  if (tls) {
    const secure = await startRedisServer({ tls });
    try {
      rows.push(
        row(
          'Redis, rediss:// (TLS, loopback)',
          await coldStarts(samples, { REDIS_URL: secure.url, REDIS_CA: tls.caFile }),
        ),
      );
    } finally {
      await secure.stop();
      tls.remove();
    }
  }
  return rows;
}

export async function runB8s({ quick, ttl = 2000 } = {}) {
  if (!hasRedisServer()) return withoutRedis('B8s');
  const processes = quick ? 60 : 500;
  const alive = 40;
  log(`B8s churn: ${processes} processes, ≤ ${alive} alive, lease TTL ${ttl} ms`);
  const run = await churn({ processes, alive, ttl });
  const { counters, leases, deaths, results } = run;
  const maxInflight = Math.max(0, ...Object.values(counters.maxInflight));
  const kills = deaths.filter((d) => d.mode === 'kill').length;
  const swept = leases.dead.filter((d) => d.removedAt !== undefined);
  // From the later of its expiry and the first wait for a slot after it, to its removal.
  const backAfterExpiry = swept.map((d) => d.removedAt - Math.max(d.expiresAt, d.wantedAt));
  // A dead lease's expiry is one TTL after its last grant or refresh, which came before the death:
  // so a lease is back within one TTL of its process's death plus the time to take it back.
  const latestBack = Math.max(0, ...backAfterExpiry);
  const firstLease = results.map((r) => r.firstLeaseMs).filter((x) => x !== undefined);
  const ok = results.reduce((n, r) => n + (r.ok ?? 0), 0);
  const failed = results.reduce((n, r) => n + (r.failed ?? 0), 0);
  log(
    `B8s churn: ${fmtMs(run.wallMs)}, ${counters.concurrencyRejections} 429s, max ${maxInflight} in flight, ${leases.dead.length} dead leases (${kills} kills)`,
  );
  const churnRows = [
    {
      metric: 'processes (close / exit without close / SIGKILL mid-call)',
      value: `${processes} (${deaths.length === 0 ? '?' : `${Math.ceil(processes / 3)} / ${deaths.filter((d) => d.mode === 'exit').length} / ${kills}, ${run.killedMidCall} of them mid-call`})`,
    },
    { metric: 'wall time', value: fmtMs(run.wallMs) },
    { metric: 'calls answered / failed (by the survivors)', value: `${ok} / ${failed}` },
    { metric: 'requests the gateway received', value: counters.requests.chat },
    { metric: 'gateway 429s', value: counters.concurrencyRejections },
    {
      metric: 'max in flight (emulator) / max leases held (Redis)',
      value: `${maxInflight} / ${leases.maxHeld}`,
    },
    {
      metric: 'dead leases (expired, never released)',
      value: `${leases.dead.length} (kills: ${kills}; the rest: exits without close)`,
    },
    {
      metric:
        'dead lease taken back after its expiry (or the first wait after it): p50 / p99 / max',
      value:
        swept.length === 0
          ? '—'
          : `${percentile(backAfterExpiry, 50)} / ${percentile(backAfterExpiry, 99)} / ${latestBack} ms (${swept.length} taken back; read every 20 ms, so 0 = within one read)`,
    },
    { metric: 'time with a census settle in progress', value: fmtMs(leases.settleMs) },
    {
      metric: 'first lease under churn (budget created → first lease): p50 / p99',
      value: `${percentile(firstLease, 50).toFixed(1)} ms / ${percentile(firstLease, 99).toFixed(1)} ms (includes the wait in line)`,
    },
  ];
  const coldRows = await coldStartRows(quick ? 10 : 50);
  return {
    sections: [
      {
        title: `B8s serverless churn: ${processes} short-lived processes (≤ ${alive} alive), 1–3 calls each, lease TTL ${ttl} ms, latency ${LATENCY_MS} ms, cap ${CAP}`,
        rows: churnRows,
      },
      {
        title:
          'B8s cold start: budget created → first lease granted, in a fresh process (p99 of the samples)',
        rows: coldRows,
      },
    ],
    targets: [
      target(
        'B8s.churn',
        `churn: ${processes} short-lived processes, a third SIGKILLed mid-call, a third exiting without close, lease TTL ${ttl} ms`,
        [
          check('429s', counters.concurrencyRejections, '=', 0, 'count'),
          check('max in flight', maxInflight, '<=', CAP, 'count'),
          // A dead lease expires one TTL after its last grant or refresh (before its death): the
          // time from that expiry (or the first wait after it) to its removal is what is left.
          check('dead lease back after its expiry (max)', latestBack, '<=', 100, 'ms'),
        ],
      ),
    ],
    parameters: { processes, alive, ttl, latencyMs: LATENCY_MS, cap: CAP },
    data: { processes, alive, ttl, wallMs: run.wallMs, counters, leases, coldRows, firstLease },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { runStandalone } = await import('./runner.mjs');
  const ttlArg = process.argv.indexOf('--ttl');
  await runStandalone('B8s', runB8s, {
    options: ttlArg !== -1 ? { ttl: Number(process.argv[ttlArg + 1]) } : {},
  });
}

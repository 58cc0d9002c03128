/**
 * Timing helpers shared by the suites. Cases of one comparison run interleaved (round after
 * round, the order rotating each round) so that a noisy neighbour slows every case alike; we
 * report medians and ratios computed within one run.
 */

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The nearest-rank `p`th percentile of ascending `sorted` (NaN when empty). */
export function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * Runs each case `iterations` times per round for `rounds` rounds, interleaved (the order rotates
 * each round). Untimed warm-up rounds come first until `warmupMs` have passed (at least two):
 * V8 needs tens of thousands of calls before a client's timing is stable. Returns, per case
 * name, the median time of one call in milliseconds. A case is `{ name, run }` where `run()`
 * performs one call (sync or async). `collectBetween: false` skips the forced GC between cases.
 */
export async function interleaved(
  cases,
  { rounds, iterations, warmupMs = 1000, collectBetween = true },
) {
  const samples = new Map(cases.map((c) => [c.name, []]));
  const runRound = async (round, record) => {
    const shift = round % cases.length;
    const order = [...cases.slice(shift), ...cases.slice(0, shift)];
    for (const c of order) {
      // Garbage left by the previous case is collected outside the timing (needs --expose-gc).
      // Not for light cases compared alone: a forced full GC also shrinks the young generation,
      // so the next short batch pays scavenges a running app would not (the more it allocates,
      // the more it pays).
      if (collectBetween) globalThis.gc?.();
      const start = performance.now();
      for (let i = 0; i < iterations; i++) await c.run();
      if (record) samples.get(c.name).push((performance.now() - start) / iterations);
    }
  };
  const warmupStart = performance.now();
  for (let round = 0; round < 2 || performance.now() - warmupStart < warmupMs; round++) {
    await runRound(round, false);
  }
  for (let round = 0; round < rounds; round++) await runRound(round, true);
  const result = {};
  for (const [name, times] of samples) result[name] = median(times);
  return result;
}

/** What the emulator saw of a run's chat calls, and the run's failures by kind (`kind×n, …`). */
export function trafficOf(counters, errors) {
  return {
    sent: counters.requests.chat,
    rejections: counters.concurrencyRejections,
    maxInflight: Math.max(0, ...Object.values(counters.maxInflight)),
    errors: [...errors].map(([kind, n]) => `${kind}×${n}`).join(', '),
  };
}

/** `trafficOf`'s figures as a table row's last columns. */
export function trafficColumns(s) {
  return {
    'requests sent': s.sent,
    '429s received': s.rejections,
    'max in flight': s.maxInflight,
    'failed calls': s.errors || '—',
  };
}

/** Lets the event loop and GC settle between heavy phases. */
export async function settle() {
  globalThis.gc?.();
  await new Promise((resolve) => setTimeout(resolve, 20));
}

export function fmtMicros(ms) {
  return `${(ms * 1000).toFixed(0)} µs`;
}

export function fmtRate(perSecond) {
  if (perSecond >= 1e6) return `${(perSecond / 1e6).toFixed(2)} M/s`;
  return `${Math.round(perSecond / 1000)} k/s`;
}

export function fmtRatio(value) {
  return `${value.toFixed(2)}×`;
}

export function fmtMs(ms) {
  return ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}

export function fmtBytes(bytes) {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024).toFixed(1)} KB`;
}

/** Progress on stderr (the tables go to stdout). */
export function log(message) {
  process.stderr.write(`  [${(performance.now() / 1000).toFixed(1)} s] ${message}\n`);
}

/**
 * Runs `run` as suite `suiteId` when this module (`moduleUrl`) is the command itself (`node
 * bench/src/b9-steering.mjs`), not when a runner imports it. `--ours` runs our rows only: the
 * anchors' are missing, so it is not storable.
 */
export async function runWhenCommand(moduleUrl, suiteId, run) {
  if (moduleUrl !== `file://${process.argv[1]}`) return;
  const { runStandalone } = await import('./runner.mjs');
  const oursOnly = process.argv.includes('--ours');
  await runStandalone(suiteId, run, {
    options: { oursOnly },
    notStorable: oursOnly ? "--ours: the anchors' rows are missing" : undefined,
  });
}

/**
 * B10 — hedged first chunks on a heavy-tailed pool, and breakers around a model that fails for a
 * while (issue 46, point 5), over real HTTP: the emulator's server in a child process, one key
 * capped at 4 requests at once, models whose time to first chunk is drawn afresh per request
 * (`firstChunkMs`): a log-normal body (p50 300 ms, p99 900 ms) for most requests, and a small share
 * held 2–5 s first (seeded). Each model has capacity for far more than 4, so the key's slots are the
 * only limit.
 *
 * (a) light load: 2 callers, every call streamed; ours hedged (`afterMs: 'auto'`, and a fixed
 *     `afterMs` near the body's p95), ours unhedged, and the anchors. Time to first chunk is from
 *     the call's start (queueing included) to its first text. A cold-process row: `'auto'` with
 *     core's hedge state (timings, hedge budget) forgotten before every 10th call, as in a fleet of
 *     short-lived processes (serverless), each starting from the prior.
 * (b) heavy load: 16 callers (the key's 4 slots always busy), ours hedged and unhedged.
 * (c) breakers: calls paced at a fixed rate to a list of a model that answers 502 for a window
 *     (a fault rule with `forMs`), then heals, and a healthy model; ours with breakers (default)
 *     and with `circuitBreaker: false`.
 *
 * Every row runs against a fresh emulator process (so a fresh key budget, breakers and hedge
 * timings in core's realm: they are per base URL and key), after the same untimed warm-up.
 */
import { streamText } from 'ai';
import { chatOpenAI, coreClient, openaiCompatible } from './contenders.mjs';
import { spawnEmulator } from './emulator-process.mjs';
import { fmtMs, log, percentile, runWhenCommand } from './harness.mjs';
import { check, context, target } from './results.mjs';

const TAIL = 'community/b10-tail';
const FLAKY = 'community/b10-flaky';
const STEADY = 'community/b10-steady';
/** The pool's time to first chunk: the body, and the share held first. */
const FIRST_CHUNK_MS = {
  distribution: 'lognormal',
  p50Ms: 300,
  p99Ms: 900,
  held: { share: 0.02, minMs: 2000, maxMs: 5000 },
  seed: 10,
};
/** Far more than the key's slots: the key is the only limit. */
const CAPACITY = 64;
const KEY_SLOTS = 4;
const LATENCY_MS = 20;
const CHUNK_DELAY_MS = 2;
/** 10 words: about 13 events, CHUNK_DELAY_MS apart, after the first chunk. */
const PROMPT = '[[words:10]]';
const LIGHT_CALLERS = 2;
const HEAVY_CALLERS = 16;
/**
 * Untimed calls before each row, from 4 callers: a running app's state (`'auto'` waits its p95 from
 * 16 answers seen on; before, between its prior of 2 s and their p95). The cold row forgets it.
 */
const WARMUP_CALLS = 20;
/** The body's p95 (log-normal p50 300, p99 900: 300 · 3^(1.645 / 2.326) ≈ 650 ms). */
const FIXED_AFTER_MS = 650;
/** The cold row: core's hedge state is forgotten before every this many calls. */
const COLD_EVERY = 10;
/**
 * The hedges' cap (core's default since issue 53). With `afterMs` at the body's p95, about 5 in 100 calls of the body plus the
 * 2 in 100 held want a hedge: more than the default 0.05 allows (its bucket saves two hedges,
 * max(2, maxExtra × 40), so a held call that comes after a few other hedges waits out its hold).
 * 0.1 covers them, four saved; the row with the default shows the difference.
 */
const MAX_EXTRA = 0.1;
const FORMER_MAX_EXTRA = 0.05;
/** The anchors' retries: `ai`'s default, set explicitly. */
const AI_MAX_RETRIES = 2;
/** A call still running after this long is stopped and counted as not answered. */
const CALL_LIMIT_MS = 30_000;

/** (c): the failing model's window, and the pace of the calls. */
const FAIL_FOR_MS = 30_000;
const PACE_MS = 200;
/** Core's breaker defaults (packages/core/README.md, Circuit breakers). */
const BREAKER_FAILURES = 3;

function scenario() {
  const model = {
    capabilities: ['chat', 'streaming'],
    capacity: CAPACITY,
    firstChunkMs: FIRST_CHUNK_MS,
  };
  return {
    latencyMs: LATENCY_MS,
    streamChunkDelayMs: CHUNK_DELAY_MS,
    maxConcurrentPerKey: KEY_SLOTS,
    models: { [TAIL]: { ...model }, [FLAKY]: { ...model }, [STEADY]: { ...model } },
    faults: [],
  };
}

const messages = (prompt) => [{ role: 'user', content: prompt }];

/**
 * Ours: a core client whose events are kept (`hedge`, `circuit-open`, and each attempt's model
 * and outcome, for the breaker's counts). `options` are the call's.
 */
function ours(clientOptions, callOptions, model = TAIL) {
  return (c, events) => {
    const core = coreClient(c, { ...clientOptions, onEvent: (event) => events.push(event) });
    return async (prompt, signal, first) => {
      const stream = await core.chatStream(
        { model, messages: messages(prompt) },
        { signal, ...callOptions },
      );
      let text = '';
      for await (const event of stream) {
        if (event.type === 'text-delta' && event.delta) {
          first();
          text += event.delta;
        }
      }
      return text;
    };
  };
}

const LIGHT_ROWS = [
  {
    name: `ours: core chatStream, hedge { afterMs: 'auto', maxExtra: ${MAX_EXTRA} }`,
    key: 'auto',
    hedged: true,
    make: ours({}, { hedge: { afterMs: 'auto', maxExtra: MAX_EXTRA } }),
  },
  {
    name: `ours: core chatStream, hedge { afterMs: ${FIXED_AFTER_MS}, maxExtra: ${MAX_EXTRA} }`,
    key: 'fixed',
    hedged: true,
    make: ours({}, { hedge: { afterMs: FIXED_AFTER_MS, maxExtra: MAX_EXTRA } }),
  },
  {
    name: `ours: core chatStream, hedge { afterMs: 'auto', maxExtra: ${FORMER_MAX_EXTRA} } (the former default)`,
    key: 'autoDefault',
    hedged: true,
    make: ours({}, { hedge: { afterMs: 'auto', maxExtra: FORMER_MAX_EXTRA } }),
  },
  {
    name: `ours: core chatStream, hedge { afterMs: 'auto' } (maxExtra ${MAX_EXTRA}, the default), cold: hedge state forgotten every ${COLD_EVERY} calls`,
    key: 'cold',
    hedged: true,
    coldEvery: COLD_EVERY,
    make: ours({}, { hedge: { afterMs: 'auto' } }),
  },
  { name: 'ours: core chatStream, unhedged', key: 'unhedged', make: ours({}, {}) },
  {
    name: `streamText + @ai-sdk/openai-compatible, maxRetries ${AI_MAX_RETRIES}`,
    key: 'aiSdk',
    anchor: true,
    make: (c) => {
      const oc = openaiCompatible(c);
      return async (prompt, signal, first) => {
        const result = streamText({
          model: oc.chatModel(TAIL),
          prompt,
          maxRetries: AI_MAX_RETRIES,
          abortSignal: signal,
          onError: () => {},
        });
        let text = '';
        for await (const part of result.fullStream) {
          if (part.type === 'error') throw part.error;
          if (part.type === 'text-delta' && part.text) {
            first();
            text += part.text;
          }
        }
        return text;
      };
    },
  },
  {
    name: 'ChatOpenAI.stream',
    key: 'langchain',
    anchor: true,
    make: (c) => {
      const model = chatOpenAI(c, TAIL);
      return async (prompt, signal, first) => {
        let text = '';
        for await (const chunk of await model.stream(prompt, { signal })) {
          if (typeof chunk.content === 'string' && chunk.content) {
            first();
            text += chunk.content;
          }
        }
        return text;
      };
    },
  },
];

const HEAVY_ROWS = LIGHT_ROWS.filter((r) => ['auto', 'unhedged'].includes(r.key));

const BREAKER_ROWS = [
  {
    name: `ours: core chatStream, fallbackModels [steady], breakers on (default: failures ${BREAKER_FAILURES}, cooldown 5000 ms doubling)`,
    key: 'breakers',
    make: ours({}, { fallbackModels: [STEADY] }, FLAKY),
  },
  {
    name: 'ours: core chatStream, fallbackModels [steady], circuitBreaker: false',
    key: 'noBreakers',
    make: ours({ circuitBreaker: false }, { fallbackModels: [STEADY] }, FLAKY),
  },
];

function errorKind(error) {
  if (error?.name === 'TimeoutError') return `over ${CALL_LIMIT_MS / 1000} s`;
  return typeof error?.code === 'string' ? error.code : (error?.name ?? 'error');
}

/**
 * One call, timed: resolves `{ ok, firstMs, totalMs }` or `{ ok: false, kind, message }`.
 * `first()` is called by the contender at each piece of text; the first one counts.
 */
async function timedCall(call, prompt) {
  const began = performance.now();
  let firstMs;
  try {
    const text = await call(prompt, AbortSignal.timeout(CALL_LIMIT_MS), () => {
      firstMs ??= performance.now() - began;
    });
    if (!text || firstMs === undefined) {
      throw Object.assign(new Error('empty answer'), { code: 'empty_answer' });
    }
    return { ok: true, firstMs, totalMs: performance.now() - began, began };
  } catch (error) {
    return { ok: false, kind: errorKind(error), message: String(error?.message ?? error), began };
  }
}

/**
 * Forgets what core learned for hedging in this realm (each model's timings, each key's hedge
 * budget), as a fresh process would start: the realm's shared state (packages/core/src/budget/
 * realm.ts), read here because no public API resets it. Breakers and slots are left as they are.
 */
function forgetHedgeState() {
  const realm = globalThis[Symbol.for('@infergate/core.realm')];
  realm?.hedgeTimings?.clear();
  realm?.hedgeBuckets?.clear();
}

/**
 * `total` calls from `callers` loops, each starting its next call when its last one ended;
 * `coldEvery`: the hedge state forgotten before every that many calls (the first included).
 */
async function closedLoop(call, total, callers, coldEvery) {
  const outcomes = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (next < total) {
        const i = next++;
        if (coldEvery && i % coldEvery === 0) forgetHedgeState();
        outcomes.push(await timedCall(call, `${PROMPT} call ${i}`));
      }
    }),
  );
  return outcomes;
}

/** `total` calls started `paceMs` apart, whatever the others are doing (an open loop). */
async function openLoop(call, total, paceMs) {
  const start = performance.now();
  const running = [];
  for (let i = 0; i < total; i++) {
    const wait = start + i * paceMs - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    running.push(timedCall(call, `${PROMPT} call ${i}`));
  }
  return Promise.all(running);
}

/**
 * How many hedges won: the hedge's attempt (the call's next `attempt` after its `hedge` sent
 * event) is the one whose response came back ok (a steered stream's response event is sent at its
 * first content; the loser's, aborted, is not ok). Counted from the attempts rather than read from
 * the `won` event's `winner`, which says `first` whenever the hedge went to the same model.
 */
function hedgeWins(events) {
  const hedgeSent = new Set();
  const hedgeAttempt = new Map();
  let wins = 0;
  for (const e of events) {
    if (e.type === 'hedge' && e.phase === 'sent') hedgeSent.add(e.callId);
    else if (e.type === 'attempt' && hedgeSent.has(e.callId) && !hedgeAttempt.has(e.callId))
      hedgeAttempt.set(e.callId, e.attempt);
    else if (e.type === 'response' && e.ok && hedgeAttempt.get(e.callId) === e.attempt) wins++;
  }
  return wins;
}

/** What the outcomes and the emulator's counters say about one row. */
function summarize(outcomes, total, wallMs, counters, events) {
  const answered = outcomes.filter((o) => o.ok);
  const sorted = answered.map((o) => o.firstMs).toSorted((a, b) => a - b);
  const errors = new Map();
  const firstMessages = new Map();
  for (const o of outcomes.filter((x) => !x.ok)) {
    errors.set(o.kind, (errors.get(o.kind) ?? 0) + 1);
    if (!firstMessages.has(o.kind)) firstMessages.set(o.kind, o.message);
  }
  for (const [kind, message] of firstMessages) log(`B10   ${kind}: ${message.slice(0, 300)}`);
  const hedges = events.filter((e) => e.type === 'hedge');
  const sent = hedges.filter((e) => e.phase === 'sent');
  const waited = sent.map((e) => Math.round(e.waitedMs)).toSorted((a, b) => a - b);
  const wins = hedgeWins(events);
  return {
    answered: answered.length / total,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
    wallMs,
    sent: counters.requests.chat,
    perCall: counters.requests.chat / total,
    extra: counters.requests.chat / total - 1,
    rejections: counters.concurrencyRejections,
    maxInflight: Math.max(0, ...Object.values(counters.maxInflight)),
    hedgesSent: sent.length,
    hedgeWins: wins,
    // What the `hedge` won events say (`winner: 'hedge'`), beside what the attempts show.
    hedgeWinsByEvent: hedges.filter((e) => e.phase === 'won' && e.winner === 'hedge').length,
    hedgeWaitedMs:
      waited.length > 0
        ? { min: waited[0], p50: percentile(waited, 50), max: waited.at(-1) }
        : undefined,
    errors: [...errors].map(([k, n]) => `${k}×${n}`).join(', '),
  };
}

/**
 * One row against a fresh emulator: `WARMUP_CALLS` untimed calls, the counters and events reset,
 * then `drive(call, server)` (which returns the outcomes).
 */
async function runRow(row, total, drive) {
  const server = await spawnEmulator(scenario());
  try {
    const events = [];
    const call = row.make({ baseURL: server.url, apiKey: server.apiKey }, events);
    await closedLoop(call, WARMUP_CALLS, KEY_SLOTS);
    await server.reset();
    events.length = 0;
    const start = performance.now();
    const driven = await drive(call, server, events);
    const wallMs = performance.now() - start;
    // Slots given back after a cut request's grace: the counters once the last one is in.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const counters = await server.counters();
    return {
      ...summarize(driven.outcomes, total, wallMs, counters, events),
      ...(driven.extra?.(events) ?? {}),
    };
  } finally {
    await server.close();
  }
}

function loadRow(name, s, hedged) {
  return {
    case: name,
    'first chunk p50': fmtMs(s.p50),
    p90: fmtMs(s.p90),
    p99: fmtMs(s.p99),
    max: fmtMs(s.max),
    wall: fmtMs(s.wallMs),
    'requests per call': `${s.perCall.toFixed(3)} (${s.extra >= 0 ? '+' : ''}${(s.extra * 100).toFixed(1)} %)`,
    'hedges sent / won': hedged ? `${s.hedgesSent} / ${s.hedgeWins}` : '—',
    'hedged after (median)': s.hedgeWaitedMs ? fmtMs(s.hedgeWaitedMs.p50) : '—',
    '429s': s.rejections,
    'max in flight': s.maxInflight,
    'failed calls': s.errors || '—',
  };
}

/** (c)'s counts from our events: the flaky model's attempts, its breaker, when it answered again. */
function breakerCounts(injectedAt, healAt) {
  return (events) => {
    const modelOf = new Map();
    const failing = [];
    let answeredAgainAt;
    for (const e of events) {
      const key = `${e.callId}\u0000${e.attempt}`;
      if (e.type === 'attempt') modelOf.set(key, e.model);
      if (e.type !== 'response' || modelOf.get(key) !== FLAKY) continue;
      if (!e.ok) failing.push(e.at - injectedAt);
      else if (answeredAgainAt === undefined && e.at > injectedAt) answeredAgainAt = e.at;
    }
    const opens = events
      .filter((e) => e.type === 'circuit-open' && e.model === FLAKY)
      .map((e) => ({ atMs: Math.round(e.at - injectedAt), cooldownMs: e.cooldownMs }));
    // The cooldown in force when the model healed: the last one announced before.
    const inForce = opens.filter((o) => o.atMs <= healAt - injectedAt).at(-1)?.cooldownMs;
    return {
      failingRequests: failing.length,
      failingAfterHealMs: failing.filter((t) => t > healAt - injectedAt).length,
      opens,
      cooldownAtHeal: inForce,
      answeredAgainMs: answeredAgainAt === undefined ? Number.NaN : answeredAgainAt - healAt,
    };
  };
}

function breakerRow(name, s) {
  return {
    case: name,
    answered: `${(s.answered * 100).toFixed(1)} %`,
    'requests to the failing model (502s)': s.failingRequests,
    'breaker opened (cooldowns)':
      s.opens.length > 0
        ? `${s.opens.length}: ${s.opens.map((o) => `${fmtMs(o.cooldownMs)} at ${fmtMs(o.atMs)}`).join(', ')}`
        : '—',
    'answered again, after healing': Number.isFinite(s.answeredAgainMs)
      ? fmtMs(s.answeredAgainMs)
      : 'never',
    'first chunk p50': fmtMs(s.p50),
    p99: fmtMs(s.p99),
    wall: fmtMs(s.wallMs),
    'requests per call': s.perCall.toFixed(3),
    '429s': s.rejections,
    'max in flight': s.maxInflight,
    'failed calls': s.errors || '—',
  };
}

/** (a) or (b): each row's `total` calls from `callers` loops. */
async function runLoad(label, rows, total, callers) {
  const data = {};
  const table = [];
  for (const row of rows) {
    const s = await runRow(row, total, async (call) => ({
      outcomes: await closedLoop(call, total, callers, row.coldEvery),
    }));
    log(
      `B10 ${label} ${row.name}: p50 ${fmtMs(s.p50)}, p99 ${fmtMs(s.p99)}, wall ${fmtMs(s.wallMs)}, ${s.sent} requests, ${s.hedgesSent} hedges (${s.hedgeWins} won; waited ${JSON.stringify(s.hedgeWaitedMs)})`,
    );
    data[row.key] = { name: row.name, ...s };
    table.push(loadRow(row.name, s, row.hedged));
  }
  return { data, table };
}

/** (c): `total` calls `paceMs` apart while the flaky model fails for `failForMs`, then heals. */
async function runBreakers(total, paceMs, failForMs) {
  const data = {};
  const table = [];
  for (const row of BREAKER_ROWS) {
    const s = await runRow(row, total, async (call, server, events) => {
      // Our events, timed on this clock (their `time` is the wall clock).
      const push = events.push.bind(events);
      events.push = (e) => push({ ...e, at: performance.now() });
      await server.inject({ fault: 'bad_gateway', model: FLAKY, forMs: failForMs });
      // The window counts from the emulator's `injectFault`, before this answer: healed by then.
      const injectedAt = performance.now();
      const outcomes = await openLoop(call, total, paceMs);
      return { outcomes, extra: breakerCounts(injectedAt, injectedAt + failForMs) };
    });
    log(
      `B10 breaker ${row.name}: ${(s.answered * 100).toFixed(1)} % answered, ${s.failingRequests} requests to the failing model, ${s.opens.length} opens, answered again ${fmtMs(s.answeredAgainMs)} after healing`,
    );
    data[row.key] = { name: row.name, ...s };
    table.push(breakerRow(row.name, s));
  }
  return { data, table };
}

function loadTargets(data) {
  const light = (key, label) => {
    const s = data.light[key];
    const base = data.light.unhedged;
    return target(
      `B10.light.${key}`,
      `ours: core chatStream ${label}, ${LIGHT_CALLERS} callers, against ours unhedged`,
      [
        check('p99 first chunk vs unhedged', s.p99 / base.p99, '<=', 0.4, 'ratio'),
        check('extra requests', s.extra, '<=', 0.1, 'share'),
      ],
      [context('p99', s.p99, 'ms'), context('unhedged p99', base.p99, 'ms')],
    );
  };
  const s = data.heavy.auto;
  const base = data.heavy.unhedged;
  const cold = data.light.cold;
  return [
    light('auto', `hedge { afterMs: 'auto', maxExtra: ${MAX_EXTRA} }`),
    target(
      'B10.light.cold',
      `ours: core chatStream hedge { afterMs: 'auto' } in cold processes (hedge state forgotten every ${COLD_EVERY} calls: each starts from the prior), ${LIGHT_CALLERS} callers, against ours unhedged`,
      [
        check(
          'p99 first chunk vs unhedged',
          cold.p99 / data.light.unhedged.p99,
          '<=',
          0.9,
          'ratio',
        ),
        check('extra requests', cold.extra, '<=', MAX_EXTRA + 1 / COLD_EVERY, 'share'),
      ],
      [
        context('p99', cold.p99, 'ms'),
        context('unhedged p99', data.light.unhedged.p99, 'ms'),
        context('hedges sent', cold.hedgesSent, 'count'),
      ],
    ),
    light('fixed', `hedge { afterMs: ${FIXED_AFTER_MS}, maxExtra: ${MAX_EXTRA} }`),
    target(
      'B10.heavy.auto',
      `ours: core chatStream hedge { afterMs: 'auto', maxExtra: ${MAX_EXTRA} }, ${HEAVY_CALLERS} callers (every slot busy), against ours unhedged`,
      [
        check('p50 first chunk vs unhedged', s.p50 / base.p50, '<=', 1.05, 'ratio'),
        check('wall time vs unhedged', s.wallMs / base.wallMs, '<=', 1.05, 'ratio'),
        check('extra requests', s.extra, '<=', 0.05, 'share'),
      ],
      [context('p50', s.p50, 'ms'), context('unhedged p50', base.p50, 'ms')],
    ),
  ];
}

function breakerTarget(data, failForMs) {
  const b = data.breaker.breakers;
  return target(
    'B10.breaker',
    `ours: core chatStream with fallbackModels [flaky, steady] and breakers on, flaky answering 502 for ${fmtMs(failForMs)} then healed: requests to it at most the breaker's failures plus one per cooldown (the circuit-open events), used again within the cooldown in force when it healed`,
    [
      check('answered', b.answered, '>=', 1, 'share'),
      check(
        'requests to the failing model',
        b.failingRequests,
        '<=',
        BREAKER_FAILURES + b.opens.length,
        'count',
      ),
      check('answered again after healing', b.answeredAgainMs, '<=', b.cooldownAtHeal ?? 0, 'ms'),
    ],
    [
      context('cooldowns', b.opens.length, 'count'),
      context('cooldown in force at healing', b.cooldownAtHeal, 'ms'),
      context('without breakers: requests to it', data.breaker.noBreakers.failingRequests, 'count'),
    ],
  );
}

function keyTarget(data) {
  const rows = [data.light, data.heavy, data.breaker].flatMap((part) => Object.values(part));
  return target(
    'B10.key',
    `every B10 row: at most the key's ${KEY_SLOTS} slots in flight at the gateway, no 429`,
    [
      check(
        'most in flight, any row',
        Math.max(...rows.map((s) => s.maxInflight)),
        '<=',
        KEY_SLOTS,
        'count',
      ),
      check(
        '429s, all rows',
        rows.reduce((n, s) => n + s.rejections, 0),
        '=',
        0,
        'count',
      ),
    ],
  );
}

function sectionsOf(tables, data, { total, breakerTotal, paceMs, failForMs }) {
  const light = Object.values(data.light);
  const wins = light.reduce((n, x) => n + x.hedgeWins, 0);
  const byEvent = light.reduce((n, x) => n + x.hedgeWinsByEvent, 0);
  const { p50Ms, p99Ms, held, seed } = FIRST_CHUNK_MS;
  const pool = `key cap ${KEY_SLOTS}, latency ${LATENCY_MS} ms, first chunk log-normal p50 ${p50Ms} ms / p99 ${p99Ms} ms with ${held.share * 100} in 100 held ${fmtMs(held.minMs)}–${fmtMs(held.maxMs)} first (seed ${seed}), capacity ${CAPACITY}`;
  return [
    {
      title: `B10 light load: ${total} streamed calls from ${LIGHT_CALLERS} callers to one heavy-tailed model (${pool}; one run; first chunk from the call's start)`,
      rows: tables.light,
      note: `Requests per call, 429s and in flight from the emulator's counters. Hedges sent from our \`hedge\` events; won: the hedge's attempt delivered the first content (from the \`attempt\` / \`response\` events; core's \`hedge\` won events said \`winner: 'hedge'\` ${byEvent} times for these ${wins} wins: a hedge to the same model is reported \`first\`). Each row after ${WARMUP_CALLS} untimed calls from ${KEY_SLOTS} callers on its own emulator (its own budget, hedge timings and breakers in core). The cold row forgets core's hedge timings and hedge budget before every ${COLD_EVERY}th call (a fleet of short-lived processes): each group of ${COLD_EVERY} starts from the prior, with one hedge in its budget.`,
    },
    {
      title: `B10 heavy load: ${total} streamed calls from ${HEAVY_CALLERS} callers, the same pool (every slot busy)`,
      rows: tables.heavy,
    },
    {
      title: `B10 breakers: ${breakerTotal} streamed calls started ${fmtMs(paceMs)} apart to [flaky, steady] (the same heavy-tailed models, no hedge); flaky answers 502 (\`bad_gateway\`, \`forMs\`) for ${fmtMs(failForMs)} from just before the first call, then heals`,
      rows: tables.breaker,
      note: "From our events (each attempt's model and outcome): requests to the failing model = its attempts that failed; breaker opened = the `circuit-open` events (cooldown, and when, from the window's start); answered again = its first attempt to deliver content, from the window's end.",
    },
  ];
}

export async function runB10({ quick, oursOnly = false }) {
  const sizes = {
    total: quick ? 40 : 300,
    breakerTotal: quick ? 60 : 300,
    paceMs: quick ? 100 : PACE_MS,
    failForMs: quick ? 3_000 : FAIL_FOR_MS,
  };
  const light = await runLoad(
    'light',
    LIGHT_ROWS.filter((r) => !oursOnly || !r.anchor),
    sizes.total,
    LIGHT_CALLERS,
  );
  const heavy = await runLoad('heavy', HEAVY_ROWS, sizes.total, HEAVY_CALLERS);
  const breaker = await runBreakers(sizes.breakerTotal, sizes.paceMs, sizes.failForMs);
  const data = { light: light.data, heavy: heavy.data, breaker: breaker.data };
  const tables = { light: light.table, heavy: heavy.table, breaker: breaker.table };
  return {
    sections: sectionsOf(tables, data, sizes),
    targets: [...loadTargets(data), breakerTarget(data, sizes.failForMs), keyTarget(data)],
    parameters: {
      ...sizes,
      lightCallers: LIGHT_CALLERS,
      heavyCallers: HEAVY_CALLERS,
      warmupCalls: WARMUP_CALLS,
      keySlots: KEY_SLOTS,
      latencyMs: LATENCY_MS,
      chunkDelayMs: CHUNK_DELAY_MS,
      prompt: PROMPT,
      firstChunkMs: FIRST_CHUNK_MS,
      capacity: CAPACITY,
      fixedAfterMs: FIXED_AFTER_MS,
      maxExtra: MAX_EXTRA,
      coldEvery: COLD_EVERY,
      breakerFailures: BREAKER_FAILURES,
      callLimitMs: CALL_LIMIT_MS,
      oursOnly,
    },
    data,
  };
}

await runWhenCommand(import.meta.url, 'B10', runB10);

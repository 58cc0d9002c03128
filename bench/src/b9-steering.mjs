/**
 * B9 — steering around a model that goes offline and stalls (issue 33), over real HTTP: a pool of
 * three streaming models of capacity 2 each behind one key (4 requests at once). Halfway through
 * the run the first model goes offline (`model_offline`), and one in ten of its streams stalls
 * before its first chunk (`stall_first_chunk`, `every: 10`). 300 streamed calls from 16 callers,
 * each asking the first model. Reports, per contender, the share of calls answered and the
 * p50 / p99 latency of the answered calls (from the call's start, queueing included, to the last
 * chunk), beside ours with `fallbackModels` on the same pool when healthy (the target's baseline).
 *
 * Ours with `fallbackModels` needs core's failover (STEERING.md); until core has it, that case and
 * its healthy baseline are skipped with a message, and ours with one model runs without
 * `firstChunkTimeoutMs` when core does not honour it yet (the row says which).
 */
import { createEmulator, DEFAULT_KEYS } from '@infergate/emulator';
import { streamText } from 'ai';
import { chatOpenAI, coreClient, openaiCompatible } from './contenders.mjs';
import { spawnEmulator } from './emulator-process.mjs';
import {
  fmtMs,
  log,
  median,
  percentile,
  runWhenCommand,
  trafficColumns,
  trafficOf,
} from './harness.mjs';
import { check, context, target, unmeasuredTarget } from './results.mjs';

const LATENCY_MS = 50;
const CHUNK_DELAY_MS = 5;
const CAPACITY = 2;
const MODELS = ['community/b9-first', 'community/b9-second', 'community/b9-third'];
const [FIRST, SECOND, THIRD] = MODELS;
/** One in STALL_EVERY of the first model's streams stalls STALL_MS before its first chunk. */
const STALL_EVERY = 10;
const STALL_MS = 5_000;
/**
 * Ours: a stream with no first chunk after this long is left for the next model: 5× the pool's
 * time to first byte (its 50 ms latency). A second row shows the same walk with 500 ms (10×).
 */
const FIRST_CHUNK_TIMEOUT_MS = 250;
const LONGER_FIRST_CHUNK_TIMEOUT_MS = 500;
const CALLERS = 16;
/** A call still running after this long is stopped and counted as not answered (`over 30 s`). */
const CALL_LIMIT_MS = 30_000;
/** 20 words: about 23 events, CHUNK_DELAY_MS apart. */
const PROMPT = '[[words:20]]';
/** The anchors' retries: `ai`'s default, set explicitly. */
const AI_MAX_RETRIES = 2;

function scenario(faulty) {
  const model = { capabilities: ['chat', 'streaming'], capacity: CAPACITY };
  return {
    latencyMs: LATENCY_MS,
    streamChunkDelayMs: CHUNK_DELAY_MS,
    models: Object.fromEntries(MODELS.map((id) => [id, { ...model }])),
    faults: faulty
      ? [{ fault: 'stall_first_chunk', model: FIRST, every: STALL_EVERY, ms: STALL_MS }]
      : [],
  };
}

/**
 * The `model_offline` rule sent when the run is halfway (the next request to the first model
 * takes it offline for good). Not `afterRequests` in the scenario: that counts requests to the
 * model, and how many of a run's calls reach it depends on the contender (ours with a list sends
 * it only the calls it has capacity for; a single-model client sends it every call and its retries),
 * so "halfway" is taken from the run's own progress, the same moment for every contender.
 */
const OFFLINE_RULE = { fault: 'model_offline', model: FIRST };

function messages(prompt) {
  return [{ role: 'user', content: prompt }];
}

async function coreStreamText(core, prompt, options) {
  const stream = await core.chatStream({ model: FIRST, messages: messages(prompt) }, options);
  return (await stream.result()).text;
}

/** Which steering options the built core honours, probed against an in-process emulator. */
async function probeSteering() {
  const emulator = createEmulator({
    ...scenario(false),
    faults: [
      { fault: 'model_busy', model: FIRST, retryAfter: 30 },
      { fault: 'stall_first_chunk', model: SECOND, ms: 60_000 },
    ],
  });
  const client = coreClient({
    baseURL: 'https://gateway.test/v1',
    apiKey: DEFAULT_KEYS.full,
    fetch: emulator.fetch,
  });
  const fallbackModels = await client
    .chatStream(
      { model: FIRST, messages: messages('probe') },
      { fallbackModels: [THIRD], maxRetries: 0, signal: AbortSignal.timeout(5_000) },
    )
    .then(async (stream) => {
      await stream.result();
      return stream.servedModel === THIRD || stream.route?.answeredBy === THIRD;
    })
    .catch(() => false);
  const firstChunkTimeoutMs = await client
    .chatStream(
      { model: SECOND, messages: messages('probe') },
      { firstChunkTimeoutMs: 50, maxRetries: 0, signal: AbortSignal.timeout(2_000) },
    )
    .then((stream) => stream.result())
    .then(
      () => false,
      (error) => error?.code === 'timeout' && error?.stall !== undefined,
    );
  return { fallbackModels, firstChunkTimeoutMs };
}

function contenders(support) {
  const timeout = support.firstChunkTimeoutMs
    ? { firstChunkTimeoutMs: FIRST_CHUNK_TIMEOUT_MS }
    : {};
  const timeoutLabel = support.firstChunkTimeoutMs
    ? `, firstChunkTimeoutMs ${FIRST_CHUNK_TIMEOUT_MS}`
    : ' (core has no firstChunkTimeoutMs yet)';
  const withList = (firstChunkTimeoutMs) => (c) => {
    const core = coreClient(c);
    return (prompt, signal) =>
      coreStreamText(core, prompt, {
        signal,
        fallbackModels: [SECOND, THIRD],
        firstChunkTimeoutMs,
      });
  };
  const skip = support.fallbackModels
    ? undefined
    : 'skipped: the built @infergate/core does not fail over to fallbackModels yet (issue 33, steer-core); rebuild core once it does';
  return [
    {
      name: `ours: core chatStream, fallbackModels [second, third], firstChunkTimeoutMs ${FIRST_CHUNK_TIMEOUT_MS}`,
      ours: true,
      skip,
      make: withList(FIRST_CHUNK_TIMEOUT_MS),
    },
    {
      name: `ours: core chatStream, fallbackModels [second, third], firstChunkTimeoutMs ${LONGER_FIRST_CHUNK_TIMEOUT_MS}`,
      skip,
      make: withList(LONGER_FIRST_CHUNK_TIMEOUT_MS),
    },
    {
      name: `ours: core chatStream, one model${timeoutLabel}`,
      make: (c) => {
        const core = coreClient(c);
        return (prompt, signal) => coreStreamText(core, prompt, { signal, ...timeout });
      },
    },
    {
      name: `streamText + @ai-sdk/openai-compatible, maxRetries ${AI_MAX_RETRIES}`,
      make: (c) => {
        const oc = openaiCompatible(c);
        return async (prompt, signal) => {
          const result = streamText({
            model: oc.chatModel(FIRST),
            prompt,
            maxRetries: AI_MAX_RETRIES,
            abortSignal: signal,
            onError: () => {},
          });
          let text = '';
          for await (const part of result.fullStream) {
            if (part.type === 'error') throw part.error;
            if (part.type === 'text-delta') text += part.text;
          }
          return text;
        };
      },
    },
    {
      name: 'ChatOpenAI.withFallbacks([second, third]).stream',
      make: (c) => {
        const model = chatOpenAI(c, FIRST).withFallbacks([
          chatOpenAI(c, SECOND),
          chatOpenAI(c, THIRD),
        ]);
        return async (prompt, signal) => {
          let text = '';
          for await (const chunk of await model.stream(prompt, { signal })) {
            text += typeof chunk.content === 'string' ? chunk.content : '';
          }
          return text;
        };
      },
    },
  ];
}

/** `total` calls from CALLERS loops against a fresh emulator process. */
async function runOnce(make, total, faulty) {
  const server = await spawnEmulator(scenario(faulty));
  try {
    const call = make({ baseURL: server.url, apiKey: server.apiKey });
    const limited = (prompt) => call(prompt, AbortSignal.timeout(CALL_LIMIT_MS));
    // One call first (connection, code paths); it is the first model's first request for the
    // stall rule's count, the same for every contender.
    await limited('warm up');
    await server.reset();
    const latencies = [];
    const errors = new Map();
    const firstMessages = new Map();
    let next = 0;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: CALLERS }, async () => {
        while (next < total) {
          const i = next++;
          if (faulty && i === total / 2) await server.inject(OFFLINE_RULE);
          const began = performance.now();
          try {
            const text = await limited(`${PROMPT} call ${i}`);
            if (!text) throw Object.assign(new Error('empty answer'), { code: 'empty_answer' });
            latencies.push(performance.now() - began);
          } catch (error) {
            const kind =
              error?.name === 'TimeoutError'
                ? `over ${CALL_LIMIT_MS / 1000} s`
                : typeof error?.code === 'string'
                  ? error.code
                  : (error?.name ?? 'error');
            errors.set(kind, (errors.get(kind) ?? 0) + 1);
            // The first message of each kind, for the log: the table shows the kinds only.
            if (!firstMessages.has(kind)) firstMessages.set(kind, String(error?.message ?? error));
          }
        }
      }),
    );
    const wallMs = performance.now() - start;
    for (const [kind, message] of firstMessages) log(`B9   ${kind}: ${message.slice(0, 300)}`);
    const counters = await server.counters();
    const sorted = latencies.toSorted((a, b) => a - b);
    return {
      answered: latencies.length / total,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      wallMs,
      ...trafficOf(counters, errors),
    };
  } finally {
    await server.close();
  }
}

function summarize(list) {
  const pick = list.toSorted((a, b) => a.p99 - b.p99)[Math.floor(list.length / 2)];
  return {
    answered: median(list.map((x) => x.answered)),
    p50: median(list.map((x) => x.p50)),
    p99: median(list.map((x) => x.p99)),
    wallMs: median(list.map((x) => x.wallMs)),
    sent: median(list.map((x) => x.sent)),
    rejections: median(list.map((x) => x.rejections)),
    maxInflight: Math.max(...list.map((x) => x.maxInflight)),
    errors: pick.errors,
  };
}

function row(name, s) {
  return {
    case: name,
    answered: `${(s.answered * 100).toFixed(1)} %`,
    p50: fmtMs(s.p50),
    p99: fmtMs(s.p99),
    wall: fmtMs(s.wallMs),
    ...trafficColumns(s),
  };
}

export async function runB9({ quick, oursOnly = false }) {
  const total = quick ? 100 : 300;
  // One run each: the anchors' retry back-off makes a run take minutes (p99 is then the 3rd
  // slowest of 300 answered calls at most).
  const repeats = 1;
  const support = await probeSteering();
  log(
    `B9 core honours fallbackModels: ${support.fallbackModels}, firstChunkTimeoutMs: ${support.firstChunkTimeoutMs}`,
  );
  // `--ours`: our rows only (the anchors' rows take minutes and do not depend on our code).
  const cases = contenders(support).filter((c) => !oursOnly || c.name.startsWith('ours'));
  const rows = [];
  const data = { total, callers: CALLERS, support, results: {} };
  const runCase = async (name, make, faulty) => {
    const list = [];
    for (let r = 0; r < repeats; r++) {
      const result = await runOnce(make, total, faulty);
      log(`B9 ${name}: ${(result.answered * 100).toFixed(1)} % answered, p99 ${fmtMs(result.p99)}`);
      list.push(result);
    }
    const summary = summarize(list);
    data.results[name] = summary;
    rows.push(row(name, summary));
    return summary;
  };
  let healthy;
  let ours;
  const skipped = [];
  for (const c of cases) {
    if (c.skip) {
      log(`B9 ${c.name}: ${c.skip}`);
      skipped.push(`${c.name}: ${c.skip}`);
      rows.push({ case: c.name, answered: c.skip });
      continue;
    }
    if (c.ours) healthy = await runCase(`${c.name} — healthy pool (baseline)`, c.make, false);
    const summary = await runCase(c.name, c.make, true);
    if (c.ours) ours = summary;
  }
  const targetText = `ours: core chatStream with fallbackModels and firstChunkTimeoutMs ${FIRST_CHUNK_TIMEOUT_MS} on the faulty pool, against the same on the healthy pool`;
  const steering = ours
    ? target(
        'B9.steering',
        targetText,
        [
          check('answered', ours.answered, '>=', 1, 'share'),
          check('p99 vs healthy p99', ours.p99 / healthy.p99, '<=', 1.5, 'ratio'),
        ],
        [context('p99', ours.p99, 'ms'), context('healthy p99', healthy.p99, 'ms')],
      )
    : unmeasuredTarget(
        'B9.steering',
        targetText,
        'not measured: the built core does not fail over to fallbackModels',
      );
  return {
    sections: [
      {
        title: `B9 steering: ${total} streamed calls from ${CALLERS} callers to a pool of 3 models (capacity ${CAPACITY} each, key cap 4, latency ${LATENCY_MS} ms, ${CHUNK_DELAY_MS} ms between chunks); the first goes offline halfway and 1 in ${STALL_EVERY} of its streams stalls ${fmtMs(STALL_MS)} before its first chunk (${repeats === 1 ? 'one run' : `median of ${repeats}`}; latency of answered calls, each call stopped after ${fmtMs(CALL_LIMIT_MS)})`,
        rows,
        note: skipped.length > 0 ? `Skipped: ${skipped.join('; ')}` : undefined,
      },
    ],
    targets: [steering],
    parameters: {
      total,
      callers: CALLERS,
      repeats,
      capacity: CAPACITY,
      latencyMs: LATENCY_MS,
      chunkDelayMs: CHUNK_DELAY_MS,
      stallEvery: STALL_EVERY,
      stallMs: STALL_MS,
      firstChunkTimeoutMs: FIRST_CHUNK_TIMEOUT_MS,
      callLimitMs: CALL_LIMIT_MS,
      oursOnly,
    },
    data,
  };
}

await runWhenCommand(import.meta.url, 'B9', runB9);

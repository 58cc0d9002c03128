/**
 * B3 — one API key under load, over real HTTP: many concurrent callers share a key that the
 * gateway caps at 4 requests at once. Each contender keeps its default retry settings. Measures
 * wall time against the ideal (requests × latency / cap), the 429s the gateway had to send, and
 * the calls that failed.
 */
import { generateText } from 'ai';
import { CHAT_MODEL } from './canned-gateway.mjs';
import {
  chatOpenAI,
  coreClient,
  openaiCompatible,
  oursAiSdk,
  oursChatModel,
} from './contenders.mjs';
import { spawnEmulator } from './emulator-process.mjs';
import { fmtMs, fmtRatio, log, median } from './harness.mjs';
import { check, context, target } from './results.mjs';

const LATENCY_MS = 50;
const CAP = 4;

/** The floor: bare fetch + JSON.parse behind a perfect 4-slot semaphore (no retries needed). */
function rawWithSemaphore({ baseURL, apiKey }) {
  let active = 0;
  const queue = [];
  const acquire = () => {
    if (active < CAP) {
      active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => queue.push(resolve));
  };
  const release = () => {
    const next = queue.shift();
    if (next) next();
    else active--;
  };
  return async (prompt) => {
    await acquire();
    try {
      const response = await fetch(`${baseURL}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: CHAT_MODEL, messages: [{ role: 'user', content: prompt }] }),
      });
      const data = JSON.parse(await response.text());
      if (!response.ok) throw Object.assign(new Error('raw'), { code: data.error?.code });
    } finally {
      release();
    }
  };
}

const CONTENDERS = [
  ['raw fetch + 4-slot semaphore (floor)', rawWithSemaphore],
  [
    'core client.chat',
    (c) => {
      const core = coreClient(c);
      return (p) => core.chat({ model: CHAT_MODEL, messages: [{ role: 'user', content: p }] });
    },
  ],
  [
    'generateText + @infergate/ai-sdk',
    (c) => {
      const ours = oursAiSdk(c);
      return (p) => generateText({ model: ours(CHAT_MODEL), prompt: p });
    },
  ],
  [
    'GatewayChatModel.invoke',
    (c) => {
      const m = oursChatModel(c, CHAT_MODEL);
      return (p) => m.invoke(p);
    },
  ],
  [
    'generateText + @ai-sdk/openai-compatible',
    (c) => {
      const oc = openaiCompatible(c);
      return (p) => generateText({ model: oc.chatModel(CHAT_MODEL), prompt: p });
    },
  ],
  [
    'ChatOpenAI.invoke',
    (c) => {
      const m = chatOpenAI(c, CHAT_MODEL);
      return (p) => m.invoke(p);
    },
  ],
];

/** The model that always answers 429 model_busy, Retry-After 1 s, in the retry-storm runs. */
const FAILING_MODEL = 'community/plain';
const STORM_CALLERS = 8;

/**
 * `total` calls from `callers` concurrent loops; resolves with wall time and counters. With
 * `storm`, `STORM_CALLERS` more loops on the same key call a model that is always busy (each call
 * retries after Retry-After until its retries are used up) until the healthy calls are done.
 */
async function loadOnce(makeCall, total, callers, storm = false) {
  const server = await spawnEmulator({
    latencyMs: LATENCY_MS,
    maxConcurrentPerKey: CAP,
    ...(storm ? { faults: [{ fault: 'model_busy', model: FAILING_MODEL, retryAfter: 1 }] } : {}),
  });
  try {
    const call = makeCall({ baseURL: server.url, apiKey: server.apiKey });
    let healthyDone = false;
    const stormLoops = [];
    const startStorm = () => {
      if (!storm) return;
      const core = coreClient({ baseURL: server.url, apiKey: server.apiKey });
      for (let i = 0; i < STORM_CALLERS; i++) {
        stormLoops.push(
          (async () => {
            while (!healthyDone) {
              await core
                .chat({ model: FAILING_MODEL, messages: [{ role: 'user', content: 'busy' }] })
                .catch(() => {});
            }
          })(),
        );
      }
    };
    // One call first (catalog, connection); then the counters start from zero.
    await call('warm up');
    await server.reset();
    startStorm();
    let next = 0;
    let failures = 0;
    const errors = new Map();
    const start = performance.now();
    await Promise.all(
      Array.from({ length: callers }, async () => {
        while (next < total) {
          const i = next++;
          try {
            await call(`request ${i}`);
          } catch (error) {
            failures++;
            const kind = error?.code ?? error?.name ?? 'error';
            errors.set(kind, (errors.get(kind) ?? 0) + 1);
          }
        }
      }),
    );
    const wallMs = performance.now() - start;
    healthyDone = true;
    const counters = await server.counters();
    await Promise.all(stormLoops);
    return {
      wallMs,
      rejections: counters.concurrencyRejections,
      sent: counters.requests.chat,
      maxInflight: Math.max(0, ...Object.values(counters.maxInflight)),
      failures,
      errors: [...errors].map(([k, n]) => `${k}×${n}`).join(', '),
    };
  } finally {
    await server.close();
  }
}

/** Ours (worst of our three clients) against the ideal, with zero 429s and zero failures. */
function oursTarget(data, idealMs, repeats) {
  const ours = [
    'core client.chat',
    'generateText + @infergate/ai-sdk',
    'GatewayChatModel.invoke',
  ].map((name) => data[name]);
  const floorMs = data['raw fetch + 4-slot semaphore (floor)'].wallMs;
  return target(
    'B3.ours',
    `ours under load (worst of core, @infergate/ai-sdk, GatewayChatModel; median of ${repeats} runs)`,
    [
      check('wall vs ideal', Math.max(...ours.map((x) => x.wallMs / idealMs)), '<=', 1.1, 'ratio'),
      check('429s', Math.max(...ours.map((x) => x.rejections)), '=', 0, 'count'),
      check('failed calls', Math.max(...ours.map((x) => x.failures)), '=', 0, 'count'),
    ],
    [context('raw floor vs ideal', floorMs / idealMs, 'ratio')],
  );
}

export async function runB3({ quick }) {
  const total = quick ? 100 : 400;
  const callers = 50;
  const repeats = quick ? 1 : 3;
  const idealMs = (total * LATENCY_MS) / CAP;
  const runs = new Map(CONTENDERS.map(([name]) => [name, []]));
  for (let r = 0; r < repeats; r++) {
    for (const [name, make] of CONTENDERS) {
      const result = await loadOnce(make, total, callers);
      log(
        `B3 ${name}: ${fmtMs(result.wallMs)}, ${result.rejections} 429s, ${result.failures} failed`,
      );
      runs.get(name).push(result);
    }
  }
  // The retry storm: core beside one always-busy model on the same key (a sleeping retry holds no
  // slot, so the healthy calls keep the key's 4 slots).
  const stormRuns = [];
  for (let r = 0; r < repeats; r++) {
    const make = CONTENDERS.find(([name]) => name === 'core client.chat')[1];
    const result = await loadOnce(make, total, callers, true);
    log(`B3 storm core client.chat: ${fmtMs(result.wallMs)}, ${result.rejections} 429s`);
    stormRuns.push(result);
  }
  const rows = [];
  const data = {};
  const floorMs = () => data['raw fetch + 4-slot semaphore (floor)'].wallMs;
  for (const [name, list] of runs) {
    const pick = list.toSorted((a, b) => a.wallMs - b.wallMs)[Math.floor(list.length / 2)];
    const summary = {
      wallMs: median(list.map((x) => x.wallMs)),
      rejections: median(list.map((x) => x.rejections)),
      sent: median(list.map((x) => x.sent)),
      failures: median(list.map((x) => x.failures)),
      maxInflight: Math.max(...list.map((x) => x.maxInflight)),
      errors: pick.errors,
    };
    data[name] = summary;
    rows.push({
      case: name,
      wall: fmtMs(summary.wallMs),
      'vs ideal': fmtRatio(summary.wallMs / idealMs),
      'vs floor': fmtRatio(summary.wallMs / floorMs()),
      '429s received': summary.rejections,
      'requests sent': summary.sent,
      'failed calls': summary.failures,
      'max in flight': summary.maxInflight,
      errors: summary.errors,
    });
  }
  const stormWallMs = median(stormRuns.map((x) => x.wallMs));
  const stormRow = {
    case: `core client.chat beside a retry storm (${STORM_CALLERS} callers on an always-busy model, Retry-After 1 s)`,
    wall: fmtMs(stormWallMs),
    'vs ideal': fmtRatio(stormWallMs / idealMs),
    'vs floor': fmtRatio(stormWallMs / floorMs()),
    '429s received': median(stormRuns.map((x) => x.rejections)),
    'requests sent': median(stormRuns.map((x) => x.sent)),
    'failed calls': median(stormRuns.map((x) => x.failures)),
    'max in flight': Math.max(...stormRuns.map((x) => x.maxInflight)),
    errors: "healthy calls only (the busy model's model_busy 429s are not counted)",
  };
  data.retryStorm = { wallMs: stormWallMs, runs: stormRuns };
  return {
    sections: [
      {
        title: `B3 one key under load: ${total} requests from ${callers} callers, latency ${LATENCY_MS} ms, cap ${CAP}, real HTTP (ideal ${fmtMs(idealMs)}; median of ${repeats})`,
        rows,
      },
      {
        title: `B3 retry storm: the same ${total} healthy core calls while ${STORM_CALLERS} callers retry an always-busy model on the same key`,
        rows: [rows.find((row) => row.case === 'core client.chat'), stormRow],
      },
    ],
    targets: [oursTarget(data, idealMs, repeats)],
    parameters: { total, callers, repeats, latencyMs: LATENCY_MS, cap: CAP, idealMs },
    data: { total, callers, idealMs, results: data },
  };
}

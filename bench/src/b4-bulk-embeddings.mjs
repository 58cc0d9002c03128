/**
 * B4 — bulk embeddings over real HTTP: 10 000 texts of ~300 bytes, one call each contender.
 * The gateway takes ≤ 64 texts / ≤ 65 536 bytes per request and 4 requests at once per key, so
 * the ideal is ceil(texts / 64) × latency / 4. Anchors run with their defaults, and "tuned" as
 * a user would after reading the gateway's 400 (batch size 64, 4 at once).
 */
import { OpenAICompatibleEmbeddingModel } from '@ai-sdk/openai-compatible';
import { embedMany } from 'ai';
import {
  coreClient,
  openAIEmbeddings,
  openaiCompatible,
  oursAiSdk,
  oursEmbeddings,
} from './contenders.mjs';
import { spawnEmulator } from './emulator-process.mjs';
import { fmtMs, fmtRatio, log, median } from './harness.mjs';
import { check, context, target } from './results.mjs';

const LATENCY_MS = 50;
const CAP = 4;
const ENGINE = 'multilingual-e5-base';

const WORDS =
  'gateway model token stream vector search index query answer document budget latency retry queue engine batch text chunk server client network'.split(
    ' ',
  );

/** Deterministic texts of about 300 bytes. */
export function makeTexts(count) {
  const texts = [];
  let seed = 7;
  for (let i = 0; i < count; i++) {
    let text = `document ${i}:`;
    while (text.length < 300) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      text += ` ${WORDS[seed % WORDS.length]}`;
    }
    texts.push(text);
  }
  return texts;
}

function tunedOpenAICompatible({ baseURL, apiKey }) {
  return new OpenAICompatibleEmbeddingModel(ENGINE, {
    provider: 'gateway.embedding',
    url: ({ path }) => `${baseURL}${path}`,
    headers: () => ({ Authorization: `Bearer ${apiKey}` }),
    maxEmbeddingsPerCall: 64,
  });
}

/** The floor: bare fetch of 64-text batches + JSON.parse, 4 at a time. */
function rawBatches({ baseURL, apiKey }) {
  return async (texts) => {
    const vectors = new Array(texts.length);
    let next = 0;
    const worker = async () => {
      while (next < texts.length) {
        const start = next;
        next += 64;
        const response = await fetch(`${baseURL}/embeddings`, {
          method: 'POST',
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: ENGINE, input: texts.slice(start, start + 64) }),
        });
        const data = JSON.parse(await response.text());
        if (!response.ok) throw new Error(data.error?.message ?? 'raw embeddings failed');
        for (const item of data.data) vectors[start + item.index] = item.embedding;
      }
    };
    await Promise.all(Array.from({ length: CAP }, worker));
    return vectors;
  };
}

const CONTENDERS = [
  ['raw fetch, 64/request, 4 at once (floor)', rawBatches],
  [
    'core embedMany',
    (c) => {
      const core = coreClient(c);
      return (t) => core.embedMany(t, { model: ENGINE });
    },
  ],
  [
    'embedMany + @infergate/ai-sdk',
    (c) => {
      const m = oursAiSdk(c).embeddingModel(ENGINE);
      return async (t) => (await embedMany({ model: m, values: t })).embeddings;
    },
  ],
  [
    'GatewayEmbeddings.embedDocuments',
    (c) => {
      const e = oursEmbeddings(c, ENGINE);
      return (t) => e.embedDocuments(t);
    },
  ],
  [
    'embedMany + @ai-sdk/openai-compatible (defaults)',
    (c) => {
      const m = openaiCompatible(c).embeddingModel(ENGINE);
      return async (t) => (await embedMany({ model: m, values: t })).embeddings;
    },
  ],
  [
    'OpenAIEmbeddings (defaults)',
    (c) => {
      const e = openAIEmbeddings(c, ENGINE);
      return (t) => e.embedDocuments(t);
    },
  ],
  [
    'embedMany + openai-compatible (tuned: 64/call, 4 parallel)',
    (c) => {
      const m = tunedOpenAICompatible(c);
      return async (t) =>
        (await embedMany({ model: m, values: t, maxParallelCalls: CAP })).embeddings;
    },
  ],
  [
    'OpenAIEmbeddings (tuned: batchSize 64, maxConcurrency 4)',
    (c) => {
      const e = openAIEmbeddings(c, ENGINE, { batchSize: 64, maxConcurrency: CAP });
      return (t) => e.embedDocuments(t);
    },
  ],
];

function describeError(error) {
  const text = String(error?.message ?? error).replace(/\s+/g, ' ');
  return text.length > 90 ? `${text.slice(0, 90)}…` : text;
}

async function embedOnce(make, texts) {
  const server = await spawnEmulator({ latencyMs: LATENCY_MS, maxConcurrentPerKey: CAP });
  try {
    const embed = make({ baseURL: server.url, apiKey: server.apiKey });
    // One small call first (catalog, connection); then the counters start from zero.
    await embed(texts.slice(0, 2)).catch(() => {});
    await server.reset();
    const start = performance.now();
    let error;
    let vectors;
    try {
      vectors = await embed(texts);
    } catch (cause) {
      error = cause;
    }
    const wallMs = performance.now() - start;
    const counters = await server.counters();
    const complete =
      Array.isArray(vectors) &&
      vectors.length === texts.length &&
      vectors.every((v) => v?.length > 0);
    return {
      wallMs,
      sent: counters.requests.embeddings,
      rejections: counters.concurrencyRejections,
      maxInflight: Math.max(0, ...Object.values(counters.maxInflight)),
      ok: error === undefined && complete,
      error: error ? describeError(error) : complete ? '' : 'incomplete result',
    };
  } finally {
    await server.close();
  }
}

export async function runB4({ quick }) {
  const count = quick ? 2000 : 10_000;
  const repeats = quick ? 1 : 3;
  const texts = makeTexts(count);
  const idealMs = (Math.ceil(count / 64) * LATENCY_MS) / CAP;
  const runs = new Map(CONTENDERS.map(([name]) => [name, []]));
  for (let r = 0; r < repeats; r++) {
    for (const [name, make] of CONTENDERS) {
      const result = await embedOnce(make, texts);
      log(
        `B4 ${name}: ${fmtMs(result.wallMs)}, ${result.sent} requests${result.ok ? '' : `, failed: ${result.error}`}`,
      );
      runs.get(name).push(result);
    }
  }
  const rows = [];
  const data = {};
  const floorMs = () => data['raw fetch, 64/request, 4 at once (floor)'].wallMs;
  for (const [name, list] of runs) {
    const summary = {
      wallMs: median(list.map((x) => x.wallMs)),
      sent: median(list.map((x) => x.sent)),
      rejections: median(list.map((x) => x.rejections)),
      maxInflight: Math.max(...list.map((x) => x.maxInflight)),
      failures: list.filter((x) => !x.ok).length,
      error: list.find((x) => x.error)?.error ?? '',
    };
    data[name] = summary;
    rows.push({
      case: name,
      wall: fmtMs(summary.wallMs),
      'vs ideal': summary.failures === list.length ? 'failed' : fmtRatio(summary.wallMs / idealMs),
      'vs floor':
        summary.failures === list.length ? 'failed' : fmtRatio(summary.wallMs / floorMs()),
      'requests sent': summary.sent,
      '429s received': summary.rejections,
      'max in flight': summary.maxInflight,
      'failed runs': `${summary.failures}/${list.length}`,
      error: summary.error,
    });
  }
  const ours = [
    'core embedMany',
    'embedMany + @infergate/ai-sdk',
    'GatewayEmbeddings.embedDocuments',
  ].map((name) => data[name]);
  const worstRatio = Math.max(...ours.map((x) => x.wallMs / idealMs));
  const failedRuns = ours.reduce((n, x) => n + x.failures, 0);
  return {
    sections: [
      {
        title: `B4 bulk embeddings: ${count} texts of ~300 bytes, engine ${ENGINE}, latency ${LATENCY_MS} ms, cap ${CAP}, real HTTP (ideal ${fmtMs(idealMs)}; median of ${repeats})`,
        rows,
      },
    ],
    targets: [
      target(
        'B4.ours',
        `ours embedding ${count} texts (worst of core, @infergate/ai-sdk, GatewayEmbeddings; median of ${repeats} runs)`,
        [
          check('wall vs ideal', worstRatio, '<=', 1.1, 'ratio'),
          check('failed runs', failedRuns, '=', 0, 'count'),
        ],
        [context('raw floor vs ideal', floorMs() / idealMs, 'ratio')],
      ),
    ],
    parameters: { count, repeats, latencyMs: LATENCY_MS, cap: CAP, engine: ENGINE, idealMs },
    data: { count, idealMs, results: data },
  };
}

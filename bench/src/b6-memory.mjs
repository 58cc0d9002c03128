/**
 * B6 — memory: consume one very long stream (100 MB of SSE) and report how much the process's
 * RSS grows. Each case runs in a fresh child process; RSS is sampled as the bytes are produced
 * (every 1 MB), so a busy event loop cannot hide the peak.
 *
 * Core bounds a stream's total size by `maxResponseBytes` (32 MiB by default; its README: "raise
 * it for longer answers"), so both of our cases raise it to twice the stream's size (the AI SDK
 * provider's `maxResponseBytes` setting passes it to core), as a user streaming this much would.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { fmtBytes, fmtRatio, log } from './harness.mjs';
import { check, target } from './results.mjs';

const SELF = fileURLToPath(import.meta.url);
const MB = 1024 * 1024;

const CASES = [
  'raw reader + eventsource-parser + JSON.parse',
  'core chatStream',
  '@infergate/ai-sdk doStream',
  '@ai-sdk/openai-compatible doStream',
];

async function child(caseName, megabytes) {
  const { createParser } = await import('eventsource-parser');
  const canned = await import('./canned-gateway.mjs');
  const { coreClient, openaiCompatible, oursAiSdk } = await import('./contenders.mjs');
  const totalBytes = megabytes * MB;
  const encoder = new TextEncoder();
  const samples = [];
  let produced = 0;
  let nextSample = MB;
  let chunks = 0;
  const body = () => {
    let sentHead = false;
    let ended = false;
    return new ReadableStream({
      pull(controller) {
        if (ended) return controller.close();
        let text = sentHead ? '' : canned.STREAM_HEAD;
        sentHead = true;
        while (text.length < 65_536) text += canned.contentEvent(chunks++);
        if (produced + text.length >= totalBytes) {
          text += canned.streamTail(chunks);
          ended = true;
        }
        produced += text.length;
        if (produced >= nextSample) {
          samples.push(process.memoryUsage.rss());
          nextSample += MB;
        }
        controller.enqueue(encoder.encode(text));
      },
    });
  };
  const models = await canned.cannedFetch()(`${canned.CANNED_BASE_URL}/models`);
  const modelsText = await models.text();
  const fetch = async (input) => {
    const url = typeof input === 'string' ? input : input.url;
    if (url.endsWith('/models'))
      return new Response(modelsText, { headers: { 'content-type': 'application/json' } });
    return new Response(body(), { headers: { 'content-type': 'text/event-stream' } });
  };
  const connection = { baseURL: canned.CANNED_BASE_URL, apiKey: canned.CANNED_KEY, fetch };
  const prompt = [{ role: 'user', content: [{ type: 'text', text: 'Count.' }] }];
  const drain = async (readable) => {
    const reader = readable.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (value.type === 'error') throw value.error;
    }
  };
  let consume;
  if (caseName === CASES[0]) {
    consume = async () => {
      const reader = (await fetch('chat')).body.getReader();
      const text = new TextDecoder();
      const parser = createParser({ onEvent: (e) => e.data !== '[DONE]' && JSON.parse(e.data) });
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        parser.feed(text.decode(value, { stream: true }));
      }
    };
  } else if (caseName === CASES[1]) {
    const core = coreClient(connection, { maxResponseBytes: 2 * totalBytes });
    consume = async () => {
      const stream = await core.chatStream({
        model: canned.CHAT_MODEL,
        messages: [{ role: 'user', content: 'Count.' }],
      });
      for await (const _event of stream);
    };
  } else if (caseName === CASES[2]) {
    const model = oursAiSdk(connection, { maxResponseBytes: 2 * totalBytes })(canned.CHAT_MODEL);
    await model.config.client().models();
    consume = async () => drain((await model.doStream({ prompt })).stream);
  } else {
    const model = openaiCompatible(connection).chatModel(canned.CHAT_MODEL);
    consume = async () => drain((await model.doStream({ prompt })).stream);
  }
  globalThis.gc();
  await new Promise((resolve) => setTimeout(resolve, 50));
  const baseline = process.memoryUsage.rss();
  const start = performance.now();
  try {
    await consume();
  } catch (error) {
    const code = error?.code ?? error?.cause?.code ?? error?.name ?? 'error';
    const message = String(error?.message ?? error).slice(0, 160);
    process.stdout.write(JSON.stringify({ error: { code, message }, bytes: produced }));
    return;
  }
  const ms = performance.now() - start;
  samples.push(process.memoryUsage.rss());
  const peak = Math.max(...samples);
  process.stdout.write(
    JSON.stringify({ baseline, peak, growth: peak - baseline, ms, chunks, bytes: produced }),
  );
}

if (process.argv[2] === '--child') {
  await child(process.argv[3], Number(process.argv[4]));
}

const OURS = [CASES[1], CASES[2]];

function rowOf(name, r, raw) {
  if (r.error)
    return {
      case: name,
      'RSS growth': `failed: ${r.error.code} after ${fmtBytes(r.bytes)} (${r.error.message})`,
      'baseline RSS': '',
      'chunks/s': '',
      'time vs raw': '',
    };
  return {
    case: name,
    'RSS growth': fmtBytes(r.growth),
    'baseline RSS': fmtBytes(r.baseline),
    'chunks/s': `${Math.round(r.chunks / (r.ms / 1000) / 1000)} k/s`,
    'time vs raw': fmtRatio(r.ms / raw.ms),
  };
}

export async function runB6({ quick }) {
  const megabytes = quick ? 20 : 100;
  const results = {};
  for (const name of CASES) {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--expose-gc', SELF, '--child', name, String(megabytes)],
      { maxBuffer: MB },
    );
    results[name] = JSON.parse(stdout);
    const r = results[name];
    log(
      `B6 ${name}: ${r.error ? `failed (${r.error.code}) after ${fmtBytes(r.bytes)}` : `+${fmtBytes(r.growth)} RSS`} over ${megabytes} MB`,
    );
  }
  const raw = results[CASES[0]];
  const completed = OURS.filter((name) => !results[name].error);
  const worst = Math.max(...completed.map((name) => results[name].growth));
  return {
    sections: [
      {
        title: `B6 memory: one ${megabytes} MB stream (${raw.chunks} chunks), fresh process per case`,
        rows: CASES.map((name) => rowOf(name, results[name], raw)),
        note: "our cases run with maxResponseBytes at twice the stream's size (core's default bounds a stream's total size at 32 MiB; the AI SDK provider passes its maxResponseBytes setting to core).",
      },
    ],
    targets: [
      target(
        'B6.rss',
        `one ${megabytes} MB stream through core chatStream and @infergate/ai-sdk doStream: both complete, RSS growth (worst)`,
        [
          check('completed', completed.length, '=', OURS.length, 'count'),
          check('growth', completed.length > 0 ? worst : Number.NaN, '<', 50 * MB, 'bytes'),
        ],
      ),
    ],
    parameters: { megabytes },
    data: { megabytes, results },
  };
}

/**
 * B6 — memory: consume one very long stream (100 MB of SSE) and report how much the process's
 * RSS grows. Each case runs in a fresh child process; RSS is sampled as the bytes are produced
 * (every 1 MB), so a busy event loop cannot hide the peak.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { fmtBytes, fmtRatio, log, target } from './harness.mjs';

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
  const target = megabytes * MB;
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
        if (produced + text.length >= target) {
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
    const core = coreClient(connection);
    consume = async () => {
      const stream = await core.chatStream({
        model: canned.CHAT_MODEL,
        messages: [{ role: 'user', content: 'Count.' }],
      });
      for await (const _event of stream);
    };
  } else if (caseName === CASES[2]) {
    const model = oursAiSdk(connection)(canned.CHAT_MODEL);
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
  await consume();
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
    log(`B6 ${name}: +${fmtBytes(results[name].growth)} RSS over ${megabytes} MB`);
  }
  const raw = results[CASES[0]];
  const rows = CASES.map((name) => {
    const r = results[name];
    return {
      case: name,
      'RSS growth': fmtBytes(r.growth),
      'baseline RSS': fmtBytes(r.baseline),
      'chunks/s': `${Math.round(r.chunks / (r.ms / 1000) / 1000)} k/s`,
      'time vs raw': fmtRatio(r.ms / raw.ms),
    };
  });
  const worst = Math.max(results[CASES[1]].growth, results[CASES[2]].growth);
  return {
    sections: [
      {
        title: `B6 memory: one ${megabytes} MB stream (${raw.chunks} chunks), fresh process per case`,
        rows,
      },
    ],
    targets: [
      target(
        `B6 < 50 MB RSS growth (core, AI SDK provider): worst ${fmtBytes(worst)}`,
        worst < 50 * MB,
      ),
    ],
    data: { megabytes, results },
  };
}

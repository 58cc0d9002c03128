/**
 * Stream decoding throughput at 20 000 chunks: the client's decoder and `chatStream` against bare
 * eventsource-parser + JSON.parse over the same bytes. Runs on the build:
 * `pnpm --filter @infergate/core bench` (builds first). Target: ≥ 50% of the bare throughput.
 */
import { createParser } from 'eventsource-parser';
import { createGatewayClient } from '../dist/index.js';
import { ChatStreamDecoder } from '../dist/internal-stream.js';

const CHUNKS = 20_000;
const RUNS = 25;

function buildStream() {
  const chunk = (choices, extra = {}) =>
    JSON.stringify({
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'community/general',
      choices,
      ...extra,
    });
  const events = [
    chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]),
  ];
  for (let i = 0; i < CHUNKS; i++)
    events.push(chunk([{ index: 0, delta: { content: `tok${i} ` }, finish_reason: null }]));
  events.push(chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]));
  events.push(
    chunk([], { usage: { prompt_tokens: 1, completion_tokens: CHUNKS, total_tokens: CHUNKS + 1 } }),
  );
  events.push('[DONE]');
  const bytes = new TextEncoder().encode(events.map((data) => `data: ${data}\n\n`).join(''));
  const pieces = [];
  for (let i = 0; i < bytes.length; i += 16_384) pieces.push(bytes.subarray(i, i + 16_384));
  return pieces;
}

const pieces = buildStream();
const body = () =>
  new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(piece);
      controller.close();
    },
  });

function bareInMemory() {
  const text = new TextDecoder();
  const parser = createParser({ onEvent: (e) => e.data !== '[DONE]' && JSON.parse(e.data) });
  for (const piece of pieces) parser.feed(text.decode(piece, { stream: true }));
}

function decoderInMemory() {
  const text = new TextDecoder();
  const decoder = new ChatStreamDecoder();
  for (const piece of pieces) {
    decoder.feed(text.decode(piece, { stream: true }));
    while (decoder.take() !== undefined);
  }
  decoder.end();
}

async function bareFromBody() {
  const reader = new Response(body()).body.getReader();
  const text = new TextDecoder();
  const parser = createParser({ onEvent: (e) => e.data !== '[DONE]' && JSON.parse(e.data) });
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(text.decode(value, { stream: true }));
  }
}

// Core gates every chat call against the catalog: the stub answers `GET /models` too (read once,
// then cached, as in an app), and every other request with the stream.
const catalog = {
  object: 'list',
  data: [
    {
      id: 'm',
      object: 'model',
      owned_by: 'bench',
      kind: 'chat',
      capabilities: ['chat', 'streaming'],
    },
  ],
};
const client = createGatewayClient({
  baseURL: 'https://bench.test/v1',
  apiKey: 'bench',
  fetch: async (input) =>
    String(input).endsWith('/models')
      ? Response.json(catalog)
      : new Response(body(), { headers: { 'content-type': 'text/event-stream' } }),
});

async function clientStream() {
  const stream = await client.chatStream({
    model: 'm',
    messages: [{ role: 'user', content: 'x' }],
  });
  for await (const _event of stream);
}

async function median(fn) {
  for (let i = 0; i < 5; i++) await fn();
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const rows = [];
for (const [label, bare, ours] of [
  ['in memory: ChatStreamDecoder vs bare parser+JSON.parse', bareInMemory, decoderInMemory],
  [
    'from a Response body: client.chatStream + for await vs bare reader+parser+JSON.parse',
    bareFromBody,
    clientStream,
  ],
]) {
  const bareMs = await median(bare);
  const oursMs = await median(ours);
  rows.push({
    comparison: label,
    bareMs: bareMs.toFixed(2),
    oursMs: oursMs.toFixed(2),
    throughput: `${((bareMs / oursMs) * 100).toFixed(0)}%`,
  });
}
console.log(`${CHUNKS} chunks, median of ${RUNS} runs`);
console.table(rows);

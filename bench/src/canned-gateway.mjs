/**
 * Canned gateway answers: a `fetch` that returns prebuilt responses without looking at the request,
 * so that a timing is the client's own cost. The bytes match what the emulator sends.
 */

export const CANNED_BASE_URL = 'http://canned.test/v1';
export const CANNED_KEY = 'ig-canned-0000';
export const CHAT_MODEL = 'community/general';

const MODELS = JSON.stringify({
  object: 'list',
  data: [
    {
      id: CHAT_MODEL,
      object: 'model',
      created: 1735689600,
      owned_by: 'service-community',
      name: 'General',
      kind: 'chat',
      capabilities: ['chat', 'streaming', 'tools', 'json_object', 'json_schema'],
      available_nodes: 1,
      capacity: 64,
      inflight: 0,
    },
  ],
});

const CHAT = JSON.stringify({
  id: 'chatcmpl-emu-000001',
  object: 'chat.completion',
  created: 1735689600,
  model: CHAT_MODEL,
  choices: [
    {
      index: 0,
      message: { role: 'assistant', content: 'Echo: Say hello in one short sentence.' },
      finish_reason: 'stop',
    },
  ],
  usage: { prompt_tokens: 6, completion_tokens: 7, total_tokens: 13 },
});

const JSON_HEADERS = { 'content-type': 'application/json', 'x-service-model': CHAT_MODEL };
const SSE_HEADERS = { 'content-type': 'text/event-stream', 'x-service-model': CHAT_MODEL };

/** One SSE chunk's JSON, shaped like the emulator's. */
export function chunkJson(choices, extra) {
  return JSON.stringify({
    id: 'chatcmpl-emu-000001',
    object: 'chat.completion.chunk',
    created: 1735689600,
    model: CHAT_MODEL,
    choices,
    ...extra,
  });
}

export function contentEvent(i) {
  return `data: ${chunkJson([{ index: 0, delta: { content: `tok${i} ` }, finish_reason: null }])}\n\n`;
}

export const STREAM_HEAD = `data: ${chunkJson([{ index: 0, delta: { role: 'assistant' }, finish_reason: null }])}\n\n`;

export function streamTail(count) {
  return (
    `data: ${chunkJson([{ index: 0, delta: {}, finish_reason: 'stop' }])}\n\n` +
    `data: ${chunkJson([], { usage: { prompt_tokens: 1, completion_tokens: count, total_tokens: count + 1 } })}\n\n` +
    'data: [DONE]\n\n'
  );
}

/** A whole SSE stream of `count` content chunks, cut into 16 KB pieces (as the emulator writes). */
export function ssePieces(count) {
  let text = STREAM_HEAD;
  for (let i = 0; i < count; i++) text += contentEvent(i);
  text += streamTail(count);
  const bytes = new TextEncoder().encode(text);
  const pieces = [];
  for (let i = 0; i < bytes.length; i += 16_384) pieces.push(bytes.subarray(i, i + 16_384));
  return pieces;
}

export function streamOf(pieces) {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i < pieces.length) controller.enqueue(pieces[i++]);
      else controller.close();
    },
  });
}

function urlOf(input) {
  if (typeof input === 'string') return input;
  if (input instanceof URL) return input.href;
  return input.url;
}

/**
 * A fetch answering `GET /models` with one model and every chat request with the canned JSON
 * answer, or — when `pieces` is given — with that SSE stream.
 */
export function cannedFetch(pieces) {
  return async (input) => {
    const url = urlOf(input);
    if (url.endsWith('/models')) return new Response(MODELS, { headers: JSON_HEADERS });
    if (pieces) return new Response(streamOf(pieces), { headers: SSE_HEADERS });
    return new Response(CHAT, { headers: JSON_HEADERS });
  };
}

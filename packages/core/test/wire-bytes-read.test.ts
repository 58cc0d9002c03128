import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../src/index';
import { caught, hi } from './helpers';

// Bytes a hostile-wire review served (rv-wire): what core reads of them, whole and streamed. The
// emulator serves the catalog; a stub answers the one path with the canned bytes.
const MODEL = 'community/general';

interface Canned {
  status?: number;
  headers?: Record<string, string>;
  body: string;
}

async function answering(path: string, canned: Canned) {
  const gateway = await emulate();
  const { fetch: gatewayFetch } = gateway.connection;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    if (!String(input).endsWith(path)) return gatewayFetch(input, init);
    return new Response(canned.body, {
      status: canned.status ?? 200,
      headers: canned.headers ?? { 'content-type': 'text/event-stream' },
    });
  };
  return createGatewayClient({ ...gateway.connection, retryBaseDelayMs: 0, maxRetries: 0, fetch });
}

const chat = (canned: Canned) => answering('/chat/completions', canned);
const JSON_TYPE = { 'content-type': 'application/json' };

const sse = (...chunks: object[]) =>
  `${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('')}data: [DONE]\n\n`;
const chunk = (delta: object, finish: string | null = null, extra: object = {}) => ({
  id: 'c1',
  model: MODEL,
  created: 1,
  choices: [{ index: 0, delta, finish_reason: finish }],
  ...extra,
});
const completion = (message: object, extra: object = {}) =>
  JSON.stringify({
    id: 'c1',
    object: 'chat.completion',
    model: MODEL,
    created: 1,
    choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: 'stop' }],
    ...extra,
  });

async function streamed(client: ReturnType<typeof createGatewayClient>, rawChunks?: boolean) {
  const stream = await client.chatStream(hi(MODEL), rawChunks === undefined ? {} : { rawChunks });
  const events = [];
  for await (const event of stream) events.push(event);
  return { events, result: await stream.result() };
}

describe('raw chunks of a stream (rawChunks)', () => {
  const first = chunk({ role: 'assistant', content: 'Kyiv [1]' }, null, {
    citations: ['https://example.test/kyiv'],
  });
  const last = chunk({}, 'stop', { x_groq: { id: 'req_1' } });

  it('gives each SSE event’s JSON as sent, before the events decoded from it', async () => {
    const client = await chat({ body: sse(first, last) });
    const { events } = await streamed(client, true);
    expect(events.filter((event) => event.type === 'raw')).toEqual([
      { type: 'raw', chunk: first },
      { type: 'raw', chunk: last },
    ]);
    expect(events[0]).toEqual({ type: 'raw', chunk: first });
  });

  it('gives none unless asked', async () => {
    const client = await chat({ body: sse(first, last) });
    for (const asked of [undefined, false]) {
      const { events } = await streamed(client, asked);
      expect(events.some((event) => event.type === 'raw')).toBe(false);
    }
  });

  it('is a boolean option of chatStream', async () => {
    const client = await chat({ body: sse(first, last) });
    const refused = await caught(() =>
      client.chatStream(hi(MODEL), { rawChunks: 'yes' as unknown as boolean }),
    );
    expect(refused.message).toMatch(/rawChunks/);
  });
});

describe('a content part of a type core does not know, with a string text', () => {
  const parts = [{ type: 'output_text', text: 'Hello' }, { type: 'image_url' }];

  it('is text in a whole answer', async () => {
    const client = await chat({ headers: JSON_TYPE, body: completion({ content: parts }) });
    expect((await client.chat(hi(MODEL))).answer.text).toBe('Hello');
  });

  it('is text in a stream; a reasoning part stays reasoning', async () => {
    const reasoning = { type: 'reasoning', text: 'think' };
    const client = await chat({ body: sse(chunk({ content: [reasoning, ...parts] }, 'stop')) });
    const { result } = await streamed(client);
    expect([result.text, result.reasoning]).toEqual(['Hello', 'think']);
  });
});

describe('a 200 labelled a stream whose body is a JSON error', () => {
  const body = JSON.stringify({
    error: { code: 'model_busy', message: 'model is busy, retry in 5s' },
  });

  it('keeps its code, status, Retry-After and body, as when labelled JSON', async () => {
    for (const type of ['text/event-stream', 'text/event-stream; charset=utf-8', '']) {
      const headers: Record<string, string> = { 'retry-after': '5' };
      if (type !== '') headers['content-type'] = type;
      const client = await chat({ headers, body });
      const error = await caught(() => client.chatStream(hi(MODEL)));
      expect([error.code, error.status, error.retryAfterMs, error.body]).toEqual([
        'model_busy',
        200,
        5000,
        body,
      ]);
    }
  });

  it("Google's one-item list of one is read too", async () => {
    const list = JSON.stringify([{ error: { code: 429, message: 'Quota', status: 'EXHAUSTED' } }]);
    const client = await chat({ body: list });
    const error = await caught(() => client.chatStream(hi(MODEL)));
    // (Its numeric code 429 read as that status's: `model_busy`.)
    expect([error.code, error.status, error.message, error.body]).toEqual([
      'model_busy',
      200,
      'Quota',
      list,
    ]);
  });

  it('JSON that reports no failure is invalid_response naming what came', async () => {
    const client = await chat({ body: completion({ content: 'hi' }) });
    const error = await caught(() => client.chatStream(hi(MODEL)));
    expect(error.code).toBe('invalid_response');
    expect(error.message).toMatch(/JSON labelled text\/event-stream/);
  });
});

describe('a 200 whole answer that is not JSON', () => {
  it('names what came: an HTML page, an event stream', async () => {
    const html = await chat({
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: '<html><body>Sign in</body></html>',
    });
    const page = await caught(() => html.chat(hi(MODEL)));
    expect([page.code, page.message]).toEqual([
      'invalid_response',
      "The gateway's /chat/completions answer is not valid JSON: an HTML page (text/html; charset=utf-8)",
    ]);
    const stream = await chat({ body: sse(chunk({ content: 'hi' }, 'stop')) });
    expect((await caught(() => stream.chat(hi(MODEL)))).message).toMatch(
      /not valid JSON: an event stream \(text\/event-stream\)$/,
    );
    const broken = await chat({ headers: JSON_TYPE, body: '{"id": ' });
    expect((await caught(() => broken.chat(hi(MODEL)))).message).toBe(
      "The gateway's /chat/completions answer is not valid JSON (application/json)",
    );
  });
});

describe("TGI's string error on an HTTP error status", () => {
  it('is read as its words and type, as in a stream event', async () => {
    const words = 'Input validation error: `inputs` tokens + `max_new_tokens` must be <= 4096';
    const client = await chat({
      status: 422,
      headers: JSON_TYPE,
      body: JSON.stringify({ error: words, error_type: 'validation' }),
    });
    const error = await caught(() => client.chat(hi(MODEL)));
    expect([error.code, error.status, error.message, error.type]).toEqual([
      'upstream_error',
      422,
      words,
      'validation',
    ]);
  });
});

describe('usage counts of the wrong type', () => {
  const usage = { prompt_tokens: '5', completion_tokens: 6, total_tokens: 'eleven', extra: 'x' };
  const read = { prompt_tokens: 5, completion_tokens: 6, extra: 'x' };

  it('a whole number sent as text is that number; any other wrong type is left out', async () => {
    const client = await chat({
      headers: JSON_TYPE,
      body: completion({ content: 'hi' }, { usage }),
    });
    const result = await client.chat(hi(MODEL));
    expect(result.answer.usage).toEqual(read);
    expect(result.response.usage).toEqual(read);
  });

  it('the same in a stream', async () => {
    const client = await chat({
      body: sse(chunk({ content: 'hi' }, 'stop'), { choices: [], usage }),
    });
    const { events, result } = await streamed(client);
    expect(result.usage).toEqual(read);
    expect(events).toContainEqual({ type: 'usage', usage: read });
  });
});

describe('stream_incomplete after a 200', () => {
  it('has status 200, as the stream’s other failures', async () => {
    const client = await chat({ body: `data: ${JSON.stringify(chunk({ content: 'hi' }))}\n\n` });
    const error = await caught(() => streamed(client));
    expect([error.code, error.status]).toEqual(['stream_incomplete', 200]);
  });
});

describe('an OCR confidence outside 0..1', () => {
  // Liberal: the text is the answer the caller paid for; a confidence as a percentage, a string
  // or out of range is passed on as sent (MCP's output conforms it; a caller reads it as it is).
  it.each([7, -0.1, '0.5', 98])('%s keeps the answer', async (confidence) => {
    const client = await answering('/ocr', {
      headers: JSON_TYPE,
      body: JSON.stringify({ text: 'Привіт', confidence }),
    });
    const answer = await client.ocr({ image: new Uint8Array([1, 2, 3]) });
    expect([answer.text, answer.confidence]).toEqual(['Привіт', confidence]);
  });
});

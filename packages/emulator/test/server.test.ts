import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wavWithSpeech } from '../src/fixtures';
import { DEFAULT_KEYS, type RunningEmulator, startEmulator } from '../src/index';
import { untilHeld } from '../src/testing/index';
import { errorBodyOf, type Json, parseSse, userChat } from './helpers';

let server: RunningEmulator;

beforeAll(async () => {
  server = await startEmulator({ port: 0 });
});
afterAll(async () => {
  await server.close();
});

function send(path: string, init: RequestInit & { key?: string | null } = {}) {
  const headers = new Headers(init.headers);
  const key = init.key === undefined ? server.apiKey : init.key;
  if (key !== null) headers.set('authorization', `Bearer ${key}`);
  if (typeof init.body === 'string') headers.set('content-type', 'application/json');
  return fetch(`${server.url}${path}`, { ...init, headers });
}

function postJson(path: string, body: unknown, headers: Record<string, string> = {}) {
  return send(path, { method: 'POST', body: JSON.stringify(body), headers });
}

/** Raw HTTP: resolves with what arrived before the socket ended or failed. */
function rawPost(path: string, body: unknown, headers: Record<string, string>) {
  return new Promise<{ status?: number; text: string; error?: Error }>((resolve) => {
    const url = new URL(`${server.url}${path}`);
    let status: number | undefined;
    let text = '';
    const req = httpRequest(
      url,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${server.apiKey}`,
          'content-type': 'application/json',
          ...headers,
        },
      },
      (res) => {
        status = res.statusCode;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status, text }));
        res.on('error', (error) => resolve({ status, text, error }));
      },
    );
    req.on('error', (error) => resolve({ status, text, error }));
    req.end(JSON.stringify(body));
  });
}

describe('startEmulator', () => {
  it('listens on loopback with a /v1 base URL and the full key', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(server.apiKey).toBe(DEFAULT_KEYS.full);
    expect(server.emulator.scenario.models['community/general']).toBeDefined();
  });

  // A server timeout, however long, let a loaded machine's retry die unread on a connection the
  // server was closing (undici's keep-alive clock, a fixed step per timer tick, falls behind the
  // server's wall clock when the event loop is busy): only the client closes an idle connection.
  it('never closes an idle keep-alive connection itself, and gives no timeout hint', async () => {
    const response = await send('/models');
    await response.body?.cancel();
    expect(response.headers.get('connection')).toBe('keep-alive');
    expect(response.headers.get('keep-alive')).toBeNull();
  });

  it('answers /models and refuses a bad key, like the fetch handler', async () => {
    const models = (await (await send('/models')).json()) as Json;
    expect(models.data.length).toBeGreaterThan(20);
    expect(await errorBodyOf(await send('/models', { key: 'nope' }))).toMatchObject({
      status: 401,
      code: 'invalid_api_key',
    });
  });

  it('answers a chat completion with X-Service-Model', async () => {
    const response = await postJson('/chat/completions', userChat('my/laptop-model', 'over http'));
    expect(response.headers.get('x-service-model')).toBe('pool-a/llama-3-8b');
    expect(((await response.json()) as Json).choices[0].message.content).toBe('Echo: over http');
  });

  it('streams SSE with the exact event framing', async () => {
    const response = await postJson(
      '/chat/completions',
      userChat('community/streamer', 'a b', { stream: true }),
    );
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const text = await response.text();
    expect(text.endsWith('\n\ndata: [DONE]\n\n')).toBe(true);
    const events = parseSse(text) as Json[];
    expect(events[0].choices[0].delta).toEqual({ role: 'assistant' });
    expect(
      events.filter((e) => e?.choices?.[0]?.delta?.content).map((e) => e.choices[0].delta.content),
    ).toEqual(['Echo: ', 'a ', 'b']);
  });

  it('streams 20 000 chunks', async () => {
    const response = await postJson(
      '/chat/completions',
      userChat('community/streamer', '[[chunks:20000]]', { stream: true }),
    );
    const text = await response.text();
    expect(text.split('"content":"tok').length - 1).toBe(20000);
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it('accepts multipart transcriptions', async () => {
    const form = new FormData();
    form.set('file', new Blob([wavWithSpeech('over the wire', { seconds: 0.5 })]), 'a.wav');
    const response = await send('/audio/transcriptions', { method: 'POST', body: form });
    expect(await response.json()).toEqual({ text: 'over the wire', language: 'en', duration: 0.5 });
  });

  it.each([
    [
      '/embeddings',
      { model: 'all-minilm-l6-v2', input: ['a', 'b'] },
      (b: Json) => b.data.length === 2,
    ],
    ['/translations', { input: 'hi', target_language: 'de' }, (b: Json) => b.text === '[de] hi'],
    [
      '/ocr',
      { image_base64: Buffer.from('TEXT:scan').toString('base64') },
      (b: Json) => b.text === 'scan',
    ],
    [
      '/audio/transcriptions',
      { audio_base64: Buffer.from(wavWithSpeech('json', { seconds: 0.5 })).toString('base64') },
      (b: Json) => b.text === 'json',
    ],
  ])('answers POST %s', async (path, body, check) => {
    const response = await postJson(path, body);
    expect(response.status).toBe(200);
    expect(check(await response.json())).toBe(true);
  });

  it.each([
    ['rate_limit', 429, 'application/json'],
    ['upstream_html', 502, 'text/html; charset=utf-8'],
    ['upstream_text', 500, 'text/plain; charset=utf-8'],
    ['upstream_json', 400, 'application/json'],
    ['slow_headers; ms=20', 200, 'application/json'],
  ])('applies the %s fault', async (fault, status, type) => {
    const response = await postJson('/chat/completions', userChat('community/general', 'x'), {
      'x-emulator-fault': fault,
    });
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe(type);
    if (status === 429) expect(response.headers.get('retry-after')).toBe('1');
    await response.arrayBuffer();
  });

  it('sends a truncated JSON body for truncated_json', async () => {
    const response = await postJson('/chat/completions', userChat('community/general', 'x'), {
      'x-emulator-fault': 'truncated_json',
    });
    expect(response.status).toBe(200);
    await expect(response.json()).rejects.toThrow();
  });

  it('sends the mid-stream error event of stream_error', async () => {
    const response = await postJson(
      '/chat/completions',
      userChat('community/general', 'x', { stream: true }),
      {
        'x-emulator-fault': 'stream_error',
      },
    );
    const events = parseSse(await response.text()) as Json[];
    expect(events.at(-2).error.code).toBe('provider_request_failed');
    expect(events.at(-1)).toBe('[DONE]');
  });

  it('enforces 4 requests at once per key with 429 and Retry-After', async () => {
    // The fifth is sent once the emulator holds the first four (held until it is answered, not
    // slow: five sent at once over real HTTP did not always overlap on a loaded CI machine).
    const slow = await startEmulator({ port: 0 });
    const release = slow.emulator.holdAnswers('models');
    const get = () =>
      fetch(`${slow.url}/models`, { headers: { authorization: `Bearer ${slow.apiKey}` } });
    try {
      const firstFour = [1, 2, 3, 4].map(get);
      await untilHeld(slow.emulator, 4, { key: slow.apiKey });
      const fifth = await get();
      release();
      const responses = [...(await Promise.all(firstFour)), fifth];
      const statuses = responses.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 200, 200, 200, 429]);
      expect(responses.find((r) => r.status === 429)!.headers.get('retry-after')).toBe('1');
      expect(slow.emulator.counters.maxInflight[slow.apiKey]).toBe(4);
    } finally {
      await slow.close();
    }
  });

  it('releases a stream’s slot with [DONE]: a client reusing it at once is never refused', async () => {
    // A client that frees its slot when it reads [DONE] sends its next request right away; the
    // emulator must not still count the finished stream (streamChunkDelayMs used to add one more
    // delay after [DONE] before the stream closed). Streams of a few hundred ms, so that the four
    // overlap even on a loaded machine (25 ms between events did not always: 3 in flight at most).
    const paced = await startEmulator({ port: 0, scenario: { streamChunkDelayMs: 75 } });
    const decoder = new TextDecoder();
    /** Streams one answer; resolves at [DONE] with the status and the rest of the body's read. */
    async function streamToDone(): Promise<{ status: number; drained: Promise<void> }> {
      const response = await fetch(`${paced.url}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${paced.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(userChat('community/streamer', 'hi there', { stream: true })),
      });
      if (response.status !== 200) {
        await response.body?.cancel();
        return { status: response.status, drained: Promise.resolve() };
      }
      const reader = response.body!.getReader();
      let text = '';
      while (!text.includes('data: [DONE]\n\n')) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      const drain = async () => {
        while (!(await reader.read()).done);
      };
      return { status: response.status, drained: drain() };
    }
    try {
      const statuses: number[] = [];
      const drained: Promise<void>[] = [];
      let started = 0;
      const worker = async () => {
        while (started < 24) {
          started += 1;
          const result = await streamToDone();
          statuses.push(result.status);
          drained.push(result.drained);
        }
      };
      await Promise.all([worker(), worker(), worker(), worker()]);
      await Promise.all(drained);
      expect(statuses).toEqual(Array(24).fill(200));
      expect(paced.emulator.counters.concurrencyRejections).toBe(0);
      expect(paced.emulator.counters.maxInflight[paced.apiKey]).toBe(4);
    } finally {
      await paced.close();
    }
  });

  it('drop_connection closes the socket before any header: fetch rejects', async () => {
    const before = server.emulator.counters.requests.chat;
    await expect(
      postJson('/chat/completions', userChat('community/general', 'x'), {
        'x-emulator-fault': 'drop_connection',
      }),
    ).rejects.toBeInstanceOf(TypeError);
    expect(server.emulator.counters.requests.chat).toBe(before + 1);
  });

  it('stream_cut destroys the socket after afterChunks events, without [DONE]', async () => {
    const result = await rawPost(
      '/chat/completions',
      userChat('community/streamer', '[[words:9]]', { stream: true }),
      {
        'x-emulator-fault': 'stream_cut; afterChunks=2',
      },
    );
    expect(result.status).toBe(200);
    expect(result.error).toBeDefined();
    expect(parseSse(result.text)).toHaveLength(2);
    expect(result.text).not.toContain('[DONE]');
  });

  it('stream_cut makes a fetch body read fail', async () => {
    const response = await postJson(
      '/chat/completions',
      userChat('community/streamer', '[[words:9]]', { stream: true }),
      {
        'x-emulator-fault': 'stream_cut',
      },
    );
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
  });

  it('releases the in-flight slot when the client drops a stream', async () => {
    const key = server.apiKey;
    const slow = await startEmulator({ port: 0, scenario: { streamChunkDelayMs: 20 } });
    try {
      const controller = new AbortController();
      const response = await fetch(`${slow.url}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(userChat('community/streamer', '[[chunks:1000]]', { stream: true })),
        signal: controller.signal,
      });
      const reader = response.body!.getReader();
      await reader.read();
      expect(slow.emulator.counters.inflight[key]).toBe(1);
      controller.abort();
      await expect.poll(() => slow.emulator.counters.inflight[key], { timeout: 10_000 }).toBe(0);
    } finally {
      await slow.close();
    }
  });

  it('stall_first_chunk: the headers arrive, no byte follows, and an abort frees the slot', async () => {
    const key = server.apiKey;
    const controller = new AbortController();
    const response = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'x-emulator-fault': 'stall_first_chunk; ms=600000',
      },
      body: JSON.stringify(userChat('community/streamer', 'hi', { stream: true })),
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    expect(server.emulator.counters.inflight[key]).toBe(1);
    controller.abort();
    await expect.poll(() => server.emulator.counters.inflight[key], { timeout: 10_000 }).toBe(0);
  });

  it('a fetch aborted before its headers frees the slot when the server sees the close', async () => {
    // Issue 45.2: the slot is the server's until it learns of the disconnect; then it goes at once
    // (not when the 10-minute slow_headers wait would have ended).
    const key = server.apiKey;
    const controller = new AbortController();
    const pending = fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'x-emulator-fault': 'slow_headers; ms=600000',
      },
      body: JSON.stringify(userChat('community/general', 'hi')),
      signal: controller.signal,
    });
    await expect.poll(() => server.emulator.counters.inflight[key], { timeout: 10_000 }).toBe(1);
    controller.abort();
    await expect(pending).rejects.toThrow();
    await expect.poll(() => server.emulator.counters.inflight[key], { timeout: 10_000 }).toBe(0);
  });

  it('a body cancelled mid-stream frees the slot when the server sees the close', async () => {
    const key = server.apiKey;
    const response = await fetch(`${server.url}/chat/completions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'x-emulator-fault': 'stall_stream; afterChunks=2; ms=600000',
      },
      body: JSON.stringify(userChat('community/streamer', '[[words:9]]', { stream: true })),
    });
    const reader = response.body!.getReader();
    await reader.read();
    expect(server.emulator.counters.inflight[key]).toBe(1);
    await reader.cancel();
    await expect.poll(() => server.emulator.counters.inflight[key], { timeout: 10_000 }).toBe(0);
  });

  it('serves an emulator given to it, and close() is idempotent', async () => {
    const extra = await startEmulator({ emulator: server.emulator });
    expect(extra.emulator).toBe(server.emulator);
    await Promise.all([extra.close(), extra.close()]);
    await expect(fetch(`${extra.url}/models`)).rejects.toThrow();
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEmulator } from '../src/index';
import { chat, type Json, parseSse, userChat } from './helpers';

const weatherTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
    },
  },
};

describe('streamed chat completions', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2025-01-01T00:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends the exact bytes of section 6: role, content words, finish, [DONE]; no usage unasked', async () => {
    const response = await chat(
      createEmulator(),
      userChat('community/streamer', 'hi you', { stream: true }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('x-service-model')).toBe('community/streamer');
    const head =
      'data: {"id":"chatcmpl-emu-000001","object":"chat.completion.chunk","created":1735689600,"model":"community/streamer","choices":[';
    expect(await response.text()).toBe(
      `${head}{"index":0,"delta":{"role":"assistant"},"finish_reason":null}]}\n\n` +
        `${head}{"index":0,"delta":{"content":"Echo: "},"finish_reason":null}]}\n\n` +
        `${head}{"index":0,"delta":{"content":"hi "},"finish_reason":null}]}\n\n` +
        `${head}{"index":0,"delta":{"content":"you"},"finish_reason":null}]}\n\n` +
        `${head}{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n` +
        'data: [DONE]\n\n',
    );
  });

  it('asked with stream_options.include_usage, carries the usage in the finish chunk, the last before [DONE] (spec 6.1)', async () => {
    const response = await chat(
      createEmulator(),
      userChat('community/streamer', 'hi you', {
        stream: true,
        stream_options: { include_usage: true },
      }),
    );
    const head =
      'data: {"id":"chatcmpl-emu-000001","object":"chat.completion.chunk","created":1735689600,"model":"community/streamer","choices":[';
    expect(
      (await response.text()).endsWith(
        `${head}{"index":0,"delta":{"content":"you"},"finish_reason":null}]}\n\n` +
          `${head}{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":2,"completion_tokens":3,"total_tokens":5}}\n\n` +
          'data: [DONE]\n\n',
      ),
    ).toBe(true);
  });

  it('sends no usage for include_usage other than true', async () => {
    for (const streamOptions of [{ include_usage: false }, { include_usage: 'yes' }, true]) {
      const response = await chat(
        createEmulator(),
        userChat('community/streamer', 'hi', { stream: true, stream_options: streamOptions }),
      );
      expect(await response.text()).not.toContain('"usage"');
    }
  });

  it('keeps the OpenAI order (finish chunk, then a usage-only chunk) as the openai dialect', async () => {
    const response = await chat(
      createEmulator({ models: { 'community/streamer': { dialect: 'openai' } } }),
      userChat('community/streamer', 'hi you', {
        stream: true,
        stream_options: { include_usage: true },
      }),
    );
    const head =
      'data: {"id":"chatcmpl-emu-000001","object":"chat.completion.chunk","created":1735689600,"model":"community/streamer","system_fingerprint":"fp_emu","choices":[';
    expect(
      (await response.text()).endsWith(
        `${head}{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n` +
          `${head}],"usage":{"prompt_tokens":2,"completion_tokens":3,"total_tokens":5}}\n\n` +
          'data: [DONE]\n\n',
      ),
    ).toBe(true);
  });

  it('streams tool calls in pieces joined by index: id and name first, then argument fragments', async () => {
    const response = await chat(
      createEmulator(),
      userChat('community/tools', 'get_weather for "Rome"', { stream: true, tools: [weatherTool] }),
    );
    const events = parseSse(await response.text()) as Json[];
    expect(events.at(-1)).toBe('[DONE]');
    const pieces = events
      .filter((e) => typeof e === 'object' && e.choices?.[0]?.delta?.tool_calls)
      .map((e) => e.choices[0].delta.tool_calls[0]);
    expect(pieces.length).toBeGreaterThanOrEqual(3);
    expect(pieces[0]).toMatchObject({
      index: 0,
      type: 'function',
      function: { name: 'get_weather', arguments: '' },
    });
    expect(pieces[0].id).toMatch(/^call_/);
    for (const piece of pieces.slice(1)) {
      expect(Object.keys(piece).sort()).toEqual(['function', 'index']);
      expect(Object.keys(piece.function)).toEqual(['arguments']);
    }
    const joined = pieces.map((p) => p.function.arguments).join('');
    expect(JSON.parse(joined)).toEqual({ city: 'Rome' });
    const finish = events.find((e) => typeof e === 'object' && e.choices?.[0]?.finish_reason);
    expect(finish.choices[0]).toEqual({ index: 0, delta: {}, finish_reason: 'tool_calls' });
  });

  it('streams two tool calls with indexes 0 and 1', async () => {
    const timeTool = {
      type: 'function',
      function: { name: 'get_time', parameters: { type: 'object' } },
    };
    const response = await chat(
      createEmulator(),
      userChat('community/general', 'get_weather and get_time', {
        stream: true,
        tools: [weatherTool, timeTool],
      }),
    );
    const events = parseSse(await response.text()) as Json[];
    const starts = events
      .filter((e) => typeof e === 'object' && e.choices?.[0]?.delta?.tool_calls?.[0]?.id)
      .map((e) => e.choices[0].delta.tool_calls[0]);
    expect(starts.map((s) => [s.index, s.function.name])).toEqual([
      [0, 'get_weather'],
      [1, 'get_time'],
    ]);
  });

  it('names the fallback model in the header and in every chunk', async () => {
    const response = await chat(
      createEmulator(),
      userChat('my/laptop-model', 'hi', { stream: true }),
    );
    expect(response.headers.get('x-service-model')).toBe('pool-a/llama-3-8b');
    const events = parseSse(await response.text()) as Json[];
    for (const event of events.slice(0, -1)) expect(event.model).toBe('pool-a/llama-3-8b');
  });

  it('streams JSON-mode content that joins into valid JSON', async () => {
    const response = await chat(
      createEmulator(),
      userChat('community/json-object', 'a b c', {
        stream: true,
        response_format: { type: 'json_object' },
      }),
    );
    const events = parseSse(await response.text()) as Json[];
    const text = events
      .filter((e) => typeof e === 'object' && e.choices?.[0]?.delta?.content !== undefined)
      .map((e) => e.choices[0].delta.content)
      .join('');
    expect(JSON.parse(text)).toEqual({ answer: 'Echo: a b c' });
  });

  it('streams 20 000 chunks lazily and completely', async () => {
    const response = await chat(
      createEmulator(),
      userChat('community/streamer', '[[chunks:20000]]', {
        stream: true,
        stream_options: { include_usage: true },
      }),
    );
    const text = await response.text();
    const events = parseSse(text) as Json[];
    const contents = events.filter(
      (e) => typeof e === 'object' && e.choices?.[0]?.delta?.content !== undefined,
    );
    expect(contents).toHaveLength(20000);
    expect(contents[19999].choices[0].delta.content).toBe('tok19999 ');
    expect(events.at(-2).usage.completion_tokens).toBe(20000);
    expect(events.at(-2).choices[0].finish_reason).toBe('stop');
  });

  it('counts a stream in flight until its last byte, and releases it on cancel', async () => {
    const emulator = createEmulator();
    const key = 'ig-emu-full-0000';
    const read = await chat(emulator, userChat('community/streamer', 'hi', { stream: true }));
    const cancelled = await chat(emulator, userChat('community/streamer', 'hi', { stream: true }));
    expect(emulator.counters.inflight[key]).toBe(2);
    await read.text();
    expect(emulator.counters.inflight[key]).toBe(1);
    await cancelled.body!.cancel();
    expect(emulator.counters.inflight[key]).toBe(0);
    expect(emulator.counters.maxInflight[key]).toBe(2);
  });

  it('releases a paced stream’s slot by the time its [DONE] is read', async () => {
    const emulator = createEmulator({ streamChunkDelayMs: 1 });
    const key = 'ig-emu-full-0000';
    const response = await chat(emulator, userChat('community/streamer', 'a b', { stream: true }));
    const reader = response.body!.getReader();
    let text = '';
    while (!text.includes('data: [DONE]')) {
      const { done, value } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    expect(emulator.counters.inflight[key]).toBe(0);
    expect((await reader.read()).done).toBe(true);
  });

  it('releases a stream whose request is aborted', async () => {
    const emulator = createEmulator();
    const controller = new AbortController();
    const response = await chat(emulator, userChat('community/streamer', 'hi', { stream: true }), {
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    controller.abort();
    expect(emulator.counters.inflight['ig-emu-full-0000']).toBe(0);
  });
});

describe('stream timing', () => {
  it('ends a stream past the deadline with a request_timeout event and [DONE]', async () => {
    const emulator = createEmulator({ streamChunkDelayMs: 30, requestTimeoutMs: 100 });
    const response = await chat(
      emulator,
      userChat('community/streamer', '[[chunks:50]]', { stream: true }),
    );
    expect(response.status).toBe(200);
    const events = parseSse(await response.text()) as Json[];
    expect(events.at(-1)).toBe('[DONE]');
    expect(events.at(-2)).toEqual({
      error: { code: 'request_timeout', message: 'The request exceeded its time limit' },
    });
    expect(events.some((e) => typeof e === 'object' && e.choices?.[0]?.finish_reason)).toBe(false);
  });

  it('paces events by streamChunkDelayMs', async () => {
    vi.useFakeTimers();
    try {
      const emulator = createEmulator({ streamChunkDelayMs: 1000 });
      const response = await chat(
        emulator,
        userChat('community/streamer', 'a b', { stream: true }),
      );
      const reader = response.body!.getReader();
      await reader.read(); // role, sent at once
      let second: ReadableStreamReadResult<Uint8Array> | undefined;
      const pending = reader.read().then((r) => {
        second = r;
      });
      await vi.advanceTimersByTimeAsync(999);
      expect(second).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      await pending;
      expect(new TextDecoder().decode(second!.value)).toContain('"content":"Echo: "');
      await reader.cancel();
    } finally {
      vi.useRealTimers();
    }
  });
});

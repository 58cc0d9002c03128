import { APICallError } from '@ai-sdk/provider';
import { DEFAULT_KEYS } from '@infergate/emulator';
import { emulate } from '@infergate/emulator/testing';
import { stepCountIs, streamText, type TextStreamPart, type ToolSet, tool } from 'ai';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BASE_URL, providersOn } from '../../test/providers';
import { WEATHER_TOOL } from '../../test/weather-tool';

const emulated = await emulate({ as: 'msw', baseURL: BASE_URL, hooks: { afterEach, afterAll } });
const { emulator } = emulated;
const { gateway } = providersOn(emulated);

const weather = tool(WEATHER_TOOL);

async function parts<T extends ToolSet>(stream: AsyncIterable<TextStreamPart<T>>) {
  const seen: TextStreamPart<T>[] = [];
  for await (const part of stream) seen.push(part);
  return seen;
}

describe('streamText through the gateway', () => {
  it('a streamed refusal (delta.refusal) with finish_reason stop: content-filter, raw stop as sent, as @ai-sdk/openai-compatible gives', async () => {
    const chunk = (delta: object, finish: string | null) =>
      `data: ${JSON.stringify({ id: 'r', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const refusing: typeof fetch = async (input, init) => {
      if (!new Request(input, init).url.endsWith('/chat/completions')) return fetch(input, init);
      const body = `${chunk({ role: 'assistant', refusal: "I can't " }, null)}${chunk({ refusal: 'help.' }, 'stop')}data: [DONE]\n\n`;
      return new Response(body, {
        headers: { 'content-type': 'text/event-stream', 'x-service-model': 'community/streamer' },
      });
    };
    const result = streamText({
      model: gateway({ fetch: refusing })('community/streamer'),
      prompt: 'hello there',
    });
    expect(await result.text).toBe("I can't help.");
    expect(await result.finishReason).toBe('content-filter');
    expect(await result.rawFinishReason).toBe('stop');
  });

  it('streams text and reports the answering model and usage', async () => {
    const result = streamText({ model: gateway()('community/streamer'), prompt: 'hello there' });
    let text = '';
    for await (const delta of result.textStream) text += delta;
    expect(text).toBe('Echo: hello there');
    expect(await result.finishReason).toBe('stop');
    expect((await result.usage).outputTokens).toBe(3);
    expect((await result.response).modelId).toBe('community/streamer');
    expect((await result.providerMetadata)?.infergate).toMatchObject({
      requestedModel: 'community/streamer',
      servedModel: 'community/streamer',
      fallback: false,
    });
  });

  it('reports the fallback model from the headers at stream start', async () => {
    const result = streamText({ model: gateway()('my/laptop-model'), prompt: 'hi' });
    await result.consumeStream();
    expect((await result.response).modelId).toBe('pool-a/llama-3-8b');
    expect((await result.providerMetadata)?.infergate).toMatchObject({ fallback: true });
  });

  it('gives the response headers (x-service-model) from doStream and streamText', async () => {
    const model = gateway()('my/laptop-model');
    const direct = await model.doStream({
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    });
    expect(direct.response?.headers?.['x-service-model']).toBe('pool-a/llama-3-8b');
    await direct.stream.cancel();
    const result = streamText({ model, prompt: 'hi' });
    await result.consumeStream();
    expect((await result.response).headers?.['x-service-model']).toBe('pool-a/llama-3-8b');
  });

  it('streams tool input and emits the tool call once complete, then runs the loop', async () => {
    const result = streamText({
      model: gateway()('community/tools'),
      tools: { weather },
      stopWhen: stepCountIs(3),
      prompt: 'Use weather for "Lviv"',
    });
    const seen = await parts(result.fullStream);
    const types = seen.map((part) => part.type);
    const firstDelta = types.indexOf('tool-input-delta');
    const call = types.indexOf('tool-call');
    expect(types.indexOf('tool-input-start')).toBeGreaterThanOrEqual(0);
    expect(firstDelta).toBeGreaterThan(types.indexOf('tool-input-start'));
    expect(call).toBeGreaterThan(types.lastIndexOf('tool-input-delta'));
    expect(seen[call]).toMatchObject({ toolName: 'weather', input: { city: 'Lviv' } });
    expect(seen).toContainEqual(
      expect.objectContaining({ type: 'tool-result', output: { city: 'Lviv', celsius: 21 } }),
    );
    expect(await result.text).toBe('Tool weather returned: {"city":"Lviv","celsius":21}');
    expect(emulator.counters.requests.chat).toBe(2);
  });

  it('works with toUIMessageStreamResponse()', async () => {
    const result = streamText({ model: gateway()('community/general'), prompt: 'for the UI' });
    const response = result.toUIMessageStreamResponse();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const body = await response.text();
    expect(body).toContain('"type":"text-delta"');
    expect(body).toContain('Echo');
    expect(body).toContain('"type":"finish"');
  });

  it('reports warnings at stream start', async () => {
    const result = streamText({ model: gateway()('community/general'), prompt: 'x', topK: 5 });
    await result.consumeStream();
    expect(await result.warnings).toContainEqual(
      expect.objectContaining({ type: 'unsupported', feature: 'topK' }),
    );
  });

  it('emits raw parts when includeRawChunks is set', async () => {
    const result = streamText({
      model: gateway()('community/general'),
      prompt: 'x',
      includeRawChunks: true,
    });
    const seen = await parts(result.fullStream);
    expect(seen.some((part) => part.type === 'raw')).toBe(true);
  });
});

describe('stream failures are never a silent success', () => {
  it.each([
    ['stream_error', 'provider_request_failed'],
    ['malformed_event', undefined],
    ['no_finish', 'stream_incomplete'],
    ['stream_cut', undefined],
  ])('%s → an error part and finish reason error', async (fault, code) => {
    const result = streamText({
      model: gateway()('community/general'),
      prompt: 'tell me [[words:20]]',
      headers: { 'X-Emulator-Fault': fault },
      onError: () => {},
    });
    const seen = await parts(result.fullStream);
    const error = seen.find((part) => part.type === 'error');
    expect(error).toBeDefined();
    const cause = (error as { error: unknown }).error;
    expect(APICallError.isInstance(cause)).toBe(true);
    if (code !== undefined) expect((cause as APICallError).data).toMatchObject({ code });
    expect(seen.find((part) => part.type === 'finish-step')).toMatchObject({
      finishReason: 'error',
    });
    expect(await result.finishReason).toBe('error');
  });
});

describe('a stream failing in the middle of a tool call', () => {
  it.each(['stream_error', 'malformed_event', 'stream_cut'])(
    '%s: the started tool input is ended before the error part, and no tool call is made',
    async (fault) => {
      const result = streamText({
        model: gateway()('community/tools'),
        tools: { weather },
        prompt: 'Use weather for "Lviv"',
        headers: { 'X-Emulator-Fault': `${fault}; afterChunks=3` },
        onError: () => {},
      });
      const types = (await parts(result.fullStream)).map((part) => part.type);
      expect(types).toContain('tool-input-start');
      expect(types).not.toContain('tool-call');
      expect(types.indexOf('tool-input-end')).toBeGreaterThan(
        types.lastIndexOf('tool-input-delta'),
      );
      expect(types.indexOf('tool-input-end')).toBeLessThan(types.indexOf('error'));
    },
  );
});

describe('after a mid-stream failure, result.text resolves (the AI SDK design, documented)', () => {
  it.each([
    ['stream_error', 'provider_request_failed'],
    ['malformed_event', 'provider_protocol_error'],
    ['no_finish', 'stream_incomplete'],
    ['stream_cut', 'stream_incomplete'],
  ])(
    '%s: text resolves with the partial text, finishReason is error, onError has %s',
    async (fault, code) => {
      const reported: unknown[] = [];
      const result = streamText({
        model: gateway()('community/general'),
        prompt: 'hello matrix',
        headers: { 'X-Emulator-Fault': fault },
        onError: ({ error }) => {
          reported.push(error);
        },
      });
      const text = await result.text;
      expect('Echo: hello matrix'.startsWith(text)).toBe(true);
      expect(await result.finishReason).toBe('error');
      expect(reported).toHaveLength(1);
      expect(APICallError.isInstance(reported[0])).toBe(true);
      expect((reported[0] as APICallError).data).toMatchObject({ code });
    },
  );

  it('toUIMessageStreamResponse sends the error chunk and ends the response normally', async () => {
    const result = streamText({
      model: gateway()('community/general'),
      prompt: 'tell me [[words:20]]',
      headers: { 'X-Emulator-Fault': 'stream_cut' },
      onError: () => {},
    });
    const body = await result
      .toUIMessageStreamResponse({ onError: (error) => `failed: ${(error as Error).name}` })
      .text();
    expect(body).toContain('{"type":"error","errorText":"failed: AI_APICallError"}');
    expect(body).toContain('"finishReason":"error"');
    expect(body.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });
});

describe('abort', () => {
  it('stops the stream and releases the gateway request', async () => {
    const controller = new AbortController();
    const result = streamText({
      model: gateway()('community/general'),
      prompt: 'long one [[chunks:500]]',
      abortSignal: controller.signal,
      onError: () => {},
    });
    const seen: string[] = [];
    for await (const part of result.fullStream) {
      seen.push(part.type);
      if (part.type === 'text-delta') controller.abort();
    }
    expect(seen).toContain('abort');
    expect(seen.filter((type) => type === 'text-delta').length).toBeLessThan(500);
    await emulated.untilIdle({ key: DEFAULT_KEYS.full });
  });
});

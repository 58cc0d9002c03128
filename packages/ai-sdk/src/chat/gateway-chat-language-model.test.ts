import { APICallError, NoSuchModelError, UnsupportedFunctionalityError } from '@ai-sdk/provider';
import { drivenClock, emulate } from '@infergate/emulator/testing';
import { generateText, Output, RetryError, stepCountIs, streamText, tool } from 'ai';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod/v4';
import { BASE_URL, providersOn } from '../../test/providers';
import { WEATHER_TOOL } from '../../test/weather-tool';

const emulated = await emulate({ as: 'msw', baseURL: BASE_URL, hooks: { afterEach, afterAll } });
const { emulator } = emulated;
const { gateway } = providersOn(emulated);

const weather = tool(WEATHER_TOOL);
/** For the tests whose call waits ai's own 2 s retry backoff: a clock the test moves. */
const clock = drivenClock(vi);
afterEach(() => {
  vi.useRealTimers();
});

/** A fetch whose chat answers (the emulator's) have choice 0 changed by `edit`. */
function editedAnswers(edit: (choice: Record<string, unknown>) => void): typeof fetch {
  return async (input, init) => {
    const answer = await fetch(input, init);
    if (!new Request(input, init).url.endsWith('/chat/completions')) return answer;
    const body = await answer.json();
    edit(body.choices[0]);
    const headers = new Headers(answer.headers);
    headers.delete('content-length');
    return new Response(JSON.stringify(body), { status: answer.status, headers });
  };
}

describe('generateText through the gateway', () => {
  it('answers a text prompt and reports the answering model', async () => {
    const result = await generateText({
      model: gateway()('community/general'),
      prompt: 'hello there',
    });
    expect(result.text).toBe('Echo: hello there');
    expect(result.finishReason).toBe('stop');
    expect(result.usage.inputTokens).toBe(2);
    expect(result.response.modelId).toBe('community/general');
    expect(result.response.headers?.['x-service-model']).toBe('community/general');
    expect(result.providerMetadata?.infergate).toMatchObject({
      requestedModel: 'community/general',
      servedModel: 'community/general',
      fallback: false,
    });
  });

  it('reports a fallback: my/laptop-model answered by pool-a/llama-3-8b', async () => {
    const result = await generateText({
      model: gateway()('my/laptop-model'),
      prompt: 'where am I',
    });
    expect(result.response.modelId).toBe('pool-a/llama-3-8b');
    expect(result.providerMetadata?.infergate).toMatchObject({
      requestedModel: 'my/laptop-model',
      servedModel: 'pool-a/llama-3-8b',
      fallback: true,
    });
  });

  it('checks an offline own model with core: unchecked, one GET /models for every call', async () => {
    const provider = gateway();
    for (let i = 0; i < 3; i++) {
      const result = await generateText({
        model: provider('my/laptop-model'),
        tools: { weather },
        prompt: 'hi',
      });
      expect(result.response.modelId).toBe('pool-a/llama-3-8b');
      await streamText({ model: provider('my/laptop-model'), prompt: 'hi' }).consumeStream();
    }
    expect(emulator.counters.requests.chat).toBe(6);
    expect(emulator.counters.requests.models).toBe(1);
  });

  it('refuses an unlisted id that is not an own model with NoSuchModelError and close matches', async () => {
    const error = await generateText({
      model: gateway()('community/genral'),
      tools: { weather },
      prompt: 'hi',
    }).catch((e: unknown) => e);
    expect(NoSuchModelError.isInstance(error)).toBe(true);
    expect((error as NoSuchModelError).modelId).toBe('community/genral');
    expect((error as Error).message).toContain('community/general');
    expect(emulator.counters.requests.chat).toBe(0);
  });

  it('refuses a mistyped id for plain chat too, as LangChain does: nothing reaches the gateway', async () => {
    const generated = await generateText({
      model: gateway()('community/genral'),
      prompt: 'hi',
    }).catch((e: unknown) => e);
    let streamed: unknown;
    await streamText({
      model: gateway()('community/genral'),
      prompt: 'hi',
      onError: ({ error }) => {
        streamed = error;
      },
    }).consumeStream();
    for (const error of [generated, streamed]) {
      expect(NoSuchModelError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain('Close matches: community/general');
    }
    expect(emulator.counters.requests.chat).toBe(0);
  });

  it("the catalog unreachable: core's gate fails the call as a retryable APICallError, ai retries it", async () => {
    emulator.injectFault({ fault: 'bad_gateway', endpoint: 'models', times: 1 });
    // ai's retry waits its 2 s backoff, on the driven clock.
    clock.drive();
    const result = await clock.settledOnSteps(
      generateText({ model: gateway()('community/general'), prompt: 'hi' }),
    );
    vi.useRealTimers();
    expect(result.text).toBe('Echo: hi');
    emulator.injectFault({ fault: 'bad_gateway', endpoint: 'models', times: 10 });
    const error = await generateText({
      model: gateway()('community/general'),
      prompt: 'hi',
      maxRetries: 0,
    }).catch((e: unknown) => e);
    expect(APICallError.isInstance(error)).toBe(true);
    // Core's gate read the catalog as part of the chat call (the call's own request, refused).
    expect((error as APICallError).statusCode).toBe(502);
    expect((error as APICallError).isRetryable).toBe(true);
    expect(emulator.counters.requests.chat).toBe(1);
  });

  it('an answer with finish_reason null (the spec allows it): other, no raw reason, as @ai-sdk/openai-compatible gives', async () => {
    // The emulator always finishes: its answer is passed on with the reason set to null.
    const nullReason = editedAnswers((choice) => {
      choice.finish_reason = null;
    });
    const result = await generateText({
      model: gateway({ fetch: nullReason })('community/general'),
      prompt: 'hello there',
    });
    expect(result.text).toBe('Echo: hello there');
    expect(result.finishReason).toBe('other');
    expect(result.rawFinishReason).toBeUndefined();
  });

  it("a refusal (OpenAI's message.refusal) with finish_reason stop: content-filter, raw stop as sent, as @ai-sdk/openai-compatible gives", async () => {
    // The emulator's answer, its message turned into a refusal (its finish_reason stays stop).
    const refusing = editedAnswers((choice) => {
      choice.message = { role: 'assistant', content: null, refusal: "I can't help." };
    });
    const result = await generateText({
      model: gateway({ fetch: refusing })('community/general'),
      prompt: 'hello there',
    });
    expect(result.text).toBe("I can't help.");
    expect(result.finishReason).toBe('content-filter');
    expect(result.rawFinishReason).toBe('stop');
  });

  it("sends images, audio and files as core's content parts (one default image type)", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const wav = new TextEncoder().encode('RIFF\0\0\0\0WAVEfmt ');
    const result = await generateText({
      model: gateway()('community/general'),
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'what is in these?' },
            { type: 'image', image: png, mediaType: 'image' },
            { type: 'image', image: 'AAAA', mediaType: 'image' },
            { type: 'file', data: wav, mediaType: 'audio/wav' },
          ],
        },
      ],
      include: { requestBody: true },
    });
    const body = result.request.body as { messages: { content: unknown }[] };
    expect(body.messages[0]?.content).toEqual([
      { type: 'text', text: 'what is in these?' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
      { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,AAAA' } },
      { type: 'input_audio', input_audio: { data: 'UklGRgAAAABXQVZFZm10IA==', format: 'wav' } },
    ]);
  });

  it('runs a multi-step tool loop with stopWhen', async () => {
    const result = await generateText({
      model: gateway()('community/general'),
      tools: { weather },
      stopWhen: stepCountIs(3),
      prompt: 'Use weather for "Kyiv"',
    });
    expect(result.steps).toHaveLength(2);
    expect(result.steps[0]?.toolCalls[0]).toMatchObject({
      toolName: 'weather',
      input: { city: 'Kyiv' },
    });
    expect(result.steps[0]?.finishReason).toBe('tool-calls');
    expect(result.text).toBe('Tool weather returned: {"city":"Kyiv","celsius":21}');
    expect(emulator.counters.requests.chat).toBe(2);
  });

  it('sends sampling options, stop sequences, seed and extra body fields; warns about the rest', async () => {
    const result = await generateText({
      model: gateway()('community/general'),
      prompt: 'hi',
      temperature: 0.2,
      topP: 0.9,
      maxOutputTokens: 50,
      stopSequences: ['END'],
      seed: 7,
      topK: 3,
      presencePenalty: 0.1,
      frequencyPenalty: -0.2,
      providerOptions: { infergate: { user: 'u-1', repetition_penalty: 1.1 } },
      include: { requestBody: true },
    });
    expect(result.request.body).toMatchObject({
      model: 'community/general',
      temperature: 0.2,
      top_p: 0.9,
      max_tokens: 50,
      stop: ['END'],
      seed: 7,
      presence_penalty: 0.1,
      frequency_penalty: -0.2,
      user: 'u-1',
      repetition_penalty: 1.1,
    });
    expect(result.request.body).not.toHaveProperty('top_k');
    // A providerOptions.infergate field wins over the call option (test/provider-option-precedence);
    // an empty stop list is not sent.
    const second = await generateText({
      model: gateway()('community/general'),
      prompt: 'hi',
      temperature: 0.5,
      stopSequences: [],
      providerOptions: { infergate: { temperature: 2 } },
      include: { requestBody: true },
    });
    expect(second.request.body).toMatchObject({ temperature: 2 });
    expect(second.request.body).not.toHaveProperty('stop');
    expect(second.request.body).not.toHaveProperty('stream');
    // Only topK, which no OpenAI-style field carries, is warned about.
    expect(result.warnings).toEqual([
      expect.objectContaining({ type: 'unsupported', feature: 'topK' }),
    ]);
  });

  it('produces a structured object with json_schema (Output.object)', async () => {
    const result = await generateText({
      model: gateway()('community/json-schema'),
      output: Output.object({ schema: z.object({ title: z.string(), year: z.number().int() }) }),
      prompt: 'a film',
      include: { requestBody: true },
    });
    expect(result.output).toEqual({ title: expect.any(String), year: expect.any(Number) });
    expect(result.request.body).toMatchObject({ response_format: { type: 'json_schema' } });
  });

  it.each([
    ['no setting', {}, undefined, undefined],
    ["the model's setting", { strictJsonSchema: true }, undefined, true],
    ["the call's option over the model's", { strictJsonSchema: true }, false, false],
  ])(
    'sends the schema as json_schema: name, description, strict (%s)',
    async (_, settings, call, strict) => {
      const schema = z.object({ title: z.string() });
      const result = await generateText({
        model: gateway()('community/json-schema', settings),
        output: Output.object({ schema, name: 'film', description: 'A film' }),
        prompt: 'a film',
        providerOptions: call === undefined ? undefined : { infergate: { strictJsonSchema: call } },
        include: { requestBody: true },
      });
      const format = (result.request.body as { response_format: { json_schema: object } })
        .response_format;
      expect(format).toEqual({
        type: 'json_schema',
        json_schema: {
          name: 'film',
          description: 'A film',
          schema: expect.objectContaining({
            type: 'object',
            properties: { title: { type: 'string' } },
          }),
          ...(strict === undefined ? {} : { strict }),
        },
      });
    },
  );

  it('names a schema `response` when ai gives no name, as core does', async () => {
    const result = await generateText({
      model: gateway()('community/json-schema'),
      output: Output.object({ schema: z.object({ title: z.string() }) }),
      prompt: 'a film',
      include: { requestBody: true },
    });
    expect(result.request.body).toMatchObject({
      response_format: { type: 'json_schema', json_schema: { name: 'response' } },
    });
    expect(result.request.body).not.toHaveProperty('response_format.json_schema.strict');
    expect(result.request.body).not.toHaveProperty('response_format.json_schema.description');
  });
});

describe('capability refusals (no chat request is sent)', () => {
  it('refuses a schema on a model that serves none of json_schema, tools, json_object', async () => {
    // A schema call is always planned by core (it steers): the model is skipped, none is left.
    const error = await generateText({
      model: gateway()('community/streamer'),
      output: Output.object({ schema: z.object({ answer: z.string() }) }),
      prompt: 'hi',
      maxRetries: 0,
    }).catch((e: unknown) => e);
    expect(APICallError.isInstance(error)).toBe(true);
    const { data, message } = error as APICallError;
    expect(data).toMatchObject({
      code: 'no_model_can_serve',
      skipped: [{ model: 'community/streamer', reason: 'missing_capability' }],
    });
    expect(message).toContain('cannot serve a JSON schema');
    expect(emulator.counters.requests.chat).toBe(0);
  });

  it.each([
    ['streaming', 'community/plain', () => ({ stream: true })],
    ['tools', 'community/streamer', () => ({ tools: { weather } })],
    ['json_object', 'community/json-schema', () => ({ output: Output.json() })],
  ])('refuses %s on %s', async (capability, modelId, options) => {
    const { stream, ...rest } = options() as { stream?: boolean };
    const model = gateway()(modelId);
    let error: unknown;
    if (stream) {
      const result = streamText({
        model,
        prompt: 'hi',
        onError: ({ error: e }) => {
          error = e;
        },
      });
      await result.consumeStream();
    } else {
      error = await generateText({ model, prompt: 'hi', ...rest }).catch((e: unknown) => e);
    }
    expect(UnsupportedFunctionalityError.isInstance(error)).toBe(true);
    expect((error as UnsupportedFunctionalityError).functionality).toBe(capability);
    expect((error as Error).message).toContain(modelId);
    expect(emulator.counters.requests.chat).toBe(0);
  });

  it('uses capabilities from the model settings without reading the catalog', async () => {
    const result = await generateText({
      model: gateway()('community/tools', { capabilities: ['chat', 'streaming', 'tools'] }),
      tools: { weather },
      prompt: 'hi',
    });
    expect(result.finishReason).toBe('stop');
    expect(emulator.counters.requests.models).toBe(0);
  });

  it('refuses from the model settings too, in the words of core', async () => {
    const error = await generateText({
      model: gateway()('community/general', { capabilities: ['chat'] }),
      tools: { weather },
      prompt: 'hi',
    }).catch((e: unknown) => e);
    expect(UnsupportedFunctionalityError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /^Model "community\/general" lacks tools, needed for this request \(tools\) \(it has: chat\)\. Models with chat, tools: .*community\/tools/,
    );
    expect(emulator.counters.requests.chat).toBe(0);
  });

  it('loads the catalog once per provider', async () => {
    const provider = gateway();
    await generateText({ model: provider('community/general'), tools: { weather }, prompt: 'a' });
    await generateText({ model: provider('community/tools'), tools: { weather }, prompt: 'b' });
    expect(emulator.counters.requests.models).toBe(1);
  });
});

describe('errors', () => {
  it('throws APICallError with status, body and the gateway code', async () => {
    emulator.injectFault({ fault: 'upstream_html', endpoint: 'chat' });
    const error = await generateText({
      model: gateway()('community/general'),
      prompt: 'hi',
      maxRetries: 0,
    }).catch((e: unknown) => e);
    expect(APICallError.isInstance(error)).toBe(true);
    const apiError = error as APICallError;
    expect(apiError.statusCode).toBe(502);
    expect(apiError.responseBody).toContain('<html');
    expect(apiError.data).toMatchObject({ code: 'upstream_error' });
  });

  it('ai owns retries: maxRetries 0 sends one request and throws the retryable APICallError', async () => {
    emulator.injectFault({ fault: 'rate_limit', endpoint: 'chat', retryAfter: 0, times: 10 });
    const error = await generateText({
      model: gateway()('community/general'),
      prompt: 'hi',
      maxRetries: 0,
    }).catch((e: unknown) => e);
    expect(APICallError.isInstance(error)).toBe(true);
    expect((error as APICallError).statusCode).toBe(429);
    expect((error as APICallError).isRetryable).toBe(true);
    expect((error as APICallError).responseHeaders?.['retry-after']).toBe('0');
    // Every header of the 429 as it came, from core's GatewayError.responseHeaders.
    expect((error as APICallError).responseHeaders?.['content-type']).toContain('application/json');
    expect((error as APICallError).data).toMatchObject({ code: 'client_concurrency_exceeded' });
    expect(emulator.counters.requests.chat).toBe(1);
  });

  it("ai's maxRetries: 5 sends six requests, then RetryError with the last APICallError", async () => {
    emulator.injectFault({ fault: 'rate_limit', endpoint: 'chat', retryAfter: 0, times: 10 });
    const error = await generateText({
      model: gateway()('community/general'),
      prompt: 'hi',
      maxRetries: 5,
    }).catch((e: unknown) => e);
    expect(RetryError.isInstance(error)).toBe(true);
    expect((error as RetryError).reason).toBe('maxRetriesExceeded');
    expect(APICallError.isInstance((error as RetryError).lastError)).toBe(true);
    expect(emulator.counters.requests.chat).toBe(6);
  });

  it('a 429 without Retry-After (a proxy dropped it) is still retryable: ai retries it and the call succeeds', async () => {
    // A gateway (or proxy) that drops the header: core's policy still calls the 429 retryable.
    const withoutRetryAfter: typeof fetch = async (input, init) => {
      const answer = await fetch(input, init);
      const headers = new Headers(answer.headers);
      headers.delete('retry-after');
      return new Response(answer.body, { status: answer.status, headers });
    };
    emulator.injectFault({ fault: 'rate_limit', endpoint: 'chat', times: 2 });
    const error = await generateText({
      model: gateway({ fetch: withoutRetryAfter })('community/general'),
      prompt: 'hi',
      maxRetries: 0,
    }).catch((e: unknown) => e);
    expect(APICallError.isInstance(error)).toBe(true);
    expect((error as APICallError).statusCode).toBe(429);
    expect((error as APICallError).responseHeaders?.['retry-after']).toBeUndefined();
    expect((error as APICallError).isRetryable).toBe(true);

    // ai's retry waits its 2 s backoff (no Retry-After), on the driven clock.
    clock.drive();
    const result = await clock.settledOnSteps(
      generateText({
        model: gateway({ fetch: withoutRetryAfter })('community/general'),
        prompt: 'hi',
        maxRetries: 1,
      }),
    );
    expect(result.text).toBe('Echo: hi');
    expect(emulator.counters.requests.chat).toBe(3);
  });

  it('a single transient 502 is retried by ai and the call succeeds', async () => {
    emulator.injectFault({ fault: 'bad_gateway', endpoint: 'chat', times: 1 });
    // ai's retry waits its 2 s backoff, on the driven clock.
    clock.drive();
    const result = await clock.settledOnSteps(
      generateText({ model: gateway()('community/general'), prompt: 'hi' }),
    );
    expect(result.text).toBe('Echo: hi');
    expect(emulator.counters.requests.chat).toBe(2);
  });

  it('streamText: ai retries a refused stream; a Retry-After over maxRetryAfterMs fails at once', async () => {
    emulator.injectFault({ fault: 'rate_limit', endpoint: 'chat', retryAfter: 0, times: 1 });
    const retried = streamText({
      model: gateway()('community/general'),
      prompt: 'hi',
      maxRetries: 1,
    });
    expect(await retried.text).toBe('Echo: hi');
    expect(emulator.counters.requests.chat).toBe(2);

    emulator.injectFault({ fault: 'rate_limit', endpoint: 'chat', retryAfter: 120, times: 10 });
    let streamError: unknown;
    await streamText({
      model: gateway()('community/general'),
      prompt: 'hi',
      maxRetries: 3,
      onError: ({ error }) => {
        streamError = error;
      },
    }).consumeStream();
    expect(APICallError.isInstance(streamError)).toBe(true);
    expect((streamError as APICallError).isRetryable).toBe(false);
    expect((streamError as APICallError).responseHeaders?.['retry-after']).toBe('120');
    expect(emulator.counters.requests.chat).toBe(3);
  });

  it('hands timeoutMs to core: a slow gateway fails with a timeout', async () => {
    emulator.injectFault({ fault: 'slow_headers', endpoint: 'chat', ms: 5000 });
    const error = await generateText({
      model: gateway({ timeoutMs: 50 })('community/general'),
      prompt: 'hi',
      maxRetries: 0,
    }).catch((e: unknown) => e);
    expect(APICallError.isInstance(error)).toBe(true);
    expect((error as APICallError).data).toMatchObject({ code: 'timeout' });
  });

  it('keeps timeoutMs when the wall clock is stepped back (deadlines are on a monotonic clock)', async () => {
    // Only `Date` is faked: an NTP step; timers and performance.now() keep their pace.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      // Held, not slow: only the deadline can end the call (the kit's reset releases the hold).
      emulated.hold();
      // Capabilities given: no catalog read, so the deadline runs while the chat request is held
      // (a catalog read first could take the whole 500 ms on a loaded machine).
      const pending = generateText({
        model: gateway({ timeoutMs: 500 })('community/general', { capabilities: ['chat'] }),
        prompt: 'hi',
        maxRetries: 0,
      }).catch((e: unknown) => e);
      // (Should the call end before its request is held, the test says so at once.)
      const endedFirst = pending.then((e) => {
        throw new Error(`the call ended before its request was held: ${String(e)}`);
      });
      await Promise.race([emulated.untilHeld(1), endedFirst]);
      endedFirst.catch(() => {});
      vi.setSystemTime(Date.now() - 60_000);
      // The deadline fired on time, not 60 s late.
      const error = await pending;
      expect(APICallError.isInstance(error)).toBe(true);
      expect((error as APICallError).data).toMatchObject({ code: 'timeout' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('aborts a waiting call with an AbortError', async () => {
    emulator.injectFault({ fault: 'slow_headers', endpoint: 'chat', ms: 5000 });
    const controller = new AbortController();
    const pending = generateText({
      model: gateway()('community/general'),
      prompt: 'hi',
      abortSignal: controller.signal,
    });
    await emulated.untilRequests(1);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});

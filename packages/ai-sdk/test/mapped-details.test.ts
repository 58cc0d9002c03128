// Details the adapter maps that users see, through ai's own entry points against the emulator (or,
// for bytes it does not send, a server of a few lines): which choice a stream's finish reason is,
// what a tool's `strict` and a tool result's parts become on the wire, the gateway's error body on
// an APICallError, and the usage of a stream that failed.

import { chatSse, type StreamChunk, twoTextChoicesSse } from '@infergate/emulator/testing';
import { APICallError, generateText, jsonSchema, Output, streamText, tool } from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod/v4';
import { answeringChats, providersOnMsw } from './providers';

const { gateway } = await providersOnMsw();
const MODEL = 'community/general';

/** A fetch serving `sse` as every chat answer (the catalog is the emulator's). */
function streaming(sse: string): typeof globalThis.fetch {
  return answeringChats(
    () =>
      new Response(sse, {
        headers: { 'content-type': 'text/event-stream', 'x-service-model': MODEL },
      }),
  );
}

/** A whole answer of MODEL whose one choice calls `call`. */
function toolCallAnswer(call: object): Response {
  const message = { role: 'assistant', content: null, tool_calls: [call] };
  return Response.json(
    {
      id: 'c1',
      object: 'chat.completion',
      model: MODEL,
      choices: [{ index: 0, message, finish_reason: 'tool_calls' }],
    },
    { headers: { 'x-service-model': MODEL } },
  );
}

/** The SSE text of a streamed answer of MODEL made of these chunks, then `[DONE]`. */
const sseText = (...chunks: StreamChunk[]) => chatSse(MODEL, chunks);

describe('a stream with two choices', () => {
  it("finishes with choice 0's reason, not that of a choice ending after it", async () => {
    const sse = twoTextChoicesSse(MODEL);
    const result = streamText({
      model: gateway({ fetch: streaming(sse) })(MODEL),
      // A server sending them unasked (asked with `n`, a stream is refused: streamed-choices).
      prompt: 'hi',
    });
    expect(await result.text).toBe('Hi');
    expect(await result.finishReason).toBe('stop');
  });
});

describe('what is sent', () => {
  /** The chat request body `generateText` sent. */
  async function sentBody(options: Parameters<typeof generateText>[0]) {
    const result = await generateText({
      ...options,
      maxRetries: 0,
      include: { requestBody: true },
    });
    return result.request.body as {
      messages: Record<string, unknown>[];
      tools?: { function: Record<string, unknown> }[];
    };
  }

  it('a tool with strict: true is sent with function.strict, as openai-compatible sends it', async () => {
    const body = await sentBody({
      model: gateway()(MODEL),
      prompt: 'weather?',
      tools: {
        weather: tool({ inputSchema: z.object({ city: z.string() }), strict: true }),
        time: tool({ inputSchema: jsonSchema({ type: 'object' }) }),
      },
      toolChoice: 'none',
    });
    expect(body.tools?.map((sent) => sent.function.strict)).toEqual([true, undefined]);
  });

  it("a denied tool call's reason, and a content result's text, are the tool messages' content", async () => {
    const body = await sentBody({
      model: gateway()(MODEL),
      messages: [
        { role: 'user', content: 'weather and time?' },
        {
          role: 'assistant',
          content: [
            { type: 'tool-call', toolCallId: 'c1', toolName: 'weather', input: { city: 'Oslo' } },
            { type: 'tool-call', toolCallId: 'c2', toolName: 'time', input: {} },
          ],
        },
        {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: 'c1',
              toolName: 'weather',
              output: { type: 'execution-denied', reason: 'no' },
            },
            {
              type: 'tool-result',
              toolCallId: 'c2',
              toolName: 'time',
              output: { type: 'content', value: [{ type: 'text', text: 'hi' }] },
            },
          ],
        },
      ],
    });
    expect(body.messages.slice(2)).toMatchObject([
      { role: 'tool', tool_call_id: 'c1', content: 'no' },
      { role: 'tool', tool_call_id: 'c2', content: 'hi' },
    ]);
  });
});

describe("the gateway's refusal", () => {
  it("is an APICallError whose data.body is the gateway's JSON error body", async () => {
    const bodies: unknown[] = [];
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const response = await globalThis.fetch(input, init);
      if (new Request(input, init).url.endsWith('/chat/completions')) {
        bodies.push(await response.clone().json());
      }
      return response;
    };
    const error = await generateText({
      model: gateway({ fetch, apiKey: 'ig-wrong-key' })(MODEL, { capabilities: ['chat'] }),
      prompt: 'hi',
      maxRetries: 0,
    }).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(APICallError.isInstance(error), String(error)).toBe(true);
    const apiError = error as APICallError;
    expect(apiError.statusCode).toBe(401);
    expect(bodies).toHaveLength(1);
    expect((apiError.data as { body?: unknown }).body).toEqual(bodies[0]);
  });
});

describe('a structured stream whose answer core refused', () => {
  it('reports the usage: core hands the answer on to ai, which refuses it (no stream error)', async () => {
    // Prose, no JSON: core's check refuses the answer at the stream's end, and hands it on as the
    // last (`lastAnswer: 'returned'`); the usage came in its finish chunk.
    const sse = sseText(
      {
        choices: [
          { index: 0, delta: { role: 'assistant', content: 'No idea.' }, finish_reason: null },
        ],
      },
      {
        choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
        usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 },
      },
    );
    const errors: unknown[] = [];
    const result = streamText({
      model: gateway({ fetch: streaming(sse) })(MODEL),
      prompt: 'Where is Oslo?',
      output: Output.object({ schema: z.object({ city: z.string() }) }),
      maxRetries: 0,
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    await result.consumeStream();
    expect(errors).toHaveLength(0);
    expect(await result.finishReason).toBe('stop');
    await expect(result.output).rejects.toMatchObject({ name: 'AI_NoObjectGeneratedError' });
    const usage = await result.usage;
    expect([usage.inputTokens, usage.outputTokens, usage.totalTokens]).toEqual([5, 3, 8]);
  });
});

describe("a tool call's arguments (core's blank rule, ai's parse)", () => {
  // Core's reading: blank arguments are a call without arguments; `ai` gets `{}` either way, as
  // with @ai-sdk/openai-compatible on the same bytes.
  const tools = { time: tool({ inputSchema: jsonSchema({ type: 'object' }) }) };
  const call = (args: string) => ({
    id: 'call_t',
    type: 'function',
    function: { name: 'time', arguments: args },
  });

  it.each([[''], ['  ']])('generateText: arguments %j are the input {}', async (args) => {
    const fetch = answeringChats(() => toolCallAnswer(call(args)));
    const result = await generateText({ model: gateway({ fetch })(MODEL), prompt: 'time?', tools });
    expect(result.toolCalls.map((part) => [part.toolCallId, part.input])).toEqual([['call_t', {}]]);
  });

  it.each([[''], ['  ']])('streamText: arguments %j are the input {}', async (args) => {
    const sse = sseText(
      {
        choices: [
          { index: 0, delta: { role: 'assistant', tool_calls: [{ index: 0, ...call(args) }] } },
        ],
      },
      { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
    );
    const result = streamText({
      model: gateway({ fetch: streaming(sse) })(MODEL),
      prompt: 'time?',
      tools,
    });
    const calls = await result.toolCalls;
    expect(calls.map((part) => [part.toolCallId, part.input, part.invalid])).toEqual([
      ['call_t', {}, undefined],
    ]);
  });
  // Only blank arguments are read here (core's `isBlankArguments`): any other text is handed to
  // `ai`, which parses it — once, not first by us too.
  const ARGS = '{"zone":"Europe/Kyiv"}';
  afterEach(() => {
    vi.restoreAllMocks();
  });
  const parsesOf = (text: string) => {
    const parse = vi.spyOn(JSON, 'parse');
    return () => parse.mock.calls.filter(([parsed]) => parsed === text).length;
  };

  it('generateText: arguments are parsed once, by ai', async () => {
    const fetch = answeringChats(() => toolCallAnswer(call(ARGS)));
    const parses = parsesOf(ARGS);
    const result = await generateText({ model: gateway({ fetch })(MODEL), prompt: 'time?', tools });
    expect(result.toolCalls.map((part) => part.input)).toEqual([{ zone: 'Europe/Kyiv' }]);
    expect(parses()).toBe(1);
  });

  it('streamText: arguments are parsed once, by ai', async () => {
    const sse = sseText(
      {
        choices: [
          { index: 0, delta: { role: 'assistant', tool_calls: [{ index: 0, ...call(ARGS) }] } },
        ],
      },
      { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
    );
    const parses = parsesOf(ARGS);
    const result = streamText({
      model: gateway({ fetch: streaming(sse) })(MODEL),
      prompt: 'time?',
      tools,
    });
    expect((await result.toolCalls).map((part) => part.input)).toEqual([{ zone: 'Europe/Kyiv' }]);
    expect(parses()).toBe(1);
  });
});

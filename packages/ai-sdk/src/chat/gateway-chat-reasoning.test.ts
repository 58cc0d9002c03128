import { APICallError } from '@ai-sdk/provider';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { dialectModels, providersOnMsw } from '../../test/providers';
import { WEATHER_TOOL } from '../../test/weather-tool';

// Scripted models whose model servers answer in other dialects (see the emulator README); `thinking`
// is DeepSeek V4 / Kimi K2's: a tool-call turn replayed without its reasoning is a 400.
const { gateway } = await providersOnMsw(
  dialectModels({
    groq: 'groq',
    mistral: 'mistral',
    azure: 'azure',
    minimal: 'minimal',
    xai: 'xai',
    thinking: 'deepseek-thinking',
  }),
);

const REASONING = 'The user wrote 2 words. I answer by echoing them.';

describe('reasoning through generateText and streamText', () => {
  it.each(['community/reasoner', 'dialect/groq', 'dialect/mistral'])(
    '%s: reasoningText, the text without it, reasoning tokens',
    async (model) => {
      const generated = await generateText({ model: gateway()(model), prompt: 'hello there' });
      expect(generated.reasoningText).toBe(REASONING);
      expect(generated.text).toBe('Echo: hello there');
      expect(generated.content[0]).toMatchObject({ type: 'reasoning', text: REASONING });
      expect(generated.usage.outputTokenDetails.reasoningTokens).toBe(10);

      const streamed = streamText({ model: gateway()(model), prompt: 'hello there' });
      const order: string[] = [];
      for await (const part of streamed.fullStream) {
        if (part.type.startsWith('reasoning') || part.type.startsWith('text')) {
          if (order.at(-1) !== part.type) order.push(part.type);
        }
      }
      expect(order).toEqual([
        'reasoning-start',
        'reasoning-delta',
        'reasoning-end',
        'text-start',
        'text-delta',
        'text-end',
      ]);
      expect(await streamed.reasoningText).toBe(REASONING);
      expect(await streamed.text).toBe('Echo: hello there');
      expect((await streamed.usage).outputTokenDetails.reasoningTokens).toBe(10);
    },
  );

  it('the deepseek dialect reports cached prompt tokens', async () => {
    const result = await generateText({
      model: gateway()('community/reasoner'),
      prompt: 'a b c d',
    });
    expect(result.usage.inputTokenDetails.cacheReadTokens).toBe(2);
  });
});

/**
 * Provider settings whose fetch gives the emulator's chat answers this `usage` instead: a whole
 * answer's, and a stream's on the event that carries it.
 */
function withUsage(usage: Record<string, unknown>) {
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const answer = await globalThis.fetch(input, init);
    if (!String(input).endsWith('/chat/completions')) return answer;
    const headers = new Headers(answer.headers);
    headers.delete('content-length');
    if (headers.get('content-type')?.includes('text/event-stream')) {
      const events = (await answer.text()).split('\n\n').map((event) => {
        if (!event.startsWith('data: {') || !event.includes('"usage"')) return event;
        return `data: ${JSON.stringify({ ...JSON.parse(event.slice(6)), usage })}`;
      });
      return new Response(events.join('\n\n'), { status: answer.status, headers });
    }
    const body = { ...((await answer.json()) as Record<string, unknown>), usage };
    return Response.json(body, { status: answer.status, headers });
  };
  return { fetch };
}

describe('usage through generateText and streamText', () => {
  it('xai dialect (reasoning outside completion_tokens): the output counts the reasoning', async () => {
    const generated = await generateText({
      model: gateway()('dialect/xai'),
      prompt: 'hello there',
    });
    const streamed = streamText({ model: gateway()('dialect/xai'), prompt: 'hello there' });
    // prompt 2 (1 cached), completion 3 ('Echo: hello there'), reasoning 10, total 15.
    for (const usage of [generated.usage, await streamed.usage]) {
      expect(usage).toMatchObject({
        inputTokens: 2,
        inputTokenDetails: { noCacheTokens: 1, cacheReadTokens: 1 },
        outputTokens: 13,
        outputTokenDetails: { textTokens: 3, reasoningTokens: 10 },
        totalTokens: 15,
      });
    }
  });

  it('no count is negative, nor the uncached input when the cached count is above the prompt', async () => {
    const usage = {
      prompt_tokens: 5,
      completion_tokens: -1,
      prompt_tokens_details: { cached_tokens: 8 },
    };
    const { usage: read } = await generateText({
      model: gateway(withUsage(usage))('community/general'),
      prompt: 'hi',
    });
    expect(read).toMatchObject({
      inputTokenDetails: { noCacheTokens: 0, cacheReadTokens: 8 },
      outputTokens: 0,
      outputTokenDetails: { textTokens: 0 },
    });
  });
  it.each([
    [
      'prompt_tokens_details.cache_write_tokens (OpenAI, OpenRouter)',
      { prompt_tokens_details: { cached_tokens: 100, cache_write_tokens: 1000 } },
    ],
    [
      'cache_creation_input_tokens (LiteLLM)',
      { prompt_tokens_details: { cached_tokens: 100 }, cache_creation_input_tokens: 1000 },
    ],
  ])('prompt tokens written to the cache: %s', async (_, details) => {
    const usage = { prompt_tokens: 1200, completion_tokens: 10, total_tokens: 1210, ...details };
    const model = gateway(withUsage(usage))('community/general');
    const generated = await generateText({ model, prompt: 'hi' });
    const streamed = streamText({ model, prompt: 'hi' });
    for (const read of [generated.usage, await streamed.usage]) {
      expect(read).toMatchObject({
        inputTokens: 1200,
        inputTokenDetails: { noCacheTokens: 100, cacheReadTokens: 100, cacheWriteTokens: 1000 },
      });
    }
  });

  it('no completion_tokens but reasoning: the output is total − prompt, the reasoning at least', async () => {
    // The LangChain adapter gives the same counts for these bytes (its usage-metadata test).
    const usage = {
      prompt_tokens: 10,
      total_tokens: 30,
      completion_tokens_details: { reasoning_tokens: 20 },
    };
    const { usage: read } = await generateText({
      model: gateway(withUsage(usage))('community/general'),
      prompt: 'hi',
    });
    expect(read).toMatchObject({
      inputTokens: 10,
      outputTokens: 20,
      outputTokenDetails: { textTokens: 0, reasoningTokens: 20 },
      totalTokens: 30,
    });
  });
});

describe('response metadata whatever chunk carries it', () => {
  it.each(['dialect/azure', 'dialect/minimal'])(
    '%s: the server id and timestamp, not generated ones',
    async (model) => {
      const result = streamText({ model: gateway()(model), prompt: 'hi' });
      await result.consumeStream();
      const response = await result.response;
      expect(response.id).toMatch(/^chatcmpl-emu-\d+$/);
      expect(response.timestamp.getTime() % 1000).toBe(0);
      expect(response.modelId).toBe(model);
    },
  );
});

/** The first assistant message of a sent chat request. */
const assistantSent = (body: unknown) =>
  (body as { messages: Record<string, unknown>[] }).messages.find((m) => m.role === 'assistant');

describe('reasoning of earlier turns (sendReasoning)', () => {
  const history = [
    { role: 'user' as const, content: 'hello there' },
    {
      role: 'assistant' as const,
      content: [
        { type: 'reasoning' as const, text: 'They greet me.' },
        { type: 'text' as const, text: 'Echo: hello there' },
      ],
    },
    { role: 'user' as const, content: 'and again' },
  ];

  it('is not sent back by default', async () => {
    const result = await generateText({
      model: gateway()('community/reasoner'),
      messages: history,
      include: { requestBody: true },
    });
    expect(assistantSent(result.request.body)).toEqual({
      role: 'assistant',
      content: 'Echo: hello there',
    });
  });

  it('is sent back as reasoning_content when the model is built with sendReasoning: true', async () => {
    const result = await generateText({
      model: gateway()('community/reasoner', { sendReasoning: true }),
      messages: history,
      include: { requestBody: true },
    });
    expect(assistantSent(result.request.body)).toEqual({
      role: 'assistant',
      content: 'Echo: hello there',
      reasoning_content: 'They greet me.',
    });
  });

  it('a value that is not a boolean is refused when the model is made, naming it', () => {
    // A JavaScript caller's typo the types would have caught: refused with no turn to send back.
    expect(() =>
      gateway()('community/reasoner', { sendReasoning: 'yes' as unknown as boolean }),
    ).toThrow('sendReasoning (model setting) must be a boolean, got a string');
  });
});

describe("a thinking model's tool loop (DeepSeek V4, Kimi K2: reasoning of tool-call turns back)", () => {
  const loop = { tools: { weather: tool(WEATHER_TOOL) }, stopWhen: stepCountIs(2) };
  const PROMPT = 'Use weather for "Kyiv"';
  const ANSWER = 'Tool weather returned: {"city":"Kyiv","celsius":21}';
  const THOUGHT = 'The user wrote 4 words. I answer by echoing them.';
  const REFUSED = 'The `reasoning_content` in the thinking mode must be passed back to the API.';

  it('generateText: by default step 2 sends the tool-call turn back with its reasoning_content', async () => {
    const result = await generateText({
      model: gateway()('dialect/thinking'),
      ...loop,
      prompt: PROMPT,
      include: { requestBody: true },
    });
    expect(result.text).toBe(ANSWER);
    expect(assistantSent(result.steps[1]?.request.body)).toMatchObject({
      reasoning_content: THOUGHT,
      tool_calls: [{ function: { name: 'weather' } }],
    });
  });

  it('streamText: the same from the stream', async () => {
    const result = streamText({ model: gateway()('dialect/thinking'), ...loop, prompt: PROMPT });
    expect(await result.text).toBe(ANSWER);
    expect(await result.steps).toHaveLength(2);
  });

  it("sendReasoning: false drops it, and the model server's 400 comes back as an APICallError", async () => {
    const model = gateway()('dialect/thinking', { sendReasoning: false });
    const failure = await generateText({ model, ...loop, prompt: PROMPT }).catch((e) => e);
    expect(APICallError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ statusCode: 400, isRetryable: false });
    expect(failure.message).toContain(REFUSED);

    const errors: unknown[] = [];
    const streamed = streamText({
      model,
      ...loop,
      prompt: PROMPT,
      onError: (e) => errors.push(e.error),
    });
    await streamed.consumeStream();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ statusCode: 400, message: expect.stringContaining(REFUSED) });
  });
});

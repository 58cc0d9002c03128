import { emulate } from '@infergate/emulator/testing';
import { generateText, streamText } from 'ai';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BASE_URL, providersOn } from '../../test/providers';

// Scripted models whose model servers answer in other dialects (see the emulator README).
const emulated = await emulate({
  as: 'msw',
  scenario: {
    models: {
      'dialect/groq': { capabilities: ['chat', 'streaming', 'tools'], dialect: 'groq' },
      'dialect/mistral': { capabilities: ['chat', 'streaming', 'tools'], dialect: 'mistral' },
      'dialect/azure': { capabilities: ['chat', 'streaming', 'tools'], dialect: 'azure' },
      'dialect/minimal': { capabilities: ['chat', 'streaming', 'tools'], dialect: 'minimal' },
    },
  },
  baseURL: BASE_URL,
  hooks: { afterEach, afterAll },
});
const { gateway } = providersOn(emulated);

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

/** Provider settings whose fetch answers chat with one word and `usage` (the rest goes to msw). */
function answeringWithUsage(usage: Record<string, unknown>) {
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.endsWith('/chat/completions')) return globalThis.fetch(request);
    const { model, stream } = (await request.json()) as { model: string; stream?: boolean };
    const base = { id: 'chatcmpl-1', created: 1_700_000_000, model };
    const choice = { index: 0, finish_reason: 'stop' };
    if (stream !== true) {
      const message = { role: 'assistant', content: 'A' };
      return Response.json({
        ...base,
        object: 'chat.completion',
        choices: [{ ...choice, message }],
        usage,
      });
    }
    const chunk = { ...base, object: 'chat.completion.chunk' };
    const events = [
      { ...chunk, choices: [{ ...choice, delta: { role: 'assistant', content: 'A' } }], usage },
    ];
    const sse = `${events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('')}data: [DONE]\n\n`;
    return new Response(sse, { headers: { 'content-type': 'text/event-stream' } });
  };
  return { fetch };
}

/** A usage as a model server reports it: prompt, completion and reasoning tokens, and a total. */
const reported = (prompt: number, completion: number, reasoning: number, total?: number) => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  ...(total !== undefined ? { total_tokens: total } : {}),
  completion_tokens_details: { reasoning_tokens: reasoning },
});

describe('usage whose reasoning is counted outside completion_tokens (xAI)', () => {
  // Expected: output (text + reasoning), text, reasoning, total.
  it.each([
    ['grok-4-fast-reasoning (vercel/ai#11487)', reported(279, 6, 89, 374), [95, 6, 89, 374]],
    ['more text than reasoning, told by total_tokens', reported(10, 40, 10, 60), [50, 40, 10, 60]],
    ['reasoning over completion, no total_tokens', reported(10, 10, 93), [103, 10, 93, 113]],
    // total_tokens = prompt + reasoning: completion_tokens undercounts (vercel/ai#18614).
    [
      'total_tokens counting the reasoning alone',
      reported(951, 6000, 6001, 6952),
      [6001, 0, 6001, 6952],
    ],
    [
      'OpenAI: completion_tokens includes the reasoning',
      reported(10, 40, 10, 50),
      [40, 30, 10, 50],
    ],
  ])('%s: no negative count, the output counts the reasoning', async (_, usage, expected) => {
    const settings = answeringWithUsage(usage);
    const generated = await generateText({
      model: gateway(settings)('community/reasoner'),
      prompt: 'hi',
    });
    const streamed = streamText({ model: gateway(settings)('community/reasoner'), prompt: 'hi' });
    for (const result of [generated.usage, await streamed.usage]) {
      const { outputTokens, outputTokenDetails, totalTokens } = result;
      const { textTokens, reasoningTokens } = outputTokenDetails;
      expect([outputTokens, textTokens, reasoningTokens, totalTokens]).toEqual(expected);
    }
  });

  it('never gives a negative uncached input count', async () => {
    const usage = {
      prompt_tokens: 5,
      completion_tokens: 1,
      prompt_tokens_details: { cached_tokens: 8 },
    };
    const { usage: read } = await generateText({
      model: gateway(answeringWithUsage(usage))('community/general'),
      prompt: 'hi',
    });
    expect(read.inputTokenDetails).toMatchObject({ noCacheTokens: 0, cacheReadTokens: 8 });
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
  const assistantSent = (body: unknown) =>
    (body as { messages: Record<string, unknown>[] }).messages.find((m) => m.role === 'assistant');

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
});

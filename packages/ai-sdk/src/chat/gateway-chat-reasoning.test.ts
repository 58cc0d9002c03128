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

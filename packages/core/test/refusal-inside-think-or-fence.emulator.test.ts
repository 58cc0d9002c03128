import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { type ChatRequest, createGatewayClient } from '../src/index';

// A refusal streamed (§4.8, §5.1) while a think block or a code fence of the content is still
// open ends neither: the block's text stays out of the answer's text (a think block is its
// reasoning, a fence's backticks are left out), and the content and the refusal come in arrival
// order. The emulator serves the catalog; a stub sends the chunks.

const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({
    id: 's',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'community/json-schema',
    choices: [{ index: 0, delta, finish_reason: finish }],
  })}\n\n`;

/** `pieces` streamed as choice 0's content, `{ refusal }` pieces as its refusal, then `stop`. */
async function streamed(
  format: 'schema' | 'json_object',
  pieces: (string | { refusal: string })[],
) {
  const gateway = await emulate();
  const { fetch: gatewayFetch } = gateway.connection;
  const chunks = [
    chunk({ role: 'assistant' }),
    ...pieces.map((piece) => chunk(typeof piece === 'string' ? { content: piece } : piece)),
    chunk({}, 'stop'),
  ];
  const client = createGatewayClient({
    ...gateway.connection,
    circuitBreaker: false,
    fetch: async (input, init) => {
      if (!String(input).endsWith('/chat/completions')) return gatewayFetch(input, init);
      return new Response(`${chunks.join('')}data: [DONE]\n\n`, {
        headers: { 'content-type': 'text/event-stream' },
      });
    },
  });
  const request: ChatRequest = {
    model: format === 'schema' ? 'community/json-schema' : 'community/json-object',
    messages: [{ role: 'user', content: 'Where?' }],
    response_format:
      format === 'schema'
        ? { type: 'json_schema', json_schema: { name: 'p', schema: { type: 'object' } } }
        : { type: 'json_object' },
  };
  const stream = await client.chatStream(request, {
    structuredOutput: { lastAnswer: 'returned' },
  });
  let text = '';
  let reasoning = '';
  for await (const event of stream) {
    if (event.type === 'text-delta' && !event.choiceIndex) text += event.delta;
    if (event.type === 'reasoning-delta') reasoning += event.delta;
  }
  return { text, reasoning, result: await stream.result() };
}

const refusal = { refusal: 'I cannot help.' };

describe('a refusal inside a think block or a fence ends neither', () => {
  it('json_schema: a think block split by a refusal is reasoning, never text', async () => {
    const { text, reasoning, result } = await streamed('schema', [
      '<think>Let me th',
      refusal,
      'ink.</think>{"city":"Oslo"}',
    ]);
    expect(text).toBe('I cannot help.{"city":"Oslo"}');
    expect(reasoning).toBe('Let me think.');
    expect(result.text).toBe(text);
    expect(result.reasoning).toBe('Let me think.');
    expect(result.refusal).toBe('I cannot help.');
    expect(result.finishReason).toBe('content_filter');
  });

  it.each([
    ['schema', 'its content begun', ['```json\n{"ci', refusal, 'ty":"Oslo"}\n```']],
    ['schema', 'its opening line only', ['```json\n', refusal, '{"city":"Oslo"}\n```']],
    ['json_object', 'its opening line only', ['```json\n', refusal, '{"city":"Oslo"}\n```']],
    ['schema', 'its tag not ended', ['```js', refusal, 'on\n{"city":"Oslo"}\n```']],
  ] as const)(
    '%s: a fence split by a refusal (%s) gives its JSON, no backticks',
    async (format, _, pieces) => {
      const { text, result } = await streamed(format, [...pieces]);
      expect(text).not.toContain('`');
      expect(text.replace('I cannot help.', '')).toBe('{"city":"Oslo"}');
      expect(result.text).toBe(text);
      expect(result.refusal).toBe('I cannot help.');
    },
  );
});

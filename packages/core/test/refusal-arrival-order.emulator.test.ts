import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { type ChatRequest, createGatewayClient } from '../src/index';

// A refusal streamed (§4.8, §5.1) reads as the whole answer of the same bytes does: content the
// stream held until its JSON was known (prose, a think block before it) that came before the
// refusal is given before it; a refusal after choice 0's finish chunk still makes the result's
// finish `content_filter`; another choice's refused `stop` is `content_filter` as choice 0's is.
// The emulator serves the catalog; a stub sends the chunks (streamed) or the message (whole).

type Choice = { index?: number; delta: object; finish?: string };
const chunk = (...choices: Choice[]) =>
  `data: ${JSON.stringify({
    id: 's',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'community/json-object',
    choices: choices.map(({ index = 0, delta, finish = null }) => ({
      index,
      delta,
      finish_reason: finish,
    })),
  })}\n\n`;

/** A client whose chat streams are `chunks`, and whose whole answers have `messages`' choices. */
async function clientAnswering(chunks: string[], messages: object[]) {
  const gateway = await emulate();
  const { fetch: gatewayFetch } = gateway.connection;
  return createGatewayClient({
    ...gateway.connection,
    circuitBreaker: false,
    fetch: async (input, init) => {
      if (!String(input).endsWith('/chat/completions')) return gatewayFetch(input, init);
      if (JSON.parse(String(init?.body)).stream) {
        return new Response(`${chunks.join('')}data: [DONE]\n\n`, {
          headers: { 'content-type': 'text/event-stream' },
        });
      }
      const choices = messages.map((message, index) => ({
        index,
        message: { role: 'assistant', content: null, ...message },
        finish_reason: 'stop',
      }));
      const body = { id: 'c', object: 'chat.completion', created: 1, model: 'm', choices };
      return Response.json(body);
    },
  });
}

const ask = (format?: 'json_object' | 'schema', n?: number): ChatRequest => ({
  model: format === 'schema' ? 'community/json-schema' : 'community/json-object',
  messages: [{ role: 'user', content: 'Where?' }],
  ...(n && { n }),
  ...(format === 'json_object' && { response_format: { type: 'json_object' } }),
  ...(format === 'schema' && {
    response_format: {
      type: 'json_schema',
      json_schema: { name: 'p', schema: { type: 'object' } },
    },
  }),
});
const returned = { structuredOutput: { lastAnswer: 'returned' as const } };

/** `request` streamed: its text events (choice 0's), its finish events, its result. */
async function streamed(client: Awaited<ReturnType<typeof clientAnswering>>, request: ChatRequest) {
  const stream = await client.chatStream(request, request.model.endsWith('schema') ? returned : {});
  const texts: string[] = [];
  const finishes: string[] = [];
  for await (const event of stream) {
    if (event.type === 'text-delta' && !event.choiceIndex) texts.push(event.delta);
    if (event.type === 'finish') finishes.push(`${event.choiceIndex}:${event.reason}`);
  }
  return { texts, finishes, result: await stream.result() };
}

describe('content held before a refusal is given before it', () => {
  it.each([
    ['prose before the JSON', 'Here: {"a":1}'],
    ['a think block before the JSON', '<think>hm</think>{"a":1}'],
  ])(
    'json_object, %s: events and result in arrival order, as the whole answer',
    async (_, content) => {
      const client = await clientAnswering(
        [
          chunk({ delta: { role: 'assistant' } }),
          chunk({ delta: { content } }),
          chunk({ delta: { refusal: 'Sorry' } }),
          chunk({ delta: {}, finish: 'stop' }),
        ],
        [{ content, refusal: 'Sorry' }],
      );
      const { texts, result } = await streamed(client, ask('json_object'));
      expect(texts).toEqual([content, 'Sorry']);
      const whole = (await client.chat(ask('json_object'))).answer;
      expect(result.text).toBe(whole.text);
      expect(result.text).toBe(`${content}Sorry`);
      expect(result.finishReason).toBe('content_filter');
    },
  );

  it('a schema handed on refused: prose before the JSON comes before the refusal', async () => {
    const client = await clientAnswering(
      [
        chunk({ delta: { role: 'assistant', content: 'Here: {"a":1}' } }),
        chunk({ delta: { refusal: 'Sorry' } }),
        chunk({ delta: {}, finish: 'stop' }),
      ],
      [],
    );
    const { texts, result } = await streamed(client, ask('schema'));
    expect(texts).toEqual(['Here: {"a":1}', 'Sorry']);
    expect(result.text).toBe('Here: {"a":1}Sorry');
  });
});

describe('a refusal after the finish chunk still makes the finish content_filter', () => {
  it.each([
    ['a plain chat', undefined],
    ['json_object', 'json_object' as const],
  ])(
    '%s: the finish event said stop; the result says content_filter, as the whole answer',
    async (_, format) => {
      const client = await clientAnswering(
        [
          chunk({ delta: { role: 'assistant', content: '{"city":"Oslo"}' } }),
          chunk({ delta: {}, finish: 'stop' }),
          chunk({ delta: { refusal: 'Sorry' } }),
        ],
        [{ content: '{"city":"Oslo"}', refusal: 'Sorry' }],
      );
      const { texts, finishes, result } = await streamed(client, ask(format));
      expect(finishes).toEqual(['0:stop']);
      expect(texts).toEqual(['{"city":"Oslo"}', 'Sorry']);
      expect(result).toMatchObject({
        text: '{"city":"Oslo"}Sorry',
        refusal: 'Sorry',
        finishReason: 'content_filter',
        sentFinishReason: 'stop',
      });
      const whole = (await client.chat(ask(format))).answer;
      expect(whole.finishReason).toBe(result.finishReason);
    },
  );
});

describe('with n > 1, a refused choice other than 0 finishes content_filter', () => {
  it.each([
    ['a plain chat', undefined],
    ['json_object', 'json_object' as const],
  ])(
    '%s: choice 1 refused, its finish event is content_filter, as the whole answer',
    async (_, format) => {
      const client = await clientAnswering(
        [
          chunk(
            { delta: { role: 'assistant', content: '{"a":0}' } },
            { index: 1, delta: { role: 'assistant', content: '{"a":1}' } },
          ),
          chunk({ index: 1, delta: { refusal: 'Sorry' } }),
          chunk({ delta: {}, finish: 'stop' }, { index: 1, delta: {}, finish: 'stop' }),
        ],
        [{ content: '{"a":0}' }, { content: '{"a":1}', refusal: 'Sorry' }],
      );
      const { finishes, result } = await streamed(client, ask(format, 2));
      expect(finishes).toEqual(['0:stop', '1:content_filter']);
      expect(result.finishReason).toBe('stop');
      const whole = await client.chat(ask(format, 2));
      expect(whole.choices?.map((choice) => choice.finishReason)).toEqual([
        'stop',
        'content_filter',
      ]);
    },
  );
});

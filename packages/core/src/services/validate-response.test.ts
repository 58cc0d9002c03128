import { describe, expect, it } from 'vitest';
import { withCatalog } from '../../test/helpers';
import { chatCompletionProblem } from '../chat/validate-chat-response';
import { createGatewayClient } from '../client/client';
import { type GatewayError, isGatewayError } from '../errors/errors';
import { embeddingsProblem, inInputOrder, serviceAnswerProblem } from './validate-service-response';

const message = (content: unknown = 'hi') => ({ role: 'assistant', content });
const choice = (extra: Record<string, unknown> = {}) => ({
  index: 0,
  message: message(),
  finish_reason: 'stop',
  ...extra,
});

describe('chatCompletionProblem', () => {
  it('accepts the spec shape, null content with tool calls, and extra fields', () => {
    expect(chatCompletionProblem({ choices: [choice()], extra: 1 })).toBeUndefined();
    const toolCall = { id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } };
    expect(
      chatCompletionProblem({
        choices: [choice({ message: { ...message(null), tool_calls: [toolCall] } })],
        usage: { prompt_tokens: 1 },
      }),
    ).toBeUndefined();
  });

  it.each([
    [null, 'is not a JSON object'],
    [{ choices: 'x' }, 'has no `choices` array'],
    [{ choices: [[]] }, 'choices[0] that is not an object'],
    [{ choices: [-5e-324] }, 'choices[0] that is not an object'],
    [{ choices: [{ index: 0 }] }, 'choices[0] without a `message` object'],
    [{ choices: [choice(), choice({ message: 'hi' })] }, 'choices[1] without a `message`'],
    [{ choices: [choice({ message: message(5) })] }, 'choices[0].message.content'],
    [
      { choices: [choice({ message: { ...message(), tool_calls: {} } })] },
      'has a choices[0].message.tool_calls that is not an array',
    ],
    [
      { choices: [choice({ message: { ...message(), tool_calls: [{}] } })] },
      'has a choices[0].message.tool_calls[0] that is not {function:',
    ],
    [{ choices: [choice({ finish_reason: 1 })] }, 'finish_reason'],
    [{ choices: [choice()], usage: 3 }, '`usage`'],
  ])('%j: %s', (data, problem) => {
    expect(chatCompletionProblem(data)).toContain(problem);
  });
});

describe('embeddingsProblem', () => {
  const item = (index: unknown, embedding: unknown = [0.1, 0.2]) => ({ index, embedding });
  it('accepts one item per input with in-range indexes', () => {
    expect(embeddingsProblem({ data: [item(1), item(0)] }, 2)).toBeUndefined();
  });
  it('takes an item without `index` as the input at its list position', () => {
    const bare = () => ({ embedding: [0.1, 0.2] });
    expect(embeddingsProblem({ data: [bare(), bare()] }, 2)).toBeUndefined();
    expect(embeddingsProblem({ data: [bare(), item(1)] }, 2)).toBeUndefined();
    // A present index still has to be an input position; a mix must not land twice on one input.
    expect(embeddingsProblem({ data: [bare(), item(0)] }, 2)).toContain('two vectors for input 0');
    expect(embeddingsProblem({ data: [item(null)] }, 1)).toBeUndefined();
    expect(embeddingsProblem({ data: [item(2), bare()] }, 2)).toContain('data[0].index');
  });
  it('only reads the answer; inInputOrder fills the missing indexes in and orders by them', () => {
    const bare = (x: number) => ({ embedding: [x] });
    const answer: { data: Record<string, unknown>[] } = {
      data: [bare(0.1), item(null, [0.2]), item(3, [0.3]), item(2, [0.4])],
    };
    const refused = { data: [bare(0.1), item(0, [0.2])] };
    const given = structuredClone([answer, refused]);
    expect(embeddingsProblem(answer, 4)).toBeUndefined();
    expect(embeddingsProblem(refused, 2)).toContain('two vectors for input 0');
    expect([answer, refused]).toEqual(given);
    inInputOrder(answer);
    expect(answer.data.map((entry) => entry.index)).toEqual([0, 1, 2, 3]);
    expect(answer.data.map((entry) => entry.embedding)).toEqual([[0.1], [0.2], [0.4], [0.3]]);
  });
  it.each([
    [{}, 1, 'no `data` array'],
    [{ data: [item(0)] }, 2, 'holds 1 embedding(s) for 2'],
    [{ data: [null] }, 1, 'data[0] that is not an object'],
    [{ data: [item(1)] }, 1, 'data[0].index'],
    [{ data: [item('0')] }, 1, 'data[0].index'],
    [{ data: [item(0, [1, '2'])] }, 1, 'data[0].embedding'],
    [{ data: [item(0, {})] }, 1, 'data[0].embedding'],
    [{ data: [item(0, [1, Number.POSITIVE_INFINITY])] }, 1, 'non-finite'],
    [{ data: [item(0, [Number.NaN])] }, 1, 'non-finite'],
    [{ data: [item(0, [])] }, 1, 'empty data[0].embedding'],
    [{ data: [item(0, [1, 2]), item(1, [1, 2, 3])] }, 2, 'different lengths'],
    [{ data: [item(0), item(0)] }, 2, 'two vectors for input 0'],
  ])('%j for %i input(s): %s', (data, count, problem) => {
    expect(embeddingsProblem(data, count)).toContain(problem);
  });
});

it('embeddings answer holding 1e999 (parsed as Infinity) is invalid_response', async () => {
  const client = createGatewayClient({
    baseURL: `https://vectors-${Math.random()}.test`,
    apiKey: 'k-vectors',
    maxRetries: 0,
    fetch: async () =>
      new Response('{"data":[{"index":0,"embedding":[0.1,1e999]}]}', {
        headers: { 'content-type': 'application/json' },
      }),
  });
  await expect(client.embed({ model: 'm', input: ['a'] })).rejects.toMatchObject({
    code: 'invalid_response',
  });
});

describe('serviceAnswerProblem', () => {
  it('requires the string fields of each service', () => {
    expect(serviceAnswerProblem('translation', { text: 'x', target_language: 'uk' })).toBe(
      undefined,
    );
    // (A translation's `target_language` is the request's when missing: filledFromRequest.)
    expect(serviceAnswerProblem('translation', { text: 'x' })).toBe(undefined);
    expect(serviceAnswerProblem('translation', { target_language: 'uk' })).toContain('`text`');
    expect(serviceAnswerProblem('ocr', { text: 1 })).toContain('`text`');
    expect(serviceAnswerProblem('speech_to_text', [])).toContain('not a JSON object');
  });
});

/** A client whose every request is answered 200 with this JSON body. */
function clientAnswering(body: string) {
  let sent = 0;
  const client = createGatewayClient({
    baseURL: `https://shape-${Math.random()}.test/v1`,
    apiKey: 'sk-shape-test-key',
    maxRetries: 0,
    // (Core gates each chat call against GET /models: the stub lists the model; `sent` counts
    // the rest.)
    fetch: withCatalog(async () => {
      sent++;
      return new Response(body, { headers: { 'content-type': 'application/json' } });
    }),
  });
  return { client, sent: () => sent };
}

async function failure(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isGatewayError(error)) throw new Error(`expected a GatewayError, got ${String(error)}`);
  return error;
}

describe('2xx answers of the wrong shape are invalid_response with the raw body', () => {
  it.each(['{"choices":[[]]}', '{"choices":[-5e-324]}', '{"choices":[{"index":0}]}'])(
    'chat %s',
    async (body) => {
      const { client, sent } = clientAnswering(body);
      const error = await failure(
        client.chat({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
      );
      expect(error.code).toBe('invalid_response');
      expect(error.message).toMatch(/^The chat completion has a choices\[0\]/);
      expect(error.body).toBe(body);
      expect(error.status).toBe(200);
      expect(error.requestedModel).toBe('m');
      expect(sent()).toBe(1);
    },
  );

  it('translation, OCR and transcription without text', async () => {
    const body = '{"target_language":"uk"}';
    const translation = await failure(
      clientAnswering(body).client.translate({ input: 'a', target_language: 'uk' }),
    );
    expect(translation.code).toBe('invalid_response');
    expect(translation.message).toContain('`text`');
    expect(translation.body).toBe(body);
    const ocr = await failure(clientAnswering('{"txt":"x"}').client.ocr({ image: 'iVBORw0K' }));
    expect(ocr.code).toBe('invalid_response');
    const audio = new Uint8Array([0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x41, 0x56, 0x45]);
    const transcription = await failure(
      clientAnswering('{"text":null}').client.transcribe({ audio }),
    );
    expect(transcription.code).toBe('invalid_response');
  });

  it('the raw body is redacted when it echoes the key', async () => {
    const body = '{"choices":[{"index":0,"echo":"sk-shape-test-key"}]}';
    const error = await failure(
      clientAnswering(body).client.chat({ model: 'm', messages: [{ role: 'user', content: 'x' }] }),
    );
    expect(error.body).toBe('{"choices":[{"index":0,"echo":"[redacted]"}]}');
    expect(error.data).toBeUndefined();
  });
});

import {
  caught,
  chatsAnsweredBy,
  choiceZeroChunk as chunk,
  emulate,
  type StreamChunk,
  streamedAnswer,
} from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { type ChatRequest, createGatewayClient } from '../src/index';

// A refused structured answer streamed (§4.8): its refusal's pieces are given as they come, among
// the JSON's; the result's text is the events' text (the refusal once, never added again); the
// JSON is read from the content pieces alone; a refusal after choice 0's finish fails the answer
// as refused (its finish, given already, said `stop`). The emulator serves the catalog
// (`community/json-schema` by `json_schema`); a stub sends the chunks the emulator does not.

/** A client whose chat streams are `chunks`, then `[DONE]`. */
async function clientStreaming(chunks: StreamChunk[]) {
  const { connection } = await emulate();
  const fetch = chatsAnsweredBy(connection, (body) => streamedAnswer(body.model, chunks));
  return createGatewayClient({ ...connection, circuitBreaker: false, fetch });
}

const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
const asking = (jsonObject: boolean): ChatRequest => ({
  model: jsonObject ? 'community/json-object' : 'community/json-schema',
  messages: [{ role: 'user', content: 'Where?' }],
  response_format: jsonObject
    ? { type: 'json_object' }
    : { type: 'json_schema', json_schema: { name: 'place', schema } },
});
const returned = { structuredOutput: { lastAnswer: 'returned' as const } };

/** The stream of `chunks` asked by `jsonObject` or a schema: its events' text, finish, result. */
async function streamed(chunks: StreamChunk[], jsonObject = false) {
  const client = await clientStreaming(chunks);
  const stream = await client.chatStream(asking(jsonObject), jsonObject ? {} : returned);
  let text = '';
  const finishes: string[] = [];
  for await (const event of stream) {
    if (event.type === 'text-delta') text += event.delta;
    if (event.type === 'finish') finishes.push(event.reason);
  }
  return { text, finishes, result: await stream.result() };
}

describe('a streamed refusal keeps its arrival order, once', () => {
  it.each([
    ['a schema', false],
    ['json_object', true],
  ])(
    '%s: refusal pieces among the JSON pieces are in the result once, as in the events',
    async (_, jsonObject) => {
      const { text, finishes, result } = await streamed(
        [
          chunk({ role: 'assistant', content: '{"city":' }),
          chunk({ refusal: 'Sorry, ' }),
          chunk({ content: '"Oslo"}' }),
          chunk({ refusal: 'no.' }),
          chunk({}, 'stop'),
        ],
        jsonObject,
      );
      expect(text).toBe('{"city":Sorry, "Oslo"}no.');
      expect(result.text).toBe(text);
      expect(result.refusal).toBe('Sorry, no.');
      expect(result.finishReason).toBe('content_filter');
      expect(finishes).toEqual(['content_filter']);
    },
  );

  it('a refusal before unfinished JSON: given first, never spliced into the JSON', async () => {
    const { text, result } = await streamed([
      chunk({ role: 'assistant', refusal: "Sorry, I can't" }),
      chunk({ content: '{"city":"Os' }),
      chunk({}, 'stop'),
    ]);
    expect(text).toBe(`Sorry, I can't{"city":"Os`);
    expect(result.text).toBe(text);
    expect(result.finishReason).toBe('content_filter');
  });

  it('a refused answer handed on is never checked: its JSON is read from the content alone', async () => {
    const { result } = await streamed([
      chunk({ role: 'assistant', content: '{"city":' }),
      chunk({ refusal: 'Sorry' }),
      chunk({ content: '"Oslo"}' }),
      chunk({}, 'stop'),
    ]);
    expect(result.structured).toBeUndefined();
    expect(result.finishReason).toBe('content_filter');
  });

  it('a refusal after the finish chunk is given, and the answer fails as refused', async () => {
    const client = await clientStreaming([
      chunk({ role: 'assistant', content: '{"city":"Oslo"}' }),
      chunk({}, 'stop'),
      chunk({ refusal: 'Sorry' }),
    ]);
    const stream = await client.chatStream(asking(false), returned);
    let text = '';
    const error = await caught(async () => {
      for await (const event of stream) if (event.type === 'text-delta') text += event.delta;
    });
    expect(text).toBe('{"city":"Oslo"}Sorry');
    expect(error).toMatchObject({ code: 'invalid_structured_output' });
    expect(String((error as Error).message)).toContain('refused');
    await expect(stream.result()).rejects.toMatchObject({ code: 'invalid_structured_output' });
  });
});

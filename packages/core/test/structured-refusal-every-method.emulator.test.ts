import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../src/index';
import {
  askingForAPlace as asking,
  clientAnswering,
  RETURNED as returned,
} from './structured-place-asks';

// A refused structured answer handed on unchecked (`lastAnswer: 'returned'`, §4.8), whole and
// streamed alike, on every method: its refusal's words read once, after the JSON (never inside
// it: a fence's content, a forced call's arguments are the JSON alone), its `refusal` kept, its
// finish `content_filter` (also where it came with a call, `tool_calls`). The emulator serves the
// catalog (`community/json-schema` by `json_schema`, `community/tools` by a forced call); a stub
// sends the chat bytes the emulator does not.

type Message = Record<string, unknown>;

/** `model`'s answer `message` (finish `finish`), whole and streamed: text, refusal, finish. */
async function bothWays(model: string, message: Message, finish = 'stop', jsonObject = false) {
  const client = await clientAnswering(() => ({ message, finish }));
  const request: ChatRequest = jsonObject
    ? { ...asking(model), response_format: { type: 'json_object' } }
    : asking(model);
  const options = jsonObject ? {} : returned;
  const whole = await client.chat(request, options);
  const stream = await client.chatStream(request, options);
  let deltas = '';
  let finished: string | undefined;
  for await (const event of stream) {
    if (event.type === 'text-delta') deltas += event.delta;
    if (event.type === 'finish') finished = event.reason;
  }
  const streamed = await stream.result();
  const read = (answer: typeof streamed) => ({
    text: answer.text,
    refusal: answer.refusal,
    finish: answer.finishReason,
  });
  expect(whole.structured).toBeUndefined();
  expect(whole.answer.refusal).toBeDefined();
  expect(streamed.structured).toBeUndefined();
  return { whole: read(whole.answer), streamed: read(streamed), deltas, finished };
}

const REFUSAL = "I can't help with that.";

describe('a refused structured answer keeps its words, once, whole and streamed', () => {
  it('served by tools: the refusal is its text (it was lost whole)', async () => {
    const both = await bothWays('community/tools', { content: null, refusal: REFUSAL });
    const read = { text: REFUSAL, refusal: REFUSAL, finish: 'content_filter' };
    expect(both.whole).toEqual(read);
    expect(both.streamed).toEqual(read);
    expect(both.deltas).toBe(REFUSAL);
    expect(both.finished).toBe('content_filter');
  });

  it("fenced JSON then a refusal: the fence's content, then the refusal's words", async () => {
    const content = '```json\n{"city":"Oslo"}\n```';
    const both = await bothWays('community/json-schema', { content, refusal: REFUSAL });
    const read = { text: `{"city":"Oslo"}${REFUSAL}`, refusal: REFUSAL, finish: 'content_filter' };
    expect(both.whole).toEqual(read);
    expect(both.streamed).toEqual(read);
    expect(both.deltas).toBe(read.text);
  });

  it('unfenced JSON then a refusal: the JSON, then the refusal, once', async () => {
    const both = await bothWays('community/json-schema', {
      content: '{"city":"No."}',
      refusal: 'No.',
    });
    const read = { text: '{"city":"No."}No.', refusal: 'No.', finish: 'content_filter' };
    expect(both.whole).toEqual(read);
    expect(both.streamed).toEqual(read);
    expect(both.deltas).toBe(read.text);
  });

  it('a refusal with a call (finish tool_calls) finishes content_filter both ways', async () => {
    const call = { id: 'c1', type: 'function', function: { name: 'p', arguments: '{}' } };
    const message = { content: null, refusal: 'Sorry', tool_calls: [call] };
    const both = await bothWays('community/json-schema', message, 'tool_calls');
    const read = { text: 'Sorry', refusal: 'Sorry', finish: 'content_filter' };
    expect(both.whole).toEqual(read);
    expect(both.streamed).toEqual(read);
    expect(both.deltas).toBe('Sorry');
    expect(both.finished).toBe('content_filter');
  });

  it.each([
    ['a schema served by json_object', false],
    ['json_object asked', true],
  ])('%s: fenced JSON then a refusal, the same both ways', async (_, jsonObject) => {
    const content = '```json\n{"city":"Oslo"}\n```';
    const message = { content, refusal: REFUSAL };
    const both = await bothWays('community/json-object', message, 'stop', jsonObject);
    const read = { text: `{"city":"Oslo"}${REFUSAL}`, refusal: REFUSAL, finish: 'content_filter' };
    expect(both.whole).toEqual(read);
    expect(both.streamed).toEqual(read);
    expect(both.deltas).toBe(read.text);
  });
});

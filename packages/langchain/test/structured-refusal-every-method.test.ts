// withStructuredOutput({ includeRaw: true }) on a refused answer (OpenAI's `refusal`), invoke and
// stream alike, on every method: the raw message's content the JSON then the refusal's words once
// (a whole answer's content the JSON alone, the words in `additional_kwargs.refusal`; a
// `tools`-served refusal is its content), no parsed value, its finish content_filter (also
// when the refusal came with a call, `tool_calls`).
import { emulate, oneMessageAnswer } from '@infergate/emulator/testing';
import type { AIMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel } from '../src/index';
import { intercepting } from './helpers';

const Place = z.object({ city: z.string() });
type RawResult = { raw: AIMessage; parsed: unknown };
const REFUSAL = "I can't help with that.";

/** `model` on the emulator, its chat answered with `message` and `finish`, whole or streamed. */
async function answering(model: string, message: Record<string, unknown>, finish = 'stop') {
  const connection = intercepting(await emulate(), async (request) => {
    if (!request.url.endsWith('/chat/completions')) return undefined;
    const body = (await request.json()) as { stream?: boolean };
    return oneMessageAnswer(model, message, finish, body.stream === true);
  });
  const chat = new GatewayChatModel(model, { ...connection, maxRetries: 0 });
  return chat.withStructuredOutput(Place, { includeRaw: true });
}

/** The raw message's content and finish, and the parsed value, by invoke and by stream. */
async function bothWays(model: string, message: Record<string, unknown>, finish?: string) {
  const structured = await answering(model, message, finish);
  const read = ({ raw, parsed }: RawResult) => ({
    content: raw.content,
    finish: raw.response_metadata.finish_reason,
    parsed,
  });
  const whole = read((await structured.invoke('Where?')) as RawResult);
  let last: RawResult | undefined;
  for await (const chunk of await structured.stream('Where?')) last = chunk as RawResult;
  return { whole, streamed: read(last!) };
}

describe('withStructuredOutput({ includeRaw: true }) on a refused answer: its words once', () => {
  it('served by tools: the refusal is the content', async () => {
    const both = await bothWays('community/tools', { content: null, refusal: REFUSAL });
    const read = { content: REFUSAL, finish: 'content_filter', parsed: null };
    expect(both).toEqual({ whole: read, streamed: read });
  });

  it("fenced JSON then a refusal: the fence's content, then the refusal's words", async () => {
    const content = '```json\n{"city":"Oslo"}\n```';
    const both = await bothWays('community/json-schema', { content, refusal: REFUSAL });
    const read = { content: `{"city":"Oslo"}${REFUSAL}`, finish: 'content_filter', parsed: null };
    // (A stream's refusal pieces come as text: core does not tell them apart from the content.)
    expect(both).toEqual({ whole: { ...read, content: '{"city":"Oslo"}' }, streamed: read });
    const whole = (await (
      await answering('community/json-schema', { content, refusal: REFUSAL })
    ).invoke('Where?')) as RawResult;
    expect(whole.raw.additional_kwargs.refusal).toBe(REFUSAL);
  });

  it('a refusal with a call finishes content_filter both ways', async () => {
    const call = { id: 'c1', type: 'function', function: { name: 'p', arguments: '{}' } };
    const message = { content: null, refusal: 'Sorry', tool_calls: [call] };
    const both = await bothWays('community/json-schema', message, 'tool_calls');
    const read = { content: 'Sorry', finish: 'content_filter', parsed: null };
    expect(both).toEqual({ whole: read, streamed: read });
  });
});

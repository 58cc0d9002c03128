import { type EmulatedGateway, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { ChatRequest, ChatStreamEvent } from '../src/index';
import { clientOn } from './helpers';

// A streamed structured answer whose server names a tool call in a later chunk than the one that
// opens it (the first piece carries an id and an index, no function name). Which call it is — the
// schema's, an offered tool's, one nobody offered — shows only with its name, so its pieces wait
// for it: the schema call's text keeps its start, a stray call's pieces never reach the caller,
// and the stream's events say what its `result()` says (docs/gateway-protocol.md §4.8).

const CITY = {
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
};
const weather = {
  type: 'function' as const,
  function: {
    name: 'weather',
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
  },
};

/** `gateway`'s connection, `model` streaming `deltas` then `finish`; other calls the emulator's. */
function streaming(gateway: EmulatedGateway, model: string, deltas: object[], finish: string) {
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.endsWith('/chat/completions')) return gateway.fetch(request);
    const chunk = (delta: object, reason: string | null) =>
      `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, finish_reason: reason }] })}\n\n`;
    const text = `${chunk({ role: 'assistant' }, null)}${deltas.map((delta) => chunk(delta, null)).join('')}${chunk({}, finish)}data: [DONE]\n\n`;
    const headers = { 'x-service-model': model, 'content-type': 'text/event-stream' };
    return new Response(text, { headers });
  };
  return { connection: { ...gateway.connection, fetch } };
}

/** A piece of call `index`: its first (`id`) or a later one, named or not. */
const piece = (index: number, fields: { id?: string; name?: string; arguments?: string }) => {
  const { id, ...fn } = fields;
  return { tool_calls: [{ index, ...(id ? { id, type: 'function' } : {}), function: fn }] };
};

/** The stream's events and its result. */
async function streamed(
  deltas: object[],
  request: Omit<ChatRequest, 'messages'> & { model: string },
  finish = 'tool_calls',
) {
  const gateway = streaming(await emulate(), request.model, deltas, finish);
  const stream = await clientOn(gateway).chatStream({
    messages: [{ role: 'user', content: 'Where is "Oslo"?' }],
    ...request,
  } as ChatRequest);
  const events: ChatStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  const result = await stream.result();
  const calls = new Map<number, string>();
  for (const event of events) {
    if (event.type === 'tool-call-delta')
      calls.set(event.call, (calls.get(event.call) ?? '') + event.argumentsDelta);
  }
  return {
    result,
    text: events.map((event) => (event.type === 'text-delta' ? event.delta : '')).join(''),
    calls: [...calls.values()],
    finish: events.flatMap((event) => (event.type === 'finish' ? [event.reason] : [])),
  };
}

const asJsonSchema = (schema: object) => ({
  type: 'json_schema' as const,
  json_schema: { name: 'resp', schema },
});

describe('a structured stream whose tool call is named after its first piece', () => {
  it('a call of a tool nobody offered, named late, beside JSON text: left out, finish stop', async () => {
    const { result, text, calls, finish } = await streamed(
      [
        { content: '{"city":"Oslo"}' },
        piece(0, { id: 's1', arguments: '{}' }),
        piece(0, { name: 'resp' }),
      ],
      { model: 'community/general', response_format: asJsonSchema(CITY), tools: [weather] },
    );
    expect(calls).toEqual([]);
    expect(finish).toEqual(['stop']);
    expect([result.toolCalls, result.finishReason, result.structured?.value]).toEqual([
      [],
      'stop',
      { city: 'Oslo' },
    ]);
    expect(text).toBe(result.text);
  });

  it('a stray call named late beside a call of an offered tool: only the offered one given', async () => {
    const { result, calls, finish } = await streamed(
      [
        piece(0, { id: 's1', arguments: '{"ci' }),
        piece(1, { id: 'w1', name: 'weather', arguments: '{"city":' }),
        piece(0, { name: 'resp', arguments: 'ty":"Oslo"}' }),
        piece(1, { arguments: '"Oslo"}' }),
      ],
      { model: 'community/general', response_format: asJsonSchema(CITY), tools: [weather] },
    );
    expect(result.toolCalls.map((call) => [call.name, call.arguments])).toEqual([
      ['weather', '{"city":"Oslo"}'],
    ]);
    expect(calls).toEqual(['{"city":"Oslo"}']);
    expect(finish).toEqual([result.finishReason]);
  });

  it('a call never named is left out as the answer leaves it out', async () => {
    const { result, text, calls, finish } = await streamed(
      [{ content: '{"city":"Oslo"}' }, piece(0, { id: 's1', arguments: '{}' })],
      { model: 'community/general', response_format: asJsonSchema(CITY), tools: [weather] },
    );
    expect(calls).toEqual([]);
    expect([finish, result.finishReason, result.toolCalls]).toEqual([['stop'], 'stop', []]);
    expect(text).toBe(result.text);
  });

  it('tools: the schema call’s pieces before its name are part of the text', async () => {
    const { result, text, calls, finish } = await streamed(
      [
        piece(0, { id: 'c1', arguments: '{"ci' }),
        piece(0, { name: 'resp', arguments: 'ty":"Oslo"}' }),
      ],
      { model: 'community/tools', response_format: asJsonSchema(CITY) },
    );
    expect(result.structured).toMatchObject({ value: { city: 'Oslo' }, method: 'tools' });
    expect([text, calls, finish]).toEqual([result.text, [], ['stop']]);
  });

  it('tools, a wrapped root: the held arguments keep their start, the text is the value', async () => {
    const array = { type: 'array', items: { type: 'string' } };
    const { result, text, finish } = await streamed(
      [
        piece(0, { id: 'c1', arguments: '{"val' }),
        piece(0, { name: 'resp', arguments: 'ue":["Oslo"]}' }),
      ],
      { model: 'community/tools', response_format: asJsonSchema(array) },
    );
    expect(result.structured).toMatchObject({ value: ['Oslo'], method: 'tools' });
    expect([text, finish]).toEqual(['["Oslo"]', ['stop']]);
    expect(text).toBe(result.text);
  });
});

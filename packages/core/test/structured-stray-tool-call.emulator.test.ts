import { type EmulatedGateway, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../src/index';
import { askingPlace, caught, clientOn } from './helpers';

// A structured call answered by a call of a tool nobody offered (a model trained on function
// calling that "calls" the schema by its name): no tool step of the caller's, since the request
// offered no such tool. The answer is read for its JSON like any other: with none, the hop fails
// (`invalid_structured_output`) and the next model is tried; such a call never reaches the
// caller (docs/gateway-protocol.md §4.8 item 6).

const strayCall = { id: 'c1', type: 'function', function: { name: 'place', arguments: '{}' } };
const weather = {
  type: 'function' as const,
  function: {
    name: 'weather',
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
  },
};

/**
 * `gateway`'s connection, `model` answering with `message` (its stream: the same, its content and
 * each call one delta), finish `tool_calls` when it has calls; the models sent.
 */
function answering(
  gateway: EmulatedGateway,
  message: { content: string | null; tool_calls?: object[] },
  model = 'community/json-schema',
) {
  const sent: string[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.endsWith('/chat/completions')) return gateway.fetch(request);
    const body = (await request.clone().json()) as { model: string; stream?: boolean };
    sent.push(body.model);
    if (body.model !== model) return gateway.fetch(request);
    const finish = message.tool_calls ? 'tool_calls' : 'stop';
    const headers = { 'x-service-model': body.model };
    if (!body.stream) {
      const choice = {
        index: 0,
        message: { role: 'assistant', ...message },
        finish_reason: finish,
      };
      const completion = { id: 'x', object: 'chat.completion', created: 1, model: body.model };
      return Response.json({ ...completion, choices: [choice] }, { headers });
    }
    const deltas: object[] = [
      ...(message.content ? [{ content: message.content }] : []),
      ...(message.tool_calls ?? []).map((call, index) => ({ tool_calls: [{ index, ...call }] })),
    ];
    const chunk = (delta: object, reason: string | null) =>
      `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 1, model: body.model, choices: [{ index: 0, delta, finish_reason: reason }] })}\n\n`;
    const text = `${deltas.map((delta) => chunk(delta, null)).join('')}${chunk({}, finish)}data: [DONE]\n\n`;
    return new Response(text, { headers: { ...headers, 'content-type': 'text/event-stream' } });
  };
  return { connection: { ...gateway.connection, fetch }, sent };
}

const fallback = { fallbackModels: ['community/general'] };
const asked = askingPlace('community/json-schema') as ChatRequest;

describe('a structured answer that calls a tool nobody offered', () => {
  it('chat: the hop fails, the fallback answers, checked', async () => {
    const gateway = answering(await emulate(), { content: null, tool_calls: [strayCall] });
    const result = await clientOn(gateway).chat(asked, fallback);
    expect(gateway.sent).toEqual(['community/json-schema', 'community/general']);
    expect(result.structured?.value).toMatchObject({ city: 'Oslo' });
    expect(result.answer.toolCalls).toEqual([]);
    expect(result.route.hops).toMatchObject([
      { model: 'community/json-schema', outcome: 'failed', reason: 'invalid_structured_output' },
      { model: 'community/general', outcome: 'answered', structured: { checked: true } },
    ]);
  });

  it('chatStream: the hop fails before any content, the fallback answers, checked', async () => {
    const gateway = answering(await emulate(), { content: null, tool_calls: [strayCall] });
    const stream = await clientOn(gateway).chatStream(asked, fallback);
    const types = new Set<string>();
    for await (const event of stream) types.add(event.type);
    const result = await stream.result();
    expect(types.has('tool-call-delta')).toBe(false);
    expect(result.structured?.value).toMatchObject({ city: 'Oslo' });
    expect(gateway.sent).toEqual(['community/json-schema', 'community/general']);
    expect(stream.route.hops.map((hop) => hop.outcome)).toEqual(['failed', 'answered']);
  });

  it('on the last model: invalid_structured_output naming the call', async () => {
    const gateway = answering(await emulate(), { content: null, tool_calls: [strayCall] });
    const client = clientOn(gateway);
    for (const call of [() => client.chat(asked), () => client.chatStream(asked)]) {
      const error = await caught(call);
      expect(error.code).toBe('invalid_structured_output');
      expect(error.message).toContain(
        'the answer is empty; it called "place" instead, which the request did not offer',
      );
    }
  });

  it('a request with tools of its own: a call of another tool is no step of its loop', async () => {
    // Models that serve a schema beside tools of the request's own.
    const own = { ...askingPlace('community/general'), tools: [weather] } as ChatRequest;
    const other = { fallbackModels: ['pool-a/llama-3-8b'] };
    const message = { content: null, tool_calls: [strayCall] };
    const gateway = answering(await emulate(), message, 'community/general');
    const result = await clientOn(gateway).chat(own, other);
    expect(gateway.sent).toEqual(['community/general', 'pool-a/llama-3-8b']);
    expect(result.route.hops.map((hop) => hop.outcome)).toEqual(['failed', 'answered']);
    // A call of its own tool beside it: a step of its loop, handed on without the other.
    const weatherCall = { ...strayCall, id: 'c2', function: { name: 'weather', arguments: '{}' } };
    const calls = { content: null, tool_calls: [strayCall, weatherCall] };
    const both = answering(await emulate(), calls, 'community/general');
    const step = await clientOn(both).chat(own, other);
    expect(step.answer.toolCalls.map((call) => call.name)).toEqual(['weather']);
    expect(step.response.choices[0]?.message.tool_calls?.length).toBe(1);
    expect(step.route.hops).toEqual([
      {
        model: 'community/general',
        outcome: 'answered',
        structured: { method: 'json_schema', checked: false },
      },
    ]);
    const stream = await clientOn(both).chatStream(own, other);
    const names: string[] = [];
    for await (const event of stream) {
      if (event.type === 'tool-call-delta' && event.name) names.push(event.name);
    }
    expect(names).toEqual(['weather']);
    expect((await stream.result()).toolCalls.map((call) => call.name)).toEqual(['weather']);
  });

  it('JSON beside the call: the answer, checked, without the call (finish stop)', async () => {
    const json = '{"city":"Oslo","kind":"town","where":{"country":"Norway","rank":1}}';
    const gateway = answering(await emulate(), { content: json, tool_calls: [strayCall] });
    const client = clientOn(gateway);
    const result = await client.chat(asked);
    expect(result.structured?.value).toEqual(JSON.parse(json));
    expect(result.answer.toolCalls).toEqual([]);
    expect(result.answer.finishReason).toBe('stop');
    const stream = await client.chatStream(asked);
    const types = new Set<string>();
    for await (const event of stream) types.add(event.type);
    expect(types.has('tool-call-delta')).toBe(false);
    const streamed = await stream.result();
    expect([streamed.text, streamed.toolCalls, streamed.finishReason]).toEqual([json, [], 'stop']);
  });
});

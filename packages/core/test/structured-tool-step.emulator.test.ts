import { caught, type EmulatedGateway, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { type GatewayEvent, isGatewayError } from '../src/index';
import { clientOn, only } from './helpers';

// A tool loop with a schema (ai's generateText with tools and `output`, LangChain's createAgent
// with a response format): the schema goes with every step, and a step that calls the caller's
// own tools is not the structured answer yet. It is handed on as it came, unchecked; the step
// after the tool results is the one checked (docs/gateway-protocol.md §4.8).
const schema = {
  type: 'object',
  properties: { city: { type: 'string' }, celsius: { type: 'number' } },
  required: ['city', 'celsius'],
};
const weather = {
  type: 'function' as const,
  function: {
    name: 'weather',
    description: 'Current weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};
const step = {
  model: 'community/general',
  messages: [{ role: 'user' as const, content: 'Use weather for "Lviv"' }],
  tools: [weather],
  response_format: { type: 'json_schema' as const, json_schema: { name: 'forecast', schema } },
};

describe('a step of the caller’s tool loop in a structured call', () => {
  it('chat: the tool call is handed on unchecked; the answer after the tool result is checked', async () => {
    const events: GatewayEvent[] = [];
    const client = clientOn(await emulate(), {
      onEvent: (event) => {
        if (event.operation === 'chat') events.push(event);
      },
    });
    const first = await client.chat(step);
    expect(first.answer.toolCalls.map((call) => call.name)).toEqual(['weather']);
    expect(first.structured).toBeUndefined();
    expect(first.route.hops).toEqual([
      {
        model: 'community/general',
        outcome: 'answered',
        structured: { method: 'json_schema', checked: false },
      },
    ]);

    const call = first.answer.toolCalls[0]!;
    const second = await client.chat({
      ...step,
      messages: [
        ...step.messages,
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: call.id,
              type: 'function',
              function: { name: 'weather', arguments: call.arguments },
            },
          ],
        },
        { role: 'tool', tool_call_id: call.id, content: '{"city":"Lviv","celsius":21}' },
      ],
    });
    expect(second.structured).toEqual({
      value: { city: 'Lviv', celsius: 21 },
      method: 'json_schema',
    });
    expect(second.route.hops[0]).toMatchObject({ structured: { checked: true } });
    // Each call's `done` event says the same.
    expect(only(events, 'done').map((event) => event.structured)).toEqual([
      { method: 'json_schema', checked: false },
      { method: 'json_schema', checked: true },
    ]);
  });

  it('chatStream: the streamed tool call is handed on unchecked, the stream ends well', async () => {
    const client = clientOn(await emulate());
    const stream = await client.chatStream(step);
    const result = await stream.result();
    expect(result.toolCalls.map((call) => call.name)).toEqual(['weather']);
    expect(result.structured).toBeUndefined();
    expect(stream.route.hops.at(-1)).toMatchObject({
      outcome: 'answered',
      structured: { method: 'json_schema', checked: false },
    });
  });

  it('chatStream: a tool step’s text comes as it was sent, its fence too; the answer’s JSON alone', async () => {
    const toolStep = [
      { content: 'Let me check ```json\n{"city":' },
      { content: '"Lviv"}\n``` first.' },
      { tool_calls: [{ index: 0, id: 'c1', type: 'function', function: weatherCall }] },
    ];
    const answer = [
      { content: 'Done.\n```json\n{"city":"Lviv",' },
      { content: '"celsius":21}\n```' },
    ];
    const client = clientOn(scripted(await emulate(), [toolStep, answer]));
    const texts: string[] = [];
    for (let i = 0; i < 2; i++) {
      const stream = await client.chatStream(step);
      let text = '';
      for await (const event of stream) if (event.type === 'text-delta') text += event.delta;
      expect((await stream.result()).text).toBe(text);
      texts.push(text);
    }
    expect(texts).toEqual([
      'Let me check ```json\n{"city":"Lviv"}\n``` first.',
      '{"city":"Lviv","celsius":21}',
    ]);
  });

  it('chatStream: text held when the stream is cut comes as it was sent, then the error', async () => {
    // The reasoning is the first content: the stream is the caller's before the text is held.
    const cut = [{ reasoning_content: 'Checking.' }, { content: 'Here it ' }, { content: 'is' }];
    const client = clientOn(scripted(await emulate(), [cut], { finish: false }));
    const stream = await client.chatStream(step);
    let text = '';
    const error = await caught(async () => {
      for await (const event of stream) if (event.type === 'text-delta') text += event.delta;
    }, isGatewayError);
    expect(error.code).toBe('stream_incomplete');
    expect(text).toBe('Here it is');
  });
});

const weatherCall = { name: 'weather', arguments: '{"city":"Lviv"}' };

/**
 * `gateway`'s connection, its chat calls answered by `steps` in turn: each a stream of the
 * deltas given, finished `tool_calls` when it calls a tool, else `stop` (`finish: false`: no
 * finish_reason before `[DONE]`, a cut answer).
 */
function scripted(
  gateway: EmulatedGateway,
  steps: Record<string, unknown>[][],
  { finish = true } = {},
) {
  let next = 0;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.endsWith('/chat/completions')) return gateway.fetch(request);
    const deltas = steps[next++] ?? [];
    const reason = deltas.some((delta) => 'tool_calls' in delta) ? 'tool_calls' : 'stop';
    const chunk = (delta: object, finish: string | null) =>
      `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: step.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const body = [
      ...deltas.map((delta) => chunk(delta, null)),
      ...(finish ? [chunk({}, reason)] : []),
      'data: [DONE]\n\n',
    ];
    const headers = { 'content-type': 'text/event-stream', 'x-service-model': step.model };
    // Each chunk its own network read, as a model server streams them.
    const pieces = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const piece = body.shift();
        if (piece === undefined) controller.close();
        else controller.enqueue(pieces.encode(piece));
      },
    });
    return new Response(stream, { headers });
  };
  return { connection: { ...gateway.connection, fetch } };
}

import { chatsAnsweredBy, emulate, oneMessageAnswer } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { type ChatRequest, createGatewayClient } from '../src/index';
import { caught } from './helpers';
import { askingForAPlace, RETURNED } from './structured-place-asks';

// A structured call with `n` > 1 (docs/gateway-protocol.md §4.8): every choice of a whole answer
// is read by the model's method and checked, not choice 0 alone; one that fails fails the hop,
// naming its choice. A structured stream, read and checked for one choice, refuses `n` > 1
// before anything is sent.

type Message = Record<string, unknown>;

/**
 * A client whose whole chat answers have one choice per message of `messages(body)` (a stream:
 * the first one's).
 */
async function answeringChoices(messages: (body: ChatRequest) => Message[]) {
  const { connection } = await emulate();
  const sent: ChatRequest[] = [];
  const fetch = chatsAnsweredBy(connection, (body) => {
    sent.push(body as unknown as ChatRequest);
    const given = messages(body as unknown as ChatRequest);
    if (body.stream) return oneMessageAnswer(body.model, given[0]!, 'stop', true);
    const choices = given.map((message, index) => ({
      index,
      message: { role: 'assistant', content: null, ...message },
      finish_reason: message.tool_calls ? 'tool_calls' : 'stop',
    }));
    const completion = { id: 'c1', object: 'chat.completion', created: 1, model: body.model };
    return Response.json({ ...completion, choices });
  });
  const client = createGatewayClient({ ...connection, circuitBreaker: false, fetch });
  return { client, sent };
}

/** A forced call of the schema's tool (as `tools` asks) with `args`. */
const forcedCall = (body: ChatRequest, id: string, args: string) => ({
  tool_calls: [
    { id, type: 'function', function: { name: body.tools![0]!.function.name, arguments: args } },
  ],
});

describe('a structured call with n > 1: every choice checked', () => {
  it('whole, tools: each choice is its JSON, no forced call handed on', async () => {
    const { client } = await answeringChoices((body) => [
      forcedCall(body, 'a', '{"city":"Oslo"}'),
      forcedCall(body, 'b', '{"city":"Rome"}'),
    ]);
    const result = await client.chat(askingForAPlace('community/tools', { n: 2 }));
    expect(result.choices?.map((choice) => choice.text)).toEqual([
      '{"city":"Oslo"}',
      '{"city":"Rome"}',
    ]);
    expect(result.choices?.map((choice) => choice.toolCalls)).toEqual([[], []]);
    expect(result.response.choices.map((choice) => choice.finish_reason)).toEqual(['stop', 'stop']);
    expect(result.structured?.value).toEqual({ city: 'Oslo' });
  });

  it('whole, json_schema: a fenced choice 1 is read by the fence rule', async () => {
    const { client } = await answeringChoices(() => [
      { content: '{"city":"Oslo"}' },
      { content: 'Sure:\n```json\n{"city":"Rome"}\n```' },
    ]);
    const result = await client.chat(askingForAPlace('community/json-schema', { n: 2 }));
    expect(result.response.choices[1]?.message.content).toBe('{"city":"Rome"}');
    expect(result.choices?.[1]?.text).toBe('{"city":"Rome"}');
  });

  it('whole: a choice 1 that breaks the schema fails the hop, naming the choice', async () => {
    const { client, sent } = await answeringChoices((body) =>
      body.model === 'community/tools'
        ? [forcedCall(body, 'a', '{"city":"Oslo"}'), forcedCall(body, 'b', '{"town":5}')]
        : [{ content: '{"city":"Oslo"}' }, { content: '{"city":"Rome"}' }],
    );
    const asked = askingForAPlace('community/tools', { n: 2 });
    const walked = await client.chat(asked, { fallbackModels: ['community/json-schema'] });
    expect(sent.map((body) => body.model)).toEqual(['community/tools', 'community/json-schema']);
    expect(walked.route.hops.map((hop) => hop.outcome)).toEqual(['failed', 'answered']);
    expect(walked.choices?.map((choice) => choice.text)).toEqual([
      '{"city":"Oslo"}',
      '{"city":"Rome"}',
    ]);
    const error = await caught(() => client.chat(asked));
    expect(error.code).toBe('invalid_structured_output');
    expect(error.invalidOutput).toMatchObject({ method: 'tools', choice: 1, reason: 'schema' });
    expect(error.message).toContain(
      'community/tools answered structured output (method tools) in choice 1',
    );
  });

  it("whole, lastAnswer 'returned': the answer is choice 0's, a failing choice 1 handed on as it came", async () => {
    const { client } = await answeringChoices(() => [
      { content: '{"city":"Oslo"}' },
      { content: '{"town":5}' },
    ]);
    const result = await client.chat(askingForAPlace('community/json-schema', { n: 2 }), RETURNED);
    // (As ChatOpenAI's parser: choice 0 is the answer; LangChain's includeRaw reads it.)
    expect(result.structured?.value).toEqual({ city: 'Oslo' });
    expect(result.structuredUnchecked).toBeUndefined();
    expect(result.route.hops.at(-1)).toMatchObject({
      structured: { method: 'json_schema', checked: true },
    });
    expect(result.choices?.map((choice) => choice.text)).toEqual(['{"city":"Oslo"}', '{"town":5}']);
  });

  it('whole: a choice 1 with no JSON (prose) fails as choice 0 would', async () => {
    const { client } = await answeringChoices(() => [
      { content: '{"city":"Oslo"}' },
      { content: 'I cannot say.' },
    ]);
    const error = await caught(() =>
      client.chat(askingForAPlace('community/json-schema', { n: 2 })),
    );
    expect(error.code).toBe('invalid_structured_output');
    expect(error.invalidOutput?.choice).toBe(1);
  });

  it('stream: n > 1 refused before anything is sent, naming n', async () => {
    const { client, sent } = await answeringChoices(() => [{ content: '{"city":"Oslo"}' }]);
    for (const n of [2, '2'] as unknown[]) {
      const asked = askingForAPlace('community/json-schema', { n } as Partial<ChatRequest>);
      const error = await caught(() => client.chatStream(asked));
      expect(error.code).toBe('invalid_request_error');
      expect(error.field).toBe('n');
      expect(error.message).toContain(
        'a streamed structured answer is read and checked for one choice',
      );
    }
    expect(sent).toEqual([]);
    // n 1 streams as ever.
    const stream = await client.chatStream(askingForAPlace('community/json-schema', { n: 1 }));
    expect((await stream.result()).structured?.value).toEqual({ city: 'Oslo' });
  });
});

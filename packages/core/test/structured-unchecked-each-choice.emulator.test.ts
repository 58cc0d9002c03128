import { chatsAnsweredBy, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { type ChatRequest, createGatewayClient } from '../src/index';
import { caught } from './helpers';
import { askingForAPlace, clientAnswering, RETURNED } from './structured-place-asks';

// docs/gateway-protocol.md §4.8. A whole structured answer hands no tool call on (its text is the
// JSON), so how it was served lists every call the server sent, in its order (`sentToolCalls`),
// beside the forced one (`toolCall`): a caller showing the model's own message (ChatOpenAI's raw)
// lists them all. With `n` > 1 and `lastAnswer: 'returned'`, each choice handed on unchecked
// carries its own mark (`structuredUnchecked` on its entry of `choices`), not choice 0 alone.

type Message = Record<string, unknown>;

/** A client whose whole chat answers have one choice per message of `messages(body)`. */
async function answeringChoices(messages: (body: ChatRequest) => Message[]) {
  const { connection } = await emulate();
  const fetch = chatsAnsweredBy(connection, (body) => {
    const choices = messages(body as unknown as ChatRequest).map((message, index) => ({
      index,
      message: { role: 'assistant', content: null, ...message },
      finish_reason: message.tool_calls ? 'tool_calls' : 'stop',
    }));
    return Response.json({ id: 'c1', object: 'chat.completion', model: body.model, choices });
  });
  return createGatewayClient({ ...connection, circuitBreaker: false, fetch });
}

const call = (id: string, name: string, args: string) => ({
  id,
  type: 'function',
  function: { name, arguments: args },
});

/** The forced call (`place`) with `args`, then a call of another tool and one with no JSON. */
const forcedAndOthers = (args: string) => ({
  message: {
    content: null,
    tool_calls: [
      call('call_1', 'place', args),
      call('call_2', 'lookup', '{"q":"x"}'),
      call('call_3', 'broken', 'nope'),
    ],
  },
  finish: 'tool_calls',
});

const SENT = [
  { id: 'call_1', name: 'place', arguments: '{"city":"Oslo"}' },
  { id: 'call_2', name: 'lookup', arguments: '{"q":"x"}' },
  { id: 'call_3', name: 'broken', arguments: 'nope' },
];

describe('a structured whole answer lists every tool call the server sent', () => {
  it('checked: structured.sentToolCalls holds each call in its order; the answer hands none on', async () => {
    const client = await clientAnswering(() => forcedAndOthers('{"city":"Oslo"}'));
    const result = await client.chat(askingForAPlace('community/tools'));
    expect(result.structured?.value).toEqual({ city: 'Oslo' });
    expect(result.structured?.toolCall).toEqual(SENT[0]);
    expect(result.structured?.sentToolCalls).toEqual(SENT);
    expect(result.answer.toolCalls).toEqual([]);
  });

  it("handed on unchecked (lastAnswer 'returned'): structuredUnchecked.sentToolCalls the same", async () => {
    const client = await clientAnswering(() => forcedAndOthers('{"town":5}'));
    const result = await client.chat(askingForAPlace('community/tools'), RETURNED);
    const sent = [{ ...SENT[0]!, arguments: '{"town":5}' }, SENT[1], SENT[2]];
    expect(result.structuredUnchecked?.sentToolCalls).toEqual(sent);
  });

  it('refused: invalidOutput.sentToolCalls the same, and in its JSON', async () => {
    const client = await clientAnswering(() => forcedAndOthers('{"town":5}'));
    const error = await caught(() => client.chat(askingForAPlace('community/tools')));
    const sent = [{ ...SENT[0]!, arguments: '{"town":5}' }, SENT[1], SENT[2]];
    expect(error.invalidOutput?.sentToolCalls).toEqual(sent);
    expect((error.toJSON() as { invalidOutput: unknown }).invalidOutput).toMatchObject({
      sentToolCalls: sent,
    });
  });
});

describe("n > 1, lastAnswer 'returned': each choice handed on unchecked carries its own mark", () => {
  it('json_schema: choice 1 failing is marked; choice 0 checked is not', async () => {
    const client = await answeringChoices(() => [
      { content: '{"city":"Oslo"}' },
      { content: '{"town":5}' },
    ]);
    const result = await client.chat(askingForAPlace('community/json-schema', { n: 2 }), RETURNED);
    expect(result.structured?.value).toEqual({ city: 'Oslo' });
    expect(result.choices?.[0]?.structuredUnchecked).toBeUndefined();
    expect(result.choices?.[1]?.structuredUnchecked).toEqual({ method: 'json_schema' });
  });

  it('tools: each failing choice its own forced call and sent finish (choice 0 and choice 2)', async () => {
    const client = await answeringChoices((body) => {
      const name = body.tools![0]!.function.name;
      return [
        { tool_calls: [call('a', name, '{"town":1}')] },
        { tool_calls: [call('b', name, '{"city":"Rome"}')] },
        { tool_calls: [call('c', name, '{"town":3}')] },
      ];
    });
    const result = await client.chat(askingForAPlace('community/tools', { n: 3 }), RETURNED);
    const mark = (id: string, args: string) => {
      const toolCall = { id, name: 'place', arguments: args };
      return {
        method: 'tools',
        sentFinishReason: 'tool_calls',
        toolCall,
        sentToolCalls: [toolCall],
      };
    };
    expect(result.structuredUnchecked).toEqual(mark('a', '{"town":1}'));
    expect(result.choices?.map((choice) => choice.structuredUnchecked)).toEqual([
      mark('a', '{"town":1}'),
      undefined,
      mark('c', '{"town":3}'),
    ]);
    // (Choice 1 passed: its own `structured`, its finish as sent too.)
    expect(result.choices?.[1]?.structured?.value).toEqual({ city: 'Rome' });
    expect(result.choices?.map((choice) => choice.sentFinishReason)).toEqual([
      'tool_calls',
      'tool_calls',
      'tool_calls',
    ]);
    expect(result.choices?.map((choice) => choice.finishReason)).toEqual(['stop', 'stop', 'stop']);
  });
});

import { describe, expect, it } from 'vitest';
import type { GatewayError } from '../errors/errors';
import type { AssembledChat, AssembledToolCall } from '../protocol/chat-result-types';
import type { StructuredOutputMethod } from '../protocol/chat-route';
import { checkedStructuredAnswer } from './checked-structured-answer';

const schema = { type: 'object', required: ['city'] };
const given = { schema };
const check = { schema };
const usage = { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 };

function answer(text: string, toolCalls: AssembledToolCall[] = []): AssembledChat {
  return { text, toolCalls, finishReason: 'stop', usage };
}
const schemaCall = (args: string): AssembledToolCall => ({
  id: 'c',
  name: 'response',
  arguments: args,
});

/** `answer` checked by `method`, the last answer handed on (`returned`) or not. */
function checked(method: StructuredOutputMethod, chat: AssembledChat, returned: boolean) {
  return checkedStructuredAnswer('m', method, chat, { given, check, returnRefused: returned });
}

describe("a last answer with no JSON where its method puts it (lastAnswer: 'returned')", () => {
  it.each([
    ['json_schema', answer('Oslo, I think.'), 'Oslo, I think.', undefined],
    ['json_schema', answer('{"city": "Os'), '{"city": "Os', undefined],
    // The method's reading still applies: a fence's content, a think block's reasoning apart.
    ['json_object', answer('<think>hm</think>```json\n{"city":\n```'), '{"city":', 'hm'],
    ['tools', answer('', [schemaCall(' {"city" ')]), '{"city"', undefined],
    // No call of the schema's tool: the model's own text is not the answer (a stream left it out).
    ['tools', answer('Oslo.', [{ id: 'd', name: 'other', arguments: '{}' }]), '', undefined],
  ] as const)(
    '%s: handed on unchecked, no value, the JSON text as read (%#)',
    async (method, chat, json, reasoning) => {
      expect(await checked(method, chat, true)).toEqual({
        value: undefined,
        json,
        reasoning,
        checked: false,
      });
    },
  );

  it('without it the same answer is refused, carrying its usage', async () => {
    const error = await checked('json_schema', answer('{"city": "Os'), false).then(
      () => undefined,
      (failure: GatewayError) => failure,
    );
    expect(error).toMatchObject({ code: 'invalid_structured_output', usage });
    expect(error?.invalidOutput?.issues[0]?.message).toMatch(/not JSON/);
  });

  it('JSON that breaks the schema: its value as read, unchecked', async () => {
    expect(await checked('json_schema', answer('{"town":"Oslo"}'), true)).toEqual({
      value: { town: 'Oslo' },
      json: '{"town":"Oslo"}',
      reasoning: undefined,
      checked: false,
    });
  });

  it('asks whether the answer is the last only once it was refused (claiming it is the walk’s)', async () => {
    let asked = 0;
    const claims = {
      given,
      check,
      get returnRefused() {
        asked++;
        return false;
      },
    };
    await checkedStructuredAnswer('m', 'json_schema', answer('{"city":"Oslo"}'), claims);
    expect(asked).toBe(0);
    await checkedStructuredAnswer('m', 'json_schema', answer('nope'), claims).catch(() => {});
    expect(asked).toBe(1);
  });
});

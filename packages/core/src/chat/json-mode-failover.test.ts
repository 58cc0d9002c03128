// docs/gateway-protocol.md §4.5, §4.7 rule 3: JSON with no schema (`json_object`) on a call with
// `fallbackModels`: an answer whose text (read by the fence rule) is not JSON fails its hop with
// `invalid_structured_output` (method `json_object`) and the walk moves on, as a 502 does; the
// last model's answer is handed on as it came, as a call of one model's is.
import {
  chatsAnsweredBy,
  emulate,
  oneMessageAnswer,
  type ScriptedChatBody,
} from '@infergate/emulator/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGatewayClient } from '../index';

// A gateway per test: a model's failures count toward its order (`fails_often`) per key.
let gateway: Awaited<ReturnType<typeof emulate>>;
beforeEach(async () => {
  gateway = await emulate();
});
afterEach(() => gateway.close());
const ask = {
  model: 'community/json-object',
  messages: [{ role: 'user' as const, content: 'Where is "Oslo"? JSON please' }],
  response_format: { type: 'json_object' as const },
};
const notJson = 'Sure! Here it is: {"city": "Os';

/** Each model answers as `answers` says (whole), the models asked kept in `seen`. */
function answering(answers: Record<string, [string, string]>, seen: string[]) {
  return chatsAnsweredBy(gateway.connection, (body: ScriptedChatBody) => {
    seen.push(body.model);
    const [content, finish] = answers[body.model] ?? ['{"city":"Oslo"}', 'stop'];
    return oneMessageAnswer(body.model, { content }, finish, false);
  });
}

describe('JSON mode with fallbackModels', () => {
  it.each([
    ['not JSON', notJson, 'stop'],
    ['cut at the length limit', '{"city": "Os', 'length'],
    ['a number cut at the length limit', '70', 'length'],
  ])('%s: the hop fails and the fallback answers', async (_, content, finish) => {
    const seen: string[] = [];
    const fetch = answering({ 'community/json-object': [content, finish] }, seen);
    const client = createGatewayClient({ ...gateway.connection, fetch });
    const result = await client.chat(ask, { fallbackModels: ['community/general'] });
    expect(seen).toEqual(['community/json-object', 'community/general']);
    expect(result.answer.text).toBe('{"city":"Oslo"}');
    expect(result.route.hops.map((hop) => [hop.model, hop.outcome])).toEqual([
      ['community/json-object', 'failed'],
      ['community/general', 'answered'],
    ]);
    expect(result.route.hops[0]).toMatchObject({ reason: 'invalid_structured_output' });
  });

  it('a fenced answer is JSON: taken from the first model, its text the JSON', async () => {
    const seen: string[] = [];
    const fenced = 'Here:\n```json\n{"city":"Bergen"}\n```';
    const fetch = answering({ 'community/json-object': [fenced, 'stop'] }, seen);
    const client = createGatewayClient({ ...gateway.connection, fetch });
    const result = await client.chat(ask, { fallbackModels: ['community/general'] });
    expect(seen).toEqual(['community/json-object']);
    expect(result.answer.text).toBe('{"city":"Bergen"}');
  });

  it("the last model's answer is handed on as it came", async () => {
    const seen: string[] = [];
    const both = {
      'community/json-object': [notJson, 'stop'],
      'community/general': [notJson, 'stop'],
    } as Record<string, [string, string]>;
    const client = createGatewayClient({ ...gateway.connection, fetch: answering(both, seen) });
    const result = await client.chat(ask, { fallbackModels: ['community/general'] });
    expect(seen).toEqual(['community/json-object', 'community/general']);
    expect(result.answer.text).toBe(notJson);
    expect(result.route.hops.at(-1)).toMatchObject({
      model: 'community/general',
      outcome: 'answered',
    });
  });
});

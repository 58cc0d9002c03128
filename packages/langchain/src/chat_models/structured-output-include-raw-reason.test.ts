// docs/gateway-protocol.md §4.8 item 5: `withStructuredOutput(..., { includeRaw: true })` on the
// last model: an answer core handed on unchecked with no JSON gets the `parsingError` a call
// without `includeRaw` gets, in the same words: a refusal quoted, a cut answer "raise max_tokens".
import {
  chatsAnsweredBy,
  emulate,
  oneMessageAnswer,
  type ScriptedChatBody,
} from '@infergate/emulator/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel } from '../index';

const emulated = await emulate();
afterAll(() => emulated.close());
const Person = z.object({ name: z.string(), age: z.number() });

const answers = {
  refusal: [{ content: null, refusal: 'I cannot help with that.' }, 'stop'],
  cut: [{ content: '{"name":"Ad' }, 'length'],
} as const;

function modelAnswering(label: keyof typeof answers) {
  const [message, finish] = answers[label];
  const fetch = chatsAnsweredBy(emulated.connection, (body: ScriptedChatBody) =>
    oneMessageAnswer(body.model, { ...message }, finish, body.stream === true),
  );
  return new GatewayChatModel('community/json-schema', { ...emulated.connection, fetch });
}

describe('includeRaw: the parsingError of an answer with no JSON', () => {
  it.each([
    ['refusal', 'the model refused to answer (OpenAI\'s `refusal`): "I cannot help with that."'],
    ['cut', 'cut at the length limit (finish_reason "length"); raise max_tokens'],
  ] as const)('%s: as without includeRaw', async (label, words) => {
    const model = modelAnswering(label);
    const thrown = await model
      .withStructuredOutput(Person)
      .invoke('Describe "Ada"')
      .catch((error: Error) => error);
    expect((thrown as Error).message).toContain(words);
    const result = await model
      .withStructuredOutput(Person, { includeRaw: true })
      .invoke('Describe "Ada"');
    expect(result.parsed).toBeNull();
    const parsingError = (result as { parsingError?: Error }).parsingError;
    expect(parsingError?.message).toContain(words);
    expect(parsingError?.message).toContain(
      'community/json-schema answered structured output (method json_schema) that fails its check',
    );
  });
});

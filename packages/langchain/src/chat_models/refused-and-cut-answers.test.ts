// docs/gateway-protocol.md §4.3: an answer with content and OpenAI's `refusal` beside it: the
// message's content is the content alone (as `ChatOpenAI`'s), so JSON content still parses; the
// refusal is kept in `additional_kwargs.refusal`; a refusal with no content stays the text.
// §4.8 item 5: `withStructuredOutput(..., { includeRaw: true })` on the
// last model: the answer core handed on unchecked gets, as `parsingError`, the words the same
// call without `includeRaw` fails with — a `content_filter` stop with no `refusal` is not called
// one, a number cut at the length limit is unfinished (not off the schema), and a refusal beside
// JSON content is a refusal; and each says why it failed (a refusal quoted, a cut answer "raise
// max_tokens").
import {
  chatsAnsweredBy,
  emulate,
  oneMessageAnswer,
  type ScriptedChatBody,
} from '@infergate/emulator/testing';
import { JsonOutputParser } from '@langchain/core/output_parsers';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewayChatModel } from '../index';

const emulated = await emulate();
afterAll(() => emulated.close());
const Person = z.object({ name: z.string(), age: z.number() });
const Population = { title: 'population', type: 'integer', minimum: 0 };

const answers = {
  refusalBesideContent: [{ content: '{"a":1}', refusal: 'I cannot' }, 'stop', Person],
  refusalAlone: [{ content: null, refusal: 'I cannot' }, 'stop', Person],
  refusal: [{ content: null, refusal: 'I cannot help with that.' }, 'stop', Person],
  cut: [{ content: '{"name":"Ad' }, 'length', Person],
  filtered: [{ content: '{"name":"Ad' }, 'content_filter', Person],
  filteredEmpty: [{ content: '' }, 'content_filter', Person],
  cutNumber: [{ content: '70' }, 'length', Population],
  refusalBesideJson: [
    { content: '{"name":"Ada","age":36}', refusal: 'I cannot help with that.' },
    'stop',
    Person,
  ],
} as const;

function modelAnswering(label: keyof typeof answers) {
  const [message, finish] = answers[label];
  const fetch = chatsAnsweredBy(emulated.connection, (body: ScriptedChatBody) =>
    oneMessageAnswer(body.model, { ...message }, finish, body.stream === true),
  );
  return new GatewayChatModel('community/json-schema', { ...emulated.connection, fetch });
}

const firstLine = (error: unknown) => String((error as Error | undefined)?.message).split('\n')[0];

describe('includeRaw: parsingError in the words of the call without it', () => {
  it.each([
    ['filtered', 'the answer is not JSON (at position 11)'],
    ['filteredEmpty', 'the answer is empty'],
    ['cutNumber', 'the answer is a number that may be unfinished'],
    ['refusalBesideJson', 'the model refused to answer (OpenAI\'s `refusal`): "I cannot help'],
  ] as const)('%s', async (label, words) => {
    const model = modelAnswering(label);
    const schema = answers[label][2];
    const thrown = await model
      .withStructuredOutput(schema, { method: 'jsonSchema' })
      .invoke('Describe "Ada"')
      .catch((error: unknown) => error);
    const result = await model
      .withStructuredOutput(schema, { method: 'jsonSchema', includeRaw: true })
      .invoke('Describe "Ada"');
    expect(result.parsed).toBeNull();
    const parsingError = (result as { parsingError?: Error }).parsingError;
    expect(firstLine(thrown)).toContain(words);
    expect(firstLine(parsingError)).toBe(firstLine(thrown));
  });
});

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

describe('a refusal beside the content', () => {
  it('keeps the content alone as the text, the refusal in additional_kwargs', async () => {
    const model = modelAnswering('refusalBesideContent');
    expect(await model.pipe(new JsonOutputParser()).invoke('x')).toEqual({ a: 1 });
    const message = await model.invoke('x');
    expect(message.content).toBe('{"a":1}');
    expect(message.additional_kwargs.refusal).toBe('I cannot');
  });

  it('a refusal alone stays the text', async () => {
    const message = await modelAnswering('refusalAlone').invoke('x');
    expect(message.content).toBe('I cannot');
    expect(message.additional_kwargs.refusal).toBe('I cannot');
    expect(message.response_metadata.finish_reason).toBe('content_filter');
  });
});

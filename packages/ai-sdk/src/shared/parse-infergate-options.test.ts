import { InvalidArgumentError } from '@ai-sdk/provider';
import { wavWithSpeech } from '@infergate/emulator/fixtures';
import { emulate } from '@infergate/emulator/testing';
import { embed, embedMany, transcribe } from 'ai';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BASE_URL, providersOn } from '../../test/providers';

const emulated = await emulate({ as: 'msw', baseURL: BASE_URL, hooks: { afterEach, afterAll } });
const { emulator } = emulated;
const { gateway } = providersOn(emulated);

async function refusal(call: Promise<unknown>): Promise<InvalidArgumentError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(InvalidArgumentError.isInstance(error), String(error)).toBe(true);
  return error as InvalidArgumentError;
}

describe('invalid providerOptions.infergate name the field, the value and what is allowed', () => {
  it.each([
    [
      { dimensions: 1.5 },
      'providerOptions.infergate.dimensions is 1.5; allowed: a positive integer',
    ],
    [{ dimensions: -3 }, 'providerOptions.infergate.dimensions is -3; allowed: a positive integer'],
    [
      { inputType: 'passage' },
      'providerOptions.infergate.inputType is "passage"; allowed: "document" or "query"',
    ],
  ])('embedMany %j', async (options, message) => {
    const model = gateway().embeddingModel('multilingual-e5-base');
    const error = await refusal(
      embedMany({ model, values: ['x'], maxRetries: 0, providerOptions: { infergate: options } }),
    );
    expect(error.message).toBe(message);
    expect(error.argument).toBe(message.split(' ')[0]);
    expect(emulator.counters.requests.embeddings).toBe(0);
  });

  it('transcribe { translate: "yes" }', async () => {
    const error = await refusal(
      transcribe({
        model: gateway().transcriptionModel(),
        audio: wavWithSpeech('hello'),
        providerOptions: { infergate: { translate: 'yes' } },
      }),
    );
    expect(error.message).toBe(
      'providerOptions.infergate.translate is "yes"; allowed: a boolean (true: the transcript in English)',
    );
    expect(emulator.counters.requests.transcriptions).toBe(0);
  });

  it('a value that is not an object names the fields it may hold', async () => {
    const error = await refusal(
      embedMany({
        model: gateway().embeddingModel('multilingual-e5-base'),
        values: ['x'],
        providerOptions: { infergate: 'query' as never },
      }),
    );
    expect(error.message).toBe(
      'providerOptions.infergate is "query"; allowed: an object with inputType, dimensions',
    );
  });
});

describe('an unknown key of providerOptions.infergate is refused, naming the right one (never dropped)', () => {
  const where = 'unknown option';
  it.each([
    [{ inputTyp: 'query' }, 'inputTyp', 'did you mean `inputType`?'],
    // The wire name: dropped, the query would be embedded as a document.
    [{ input_type: 'query' }, 'input_type', 'did you mean `inputType`?'],
    [{ dimension: 256 }, 'dimension', 'did you mean `dimensions`?'],
    [{ normalize: true }, 'normalize', 'known: inputType, dimensions'],
  ])('embed %j', async (options, key, hint) => {
    const model = gateway().embeddingModel('multilingual-e5-base');
    const error = await refusal(
      embed({ model, value: 'x', maxRetries: 0, providerOptions: { infergate: options } }),
    );
    expect(error.argument).toBe(`providerOptions.infergate.${key}`);
    expect(error.message).toContain(`${where} \`${key}\` in providerOptions.infergate`);
    expect(error.message).toContain(hint);
    expect(emulator.counters.requests.embeddings).toBe(0);
  });

  it('embedMany { input_type }', async () => {
    const model = gateway().embeddingModel('multilingual-e5-base');
    const error = await refusal(
      embedMany({
        model,
        values: ['x', 'y'],
        maxRetries: 0,
        providerOptions: { infergate: { input_type: 'query' } },
      }),
    );
    expect(error.message).toContain('did you mean `inputType`?');
    expect(emulator.counters.requests.embeddings).toBe(0);
  });

  it.each([
    [{ langauge: 'uk' }, 'langauge', 'did you mean `language`?'],
    [{ prompt: 'names' }, 'prompt', 'known: language, translate'],
  ])('transcribe %j', async (options, key, hint) => {
    const error = await refusal(
      transcribe({
        model: gateway().transcriptionModel(),
        audio: wavWithSpeech('hello'),
        providerOptions: { infergate: options },
      }),
    );
    expect(error.argument).toBe(`providerOptions.infergate.${key}`);
    expect(error.message).toContain(hint);
    expect(emulator.counters.requests.transcriptions).toBe(0);
  });
});

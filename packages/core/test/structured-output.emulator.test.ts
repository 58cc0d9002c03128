import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { checkStructuredAnswer } from '../src/steering/check-structured-answer';
import { chooseStructuredOutputMethod } from '../src/steering/structured-output-method';
import {
  readStructuredAnswer,
  type StructuredOutputSchema,
  structuredRequest,
} from '../src/steering/structured-output-request';
import { clientOn, PLACE_SCHEMA } from './helpers';

// The parts of issue 52 the walk calls, end to end against the emulator: each method's request is
// one the gateway accepts, and each method's answer is read back and passes the check (the walk
// itself: structured-walk.emulator.test.ts).
const schema = PLACE_SCHEMA;
const given: StructuredOutputSchema = { name: 'place', schema };
const request = {
  model: '',
  messages: [{ role: 'user' as const, content: 'Where is "Oslo"?' }],
};

async function twoModels() {
  const listed = { owned_by: 'service-community', online: true } as const;
  const gateway = await emulate({
    scenario: {
      models: {
        'community/so-native': { ...listed, capabilities: ['chat', 'json_schema', 'tools'] },
        'community/so-tools': { ...listed, capabilities: ['chat', 'tools', 'json_object'] },
      },
    },
  });
  return { client: clientOn(gateway) };
}

describe('structured output per model (docs/gateway-protocol.md §4.8)', () => {
  it.each([
    ['community/so-native', 'json_schema'],
    ['community/so-tools', 'tools'],
  ] as const)('%s: served by %s, read back and checked', async (model, expected) => {
    const { client } = await twoModels();
    const [entry] = (await client.models()).filter((listed) => listed.id === model);
    const choice = chooseStructuredOutputMethod(model, entry!, {
      methods: ['json_schema', 'tools', 'json_object'],
    });
    expect(choice).toEqual({ method: expected });
    const result = await client.chat(structuredRequest({ ...request, model }, given, expected));
    const answer = readStructuredAnswer(model, result.answer, given, expected);
    const value = await checkStructuredAnswer(model, expected, answer, { schema });
    expect(value).toMatchObject({ kind: expect.stringMatching(/^(town|village)$/) });
  });

  it('a forced tool whose schema the answer breaks fails the check with the issues', async () => {
    const { client } = await twoModels();
    const model = 'community/so-tools';
    const result = await client.chat(structuredRequest({ ...request, model }, given, 'tools'));
    const answer = readStructuredAnswer(model, result.answer, given, 'tools');
    // The emulator's answer follows the schema it was sent: a stricter one is broken.
    const stricter = { ...schema, properties: { ...schema.properties, kind: { enum: ['city'] } } };
    const failure = await checkStructuredAnswer(model, 'tools', answer, { schema: stricter }).catch(
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({
      code: 'invalid_structured_output',
      invalidOutput: { method: 'tools', text: answer.text, issues: [{ path: '/kind' }] },
    });
  });
});

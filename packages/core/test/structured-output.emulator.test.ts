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

// JSON asked for with no schema (`json_object`): nothing to check, but its text read by the one
// fence rule, whichever adapter sends it (§4.8 items 3, 5 and 6).
describe('json_object with no schema: a fenced answer', () => {
  async function fencedJsonObject() {
    const gateway = await emulate({
      scenario: {
        models: {
          'community/jo-fenced': {
            owned_by: 'service-community',
            online: true,
            capabilities: ['chat', 'streaming', 'json_object'],
            jsonAnswers: { wrap: 'prose-fence' },
          },
        },
      },
    });
    return clientOn(gateway);
  }
  const asked = {
    ...request,
    model: 'community/jo-fenced',
    response_format: { type: 'json_object' as const },
  };
  const JSON_TEXT = JSON.stringify({ answer: 'Echo: Where is "Oslo"?' });

  it('chat: answer.text is the JSON alone; the response is the body as sent', async () => {
    const client = await fencedJsonObject();
    const result = await client.chat(asked);
    expect(result.answer.text).toBe(JSON_TEXT);
    expect(result.response.choices[0]?.message.content).toContain('```');
    expect(result.route.hops).toHaveLength(1);
  });

  it('chatStream: the text deltas and result().text are the JSON alone', async () => {
    const client = await fencedJsonObject();
    const stream = await client.chatStream(asked);
    let text = '';
    for await (const event of stream) if (event.type === 'text-delta') text += event.delta;
    expect(text).toBe(JSON_TEXT);
    expect((await stream.result()).text).toBe(JSON_TEXT);
    const unkept = await client.chatStream(asked, { assemble: false });
    expect((await unkept.result()).text).toBe('');
  });
});

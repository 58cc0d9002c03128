import { afterAll, describe, expect, it } from 'vitest';
import { emulate } from './emulate';
import { WRAPPED_JSON_MODELS, withWrappedJsonModels } from './wrapped-json-models';

// Each model of the kit's scenario wraps its JSON the way its name in WRAPPED_JSON_MODELS says:
// the adapters' structured-output tests lean on it to reach each of core's fence rules, so a
// model serving the wrong wrap would quietly stop a rule being tested.

const gateway = await emulate({ scenario: withWrappedJsonModels() });
afterAll(() => gateway.close());

async function answerOf(model: string): Promise<string> {
  const response = await gateway.fetch(`${gateway.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model,
      messages: [{ role: 'user', content: 'a city' }],
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'city',
          schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        },
      },
    }),
  });
  const body = (await response.json()) as { choices: { message: { content: string } }[] };
  return body.choices[0]?.message.content ?? '';
}

describe('withWrappedJsonModels()', () => {
  it.each([
    ['fence', /^```json\n\{[^`]*\}\n```$/],
    ['prose-fence', /^[^`{]+```json\n\{[^`]*\}\n```[^`]+$/],
    ['fence-inline', /^```json\n\{[^`]*\}```[^`]+$/],
    ['prose', /^[^`{]+\{[^`]*\}[^`{}]+$/],
  ] as const)('%s: every JSON answer wrapped that way', async (wrap, shape) => {
    expect(await answerOf(WRAPPED_JSON_MODELS[wrap])).toMatch(shape);
  });
});

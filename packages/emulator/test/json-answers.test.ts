import { Validator } from '@cfworker/json-schema';
import { describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type JsonAnswers, ScenarioError } from '../src/index';
import { chat, type Json, parseSse, userChat } from './helpers';

const schema = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    level: { type: 'string', enum: ['low', 'high'] },
    place: { type: 'object', properties: { lat: { type: 'number' } }, required: ['lat'] },
  },
  required: ['city', 'level', 'place'],
  additionalProperties: false,
};
const jsonSchema = { type: 'json_schema', json_schema: { name: 'report', schema } };

function claimed(jsonAnswers: JsonAnswers, capabilities = ['chat', 'streaming', 'json_schema']) {
  return createEmulator({
    models: {
      'pool-j/claimed': {
        capabilities: capabilities as never,
        verification: 'provider_claimed',
        jsonAnswers,
      },
    },
  });
}

async function content(emulator: Emulator, body: Record<string, unknown>): Promise<string> {
  const response = await chat(emulator, body);
  expect(response.status).toBe(200);
  return ((await response.json()) as Json).choices[0].message.content;
}

/** How each answer of `count` turned out: valid, not JSON, or JSON off the schema. */
async function outcomes(emulator: Emulator, count: number): Promise<string[]> {
  const validator = new Validator(schema as never, '2020-12');
  const seen: string[] = [];
  for (let i = 0; i < count; i++) {
    const text = await content(emulator, {
      ...userChat('pool-j/claimed', 'report'),
      response_format: jsonSchema,
    });
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      seen.push('invalid');
      continue;
    }
    seen.push(validator.validate(value).valid ? 'valid' : 'off-schema');
  }
  return seen;
}

describe("a model's jsonAnswers (issue 52, item 5)", () => {
  it('cuts short and breaks the schema in seeded shares, the same for the same seed', async () => {
    const spec = { invalidShare: 0.2, offSchemaShare: 0.3, seed: 7 };
    const first = await outcomes(claimed(spec), 200);
    const count = (kind: string) => first.filter((seen) => seen === kind).length;
    expect(count('invalid')).toBeGreaterThan(20);
    expect(count('invalid')).toBeLessThan(60);
    expect(count('off-schema')).toBeGreaterThan(35);
    expect(count('off-schema')).toBeLessThan(85);
    expect(count('valid') + count('invalid') + count('off-schema')).toBe(200);
    expect(await outcomes(claimed(spec), 200)).toEqual(first);
  });

  it('answers valid JSON when no share is set', async () => {
    expect(new Set(await outcomes(claimed({}), 20))).toEqual(new Set(['valid']));
  });

  it.each([
    ['fence', /^```json\n(\{[\s\S]*\})\n```$/],
    [
      'prose',
      /^Here is the JSON you asked for:\n(\{[\s\S]*\})\nLet me know if you need anything else\.$/,
    ],
    [
      'prose-fence',
      /^Here is the JSON you asked for:\n```json\n(\{[\s\S]*\})\n```\nLet me know if you need anything else\.$/,
    ],
    ['fence-inline', /^```json\n(\{[\s\S]*\})```\nLet me know if you need anything else\.$/],
  ] as const)('wraps its JSON in %s, streamed or not', async (wrap, shape) => {
    const emulator = claimed({ wrap });
    const body = { ...userChat('pool-j/claimed', 'report'), response_format: jsonSchema };
    const whole = await content(emulator, body);
    const json = shape.exec(whole)?.[1];
    expect(new Validator(schema as never, '2020-12').validate(JSON.parse(json!)).valid).toBe(true);
    const events = parseSse(await (await chat(emulator, { ...body, stream: true })).text());
    const streamed = events
      .filter((event): event is Json => typeof event === 'object')
      .map((event) => event.choices?.[0]?.delta?.content ?? '')
      .join('');
    expect(streamed).toBe(whole);
  });

  it('serves a json_object-only model the schema a system message states', async () => {
    const emulator = claimed({}, ['chat', 'json_object']);
    const text = await content(emulator, {
      model: 'pool-j/claimed',
      messages: [
        {
          role: 'system',
          content: `Answer with JSON matching this schema: ${JSON.stringify(schema)}`,
        },
        { role: 'user', content: 'report' },
      ],
      response_format: { type: 'json_object' },
    });
    expect(new Validator(schema as never, '2020-12').validate(JSON.parse(text)).valid).toBe(true);
    const refused = await chat(emulator, {
      ...userChat('pool-j/claimed', 'report'),
      response_format: jsonSchema,
    });
    expect(refused.status).toBe(400);
  });

  it('serves a tools-only model a forced call whose arguments fit the schema', async () => {
    const emulator = claimed({}, ['chat', 'tools']);
    const response = await chat(emulator, {
      ...userChat('pool-j/claimed', 'report'),
      tools: [{ type: 'function', function: { name: 'report', parameters: schema } }],
      tool_choice: { type: 'function', function: { name: 'report' } },
    });
    const call = ((await response.json()) as Json).choices[0].message.tool_calls[0];
    const args = JSON.parse(call.function.arguments);
    expect(new Validator(schema as never, '2020-12').validate(args).valid).toBe(true);
  });

  it.each([
    [
      { invalidShare: 1.5 },
      'models["pool-j/claimed"].jsonAnswers.invalidShare must be a share from 0 to 1',
    ],
    [
      { invalidShare: 0.6, offSchemaShare: 0.6 },
      'needs invalidShare + offSchemaShare ≤ 1, got 1.2',
    ],
    [
      { wrap: 'fenced' },
      'models["pool-j/claimed"].jsonAnswers.wrap "fenced" is unknown — did you mean fence?',
    ],
    [
      { invalidShar: 0.1 },
      'unknown field models["pool-j/claimed"].jsonAnswers.invalidShar — did you mean invalidShare?',
    ],
  ])('refuses %j', (jsonAnswers, message) => {
    expect(() => claimed(jsonAnswers as JsonAnswers)).toThrow(ScenarioError);
    expect(() => claimed(jsonAnswers as JsonAnswers)).toThrow(message);
  });
});

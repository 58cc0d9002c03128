import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { GatewayError } from '../errors/errors';
import { LIMITS } from '../protocol/limits';
import { checkSchemaForm, SCHEMA_MAX_DEPTH } from './check-schema-form';
import { type JsonSchema, validateJsonSchema } from './validate-json-schema';

const FIELD = 'response_format.json_schema.schema';
/** The refusal of `schema`, or undefined when it passes. */
function refusal(schema: unknown): GatewayError | undefined {
  try {
    checkSchemaForm(schema as Record<string, unknown>, FIELD);
    return undefined;
  } catch (error) {
    return error as GatewayError;
  }
}

const Node: z.ZodType<{ name: string; children: unknown[] }> = z.object({
  name: z.string(),
  get children() {
    return z.array(Node);
  },
});

describe('checkSchemaForm', () => {
  it.each([
    [
      'an object with every kind of field',
      z
        .object({
          id: z.uuid(),
          email: z.email().optional(),
          age: z.number().int().min(0).max(150),
          tags: z.array(z.string().min(1)).max(10),
          role: z.enum(['admin', 'user']),
          kind: z.literal('person'),
          note: z.string().nullable(),
          when: z.iso.datetime(),
          score: z.number().multipleOf(0.5).gt(0),
          code: z.string().regex(/^[A-Z]{3}-\d+$/),
          pair: z.tuple([z.string(), z.number()]),
          extra: z.record(z.string(), z.boolean()),
        })
        .strict(),
    ],
    [
      'a union and a discriminated union',
      z.object({
        value: z.union([z.string(), z.number(), z.null()]),
        shape: z.discriminatedUnion('type', [
          z.object({ type: z.literal('circle'), r: z.number() }),
          z.object({ type: z.literal('square'), side: z.number() }),
        ]),
      }),
    ],
    ['a recursive schema ($ref, $defs)', Node],
    [
      'an intersection (allOf)',
      z.intersection(z.object({ a: z.string() }), z.object({ b: z.number() })),
    ],
  ])('passes zod 4 toJSONSchema: %s', (_, schema) => {
    for (const target of ['draft-2020-12', 'draft-7', 'openapi-3.0'] as const) {
      const json = z.toJSONSchema(schema, { target });
      expect(refusal(json)).toBeUndefined();
      // The answer check reads it too: an answer is checked, not refused with the schema.
      expect(validateJsonSchema(json, {}).map((issue) => issue.message)).not.toContainEqual(
        expect.stringContaining('cannot be checked'),
      );
    }
  });

  it.each([
    {
      type: 'object',
      properties: { a: { type: ['string', 'null'] } },
      additionalProperties: false,
    },
    {
      $schema: 'http://json-schema.org/draft-04/schema#',
      definitions: { a: { type: 'string' } },
      properties: { x: { $ref: '#/definitions/a' } },
    },
    {
      type: 'object',
      properties: { a: { type: 'string', nullable: true, format: 'date' } },
      required: ['a'],
    },
    // (`then` written as JSON: an object literal with a `then` looks like a promise.)
    {
      anyOf: [{ type: 'string' }, { const: 5 }, true],
      ...JSON.parse('{"if":{},"then":{},"else":{}}'),
    },
    { type: 'number', exclusiveMinimum: true, minimum: 0, 'x-unknown': { type: 'nonsense' } },
    true,
  ])('passes hand-written schemas: %j', (schema) => {
    expect(refusal(schema)).toBeUndefined();
    expect(validateJsonSchema(schema, 'x').map((issue) => issue.message)).not.toContainEqual(
      expect.stringContaining('cannot be checked'),
    );
  });

  it.each([
    [
      { type: 'strin' },
      'type must be one of string, number, integer, boolean, object, array, null (or a list of them), got "strin"',
    ],
    [{ properties: { a: { type: ['string', 'nul'] } } }, 'at #/properties/a: type must be one of'],
    [{ properties: [] }, 'properties must be an object of schemas, got an array'],
    [{ required: 'a' }, 'required must be an array of property names, got "a"'],
    [{ enum: 5 }, 'enum must be an array, got 5'],
    [{ items: { minLength: '3' } }, 'at #/items: minLength must be an integer ≥ 0, got "3"'],
    [{ pattern: '(' }, 'pattern must be a regular expression'],
    [{ multipleOf: 0 }, 'multipleOf must be a number > 0, got 0'],
    [{ anyOf: [] }, 'anyOf must be a non-empty list'],
    [{ minLength: 'abc' }, 'minLength must be an integer ≥ 0, got "abc"'],
    [{ uniqueItems: 'yes' }, 'uniqueItems must be true or false, got "yes"'],
    [{ type: 'string', nullable: 'true' }, 'nullable must be true or false, got "true"'],
    [{ $ref: 5 }, '$ref must be a pointer inside the schema, got 5'],
    [
      { properties: { a: 5 } },
      'at #/properties/a: must be a schema (an object or true/false), got 5',
    ],
    [
      { properties: { a: { $ref: '#/$defs/missing' } } },
      '$ref "#/$defs/missing" must point inside the schema',
    ],
    [{ $ref: 'https://example.com/schema.json' }, 'must point inside the schema'],
    [{ $ref: '#' }, '$ref "#" loops back to itself'],
    [
      {
        $defs: { a: { allOf: [{ $ref: '#/$defs/b' }] }, b: { $ref: '#/$defs/a' } },
        $ref: '#/$defs/a',
      },
      'loops back to itself',
    ],
  ])('refuses %j', (schema, message) => {
    const error = refusal(schema);
    expect(error?.code).toBe('invalid_request_error');
    expect(error?.field).toBe(FIELD);
    expect(error?.message).toContain(
      `${FIELD}: is not a JSON Schema core can check answers against`,
    );
    expect(error?.message).toContain(message);
    // One reader: the answer check refuses every answer with the same words, ignoring nothing.
    for (const answer of ['abcd', null, [1, 1], { a: 1 }, 7]) {
      expect(validateJsonSchema(schema as JsonSchema, answer)).toEqual([
        { path: '', message: expect.stringMatching(/^cannot be checked: the schema/) },
      ]);
      expect(validateJsonSchema(schema as JsonSchema, answer)[0]?.message).toContain(message);
    }
  });

  it('refuses a keyword of the wrong kind in the check too, never reading it half-way', () => {
    // Before, `"3"` was compared as a number and `"abc"` ignored: answers passed or failed by luck.
    const issues = validateJsonSchema({ type: 'string', minLength: '3' }, 'abcd');
    expect(issues).toEqual([
      {
        path: '',
        message: 'cannot be checked: the schema: minLength must be an integer ≥ 0, got "3"',
      },
    ]);
    expect(refusal({ type: 'string', minLength: '3' })?.message).toContain(
      'minLength must be an integer ≥ 0, got "3"',
    );
  });

  it('bounds the depth of $refs by the schema depth limit', () => {
    expect(SCHEMA_MAX_DEPTH).toBe(LIMITS.schemaMaxDepth);
    const chain = (length: number) => {
      const $defs: Record<string, unknown> = { [`d${length}`]: { type: 'string' } };
      for (let i = 0; i < length; i++) $defs[`d${i}`] = { $ref: `#/$defs/d${i + 1}` };
      return { $defs, $ref: '#/$defs/d0' };
    };
    expect(refusal(chain(60))).toBeUndefined();
    expect(refusal(chain(8000))?.message).toContain('more than 64 schemas deep');
  });

  it('quotes a bad value cut at a code point (no half emoji)', () => {
    const error = refusal({ minLength: '🙂'.repeat(30) });
    expect(error?.message).toContain('minLength must be an integer ≥ 0');
    expect(/\p{Cs}/u.test(error?.message ?? '')).toBe(false);
  });

  it('reads properties and patternProperties written as null as absent, as the check does', () => {
    const schema = { type: 'object', properties: null, patternProperties: null };
    expect(refusal(schema)).toBeUndefined();
    expect(validateJsonSchema(schema, { a: 1 })).toEqual([]);
  });

  it('passes a recursive list that consumes a value between its $refs', () => {
    const schema = {
      type: 'object',
      properties: { next: { anyOf: [{ type: 'null' }, { $ref: '#' }] } },
    };
    expect(refusal(schema)).toBeUndefined();
  });
});

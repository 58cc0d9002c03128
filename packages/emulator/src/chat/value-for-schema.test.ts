import { Validator } from '@cfworker/json-schema';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { valueForSchema } from './value-for-schema';

function expectValid(
  schema: Record<string, unknown>,
  text?: string,
  facts?: Record<string, unknown>,
) {
  const value = valueForSchema(schema, { text, facts });
  const result = new Validator(schema as never, '2020-12', false).validate(value);
  expect(result.errors, JSON.stringify(value)).toEqual([]);
  return value as Record<string, unknown>;
}

describe('valueForSchema', () => {
  it.each([
    ['string', { type: 'string' }],
    ['bounded string', { type: 'string', minLength: 12, maxLength: 14 }],
    ['short string', { type: 'string', maxLength: 2 }],
    ['integer range', { type: 'integer', minimum: 10, maximum: 12 }],
    ['negative range', { type: 'number', maximum: -5 }],
    ['exclusive bounds', { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 }],
    ['multipleOf', { type: 'integer', minimum: 7, multipleOf: 5 }],
    ['boolean', { type: 'boolean' }],
    ['null', { type: 'null' }],
    ['enum', { enum: ['a', 'b'] }],
    ['const', { const: { x: 1 } }],
    ['type list', { type: ['null', 'integer'] }],
    ['anyOf', { anyOf: [{ type: 'null' }, { type: 'string', format: 'email' }] }],
    ['oneOf', { oneOf: [{ type: 'integer' }, { type: 'array', items: { type: 'string' } }] }],
    [
      'formats',
      {
        type: 'object',
        properties: Object.fromEntries(
          ['date-time', 'date', 'time', 'email', 'uri', 'uuid', 'ipv4', 'hostname'].map((f) => [
            f,
            { type: 'string', format: f },
          ]),
        ),
        required: ['date-time', 'uuid'],
      },
    ],
    ['pattern', { type: 'string', pattern: '^[0-9]+$' }],
    [
      'tuple',
      { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false },
    ],
    ['unique items', { type: 'array', items: { type: 'string' }, minItems: 3, uniqueItems: true }],
    [
      'unique enum items',
      { type: 'array', items: { enum: ['x', 'y', 'z'] }, minItems: 2, uniqueItems: true },
    ],
    ['empty array', { type: 'array', maxItems: 0 }],
    [
      'allOf',
      {
        allOf: [
          { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
          { properties: { b: { type: 'integer' } }, required: ['b'] },
        ],
      },
    ],
    ['required without properties', { type: 'object', required: ['x'] }],
  ])('is valid for %s', (_name, schema) => {
    expectValid(schema as Record<string, unknown>);
  });

  it('follows local $ref and stops recursion', () => {
    const schema = {
      $defs: {
        node: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            children: { type: 'array', items: { $ref: '#/$defs/node' } },
          },
          required: ['name', 'children'],
        },
      },
      $ref: '#/$defs/node',
    };
    const value = expectValid(schema);
    expect(value.name).toBe('example name');
  });

  it('uses the given text for plain strings', () => {
    const value = expectValid(
      {
        type: 'object',
        properties: { city: { type: 'string' }, when: { type: 'string', format: 'date' } },
      },
      'Lviv',
    );
    expect(value).toEqual({ city: 'Lviv', when: '2024-01-01' });
  });

  it('fills properties from known facts where they are valid, else as usual', () => {
    const schema = z.toJSONSchema(
      z.object({
        orderId: z.string(),
        status: z.enum(['pending', 'shipped']),
        items: z.number().int().min(1),
        express: z.boolean(),
        note: z.string().nullable(),
        code: z.string().regex(/^[A-Z]+$/),
        weight: z.number().max(10),
        summary: z.string(),
      }),
    ) as Record<string, unknown>;
    const value = expectValid(schema, 'Tool lookup returned: …', {
      orderId: 'A-1042',
      status: 'shipped',
      items: 3,
      express: false,
      note: 'Ships Friday',
      code: 'lower-case',
      weight: 12,
    });
    expect(value).toEqual({
      orderId: 'A-1042',
      status: 'shipped',
      items: 3,
      express: false,
      note: 'Ships Friday',
      code: 'A', // the fact breaks the pattern: a candidate that fits is used
      weight: 1, // above the maximum: generated
      summary: 'Tool lookup returned: …',
    });
  });

  it('ignores facts of the wrong type or outside an enum', () => {
    const value = expectValid(
      {
        type: 'object',
        properties: {
          count: { type: 'integer' },
          kind: { enum: ['a', 'b'] },
          name: { type: 'string', maxLength: 3 },
        },
      },
      undefined,
      { count: 1.5, kind: 'c', name: 'too long' },
    );
    expect(value).toEqual({ count: 1, kind: 'a', name: 'exa' });
  });

  it('is deterministic', () => {
    const schema = z.toJSONSchema(z.object({ a: z.array(z.number()), b: z.string().optional() }));
    expect(valueForSchema(schema)).toEqual(valueForSchema(schema));
  });

  it('is valid for a zod schema with records, defaults and discriminated unions', () => {
    const schema = z.toJSONSchema(
      z.object({
        scores: z.record(z.string(), z.number()),
        level: z.number().default(3),
        shape: z.discriminatedUnion('kind', [
          z.object({ kind: z.literal('circle'), r: z.number().positive() }),
          z.object({ kind: z.literal('square'), side: z.number() }),
        ]),
        id: z.uuid(),
        url: z.url(),
      }),
    ) as Record<string, unknown>;
    expectValid(schema);
  });
});

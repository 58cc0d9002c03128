import { type SchemaDraft, Validator } from '@cfworker/json-schema';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type JsonSchema, validateJsonSchema } from './validate-json-schema';

// Our check against @cfworker/json-schema, the validator core used before (kept as a test
// oracle): for each schema of the corpus and each value, valid or a mutation of a valid one, both
// say the same (valid or not). The corpus has the schemas structured output meets: zod 4's
// `toJSONSchema` (2020-12, and draft-07 as `ai`'s zodSchema asks) and hand-written ones. No value
// breaks a `format` (the oracle asserts it, we do not) and multipleOf values are plain decimals.

const Tree: z.ZodType = z.object({
  name: z.string(),
  get children() {
    return z.array(Tree).optional();
  },
});

const zodCases: [string, z.ZodType, unknown[]][] = [
  [
    'object, nested',
    z.object({
      city: z.string(),
      kind: z.enum(['town', 'village']),
      where: z.object({ country: z.string(), rank: z.number().int() }),
    }),
    [{ city: 'Oslo', kind: 'town', where: { country: 'Norway', rank: 1 } }],
  ],
  [
    'optional, nullable, nullish, default',
    z.object({
      a: z.string().optional(),
      b: z.number().nullable(),
      c: z.boolean().nullish(),
      d: z.string().default('x'),
    }),
    [
      { b: null, d: 'y' },
      { a: 'a', b: 2, c: true, d: 'z' },
      { a: '', b: 0, c: null, d: '' },
    ],
  ],
  [
    'arrays',
    z.object({
      tags: z.array(z.string()).min(1).max(3),
      points: z.array(z.object({ x: z.number(), y: z.number() })),
      maybe: z.array(z.number().nullable()),
    }),
    [{ tags: ['a', 'b'], points: [{ x: 1, y: 2 }], maybe: [1, null, 3] }],
  ],
  ['tuple', z.tuple([z.string(), z.number()]), [['a', 1]]],
  ['tuple with rest', z.tuple([z.string()], z.boolean()), [['a'], ['a', true, false]]],
  ['union', z.union([z.string(), z.number(), z.object({ v: z.boolean() })]), ['s', 2, { v: true }]],
  [
    'discriminated union',
    z.discriminatedUnion('type', [
      z.object({ type: z.literal('a'), a: z.string() }),
      z.object({ type: z.literal('b'), b: z.number(), c: z.array(z.string()) }),
    ]),
    [
      { type: 'a', a: 'x' },
      { type: 'b', b: 1, c: ['y'] },
    ],
  ],
  [
    'enums and literals',
    z.object({
      e: z.enum(['x', 'y']),
      l: z.literal(42),
      s: z.literal('on'),
      n: z.null(),
      m: z.literal(['a', 'b']),
    }),
    [{ e: 'x', l: 42, s: 'on', n: null, m: 'b' }],
  ],
  ['record', z.record(z.string(), z.number()), [{}, { a: 1, b: 2 }]],
  [
    'record with keys of a pattern',
    z.record(z.string().regex(/^[a-z]+$/), z.object({ n: z.number() })),
    [{ ab: { n: 1 } }],
  ],
  [
    'strings',
    z.object({
      s: z.string().min(2).max(5),
      r: z.string().regex(/^[A-Z]{2}\d$/),
      len: z.string().length(3),
      emoji: z.string().max(2),
    }),
    [
      { s: 'ab', r: 'AB1', len: 'abc', emoji: '😀😀' },
      { s: 'abcde', r: 'ZZ9', len: 'x y', emoji: '' },
    ],
  ],
  [
    'numbers',
    z.object({
      i: z.int(),
      m: z.number().min(0).max(10),
      g: z.number().gt(0).lt(1),
      k: z.number().multipleOf(0.5),
      c: z.number().multipleOf(0.01),
      p: z.number().positive(),
    }),
    [
      { i: 3, m: 0, g: 0.5, k: 1.5, c: 19.99, p: 1 },
      { i: -7, m: 10, g: 0.001, k: -2, c: 0.1, p: 0.1 },
    ],
  ],
  [
    'recursive through a getter',
    Tree,
    [{ name: 'a', children: [{ name: 'b', children: [{ name: 'c' }] }, { name: 'd' }] }],
  ],
  [
    'intersection',
    z.intersection(z.object({ a: z.string() }), z.object({ b: z.number() })),
    [{ a: 'x', b: 1 }],
  ],
  ['strict object', z.strictObject({ a: z.string(), b: z.number().optional() }), [{ a: 'x' }]],
  [
    'loose object with a catchall',
    z.object({ a: z.string() }).catchall(z.number()),
    [{ a: 'x' }, { a: 'x', n: 1 }],
  ],
  ['boolean and unknown', z.object({ b: z.boolean(), u: z.unknown() }), [{ b: true, u: [1] }]],
];

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
const handCases: [string, SchemaDraft, JsonSchema, unknown[]][] = [
  [
    'draft-07 definitions and $ref',
    '7',
    {
      $schema: DRAFT_07,
      definitions: {
        address: {
          type: 'object',
          properties: { street: { type: 'string' }, zip: { type: 'string', pattern: '^\\d{4}$' } },
          required: ['street'],
        },
        count: { type: 'integer' },
      },
      type: 'object',
      properties: {
        home: { $ref: '#/definitions/address' },
        work: { $ref: '#/definitions/address' },
        // Draft 07 ignores the keywords beside a $ref: 10 is a valid count.
        count: { $ref: '#/definitions/count', maximum: 3 },
      },
      required: ['home'],
      additionalProperties: false,
    },
    [{ home: { street: 'a', zip: '0150' }, work: { street: 'b' }, count: 10 }],
  ],
  [
    'draft-07 items array and additionalItems',
    '7',
    {
      $schema: DRAFT_07,
      type: 'array',
      items: [{ type: 'string' }, { type: 'integer' }],
      additionalItems: false,
      minItems: 1,
    },
    [['a'], ['a', 2]],
  ],
  [
    'if/then/else',
    '2020-12',
    {
      type: 'object',
      properties: { kind: { enum: ['city', 'village'] }, mayor: { type: 'string' } },
      if: { properties: { kind: { const: 'city' } } },
      // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, not a thenable.
      then: { required: ['mayor'] },
      else: { not: { required: ['mayor'] } },
    },
    [{ kind: 'city', mayor: 'x' }, { kind: 'village' }],
  ],
  [
    'draft-04 exclusive bounds',
    '4',
    {
      $schema: 'http://json-schema.org/draft-04/schema#',
      type: 'number',
      minimum: 0,
      exclusiveMinimum: true,
      maximum: 10,
      exclusiveMaximum: true,
    },
    [0.5, 5, 9.5],
  ],
  [
    'oneOf, uniqueItems, contains',
    '2020-12',
    {
      type: 'array',
      items: { oneOf: [{ type: 'integer' }, { type: 'number', minimum: 100 }, { type: 'string' }] },
      uniqueItems: true,
      contains: { type: 'string' },
      minContains: 1,
      maxContains: 2,
    },
    [
      ['a', 1, 250.5],
      ['a', 'b', 3],
    ],
  ],
  [
    'patternProperties, propertyNames, const objects',
    '2019-09',
    {
      type: 'object',
      patternProperties: { '^x_': { const: { on: true } } },
      propertyNames: { maxLength: 4 },
      additionalProperties: { type: 'number' },
      minProperties: 1,
    },
    [{ x_a: { on: true }, n: 1 }],
  ],
  [
    '2019-09 $ref with siblings, $defs',
    '2019-09',
    {
      $defs: { positive: { type: 'number', exclusiveMinimum: 0 } },
      type: 'object',
      properties: { n: { $ref: '#/$defs/positive', maximum: 5 } },
    },
    [{ n: 1 }, { n: 5 }],
  ],
];

const REPLACEMENTS: unknown[] = [null, 0, -1, 2.5, 1e9, 'x', '', 'ABCDEFGHIJ', true, [], {}, ['x']];

/** The value, changed once in each of many ways: each node replaced, a key gone or added, … */
function* mutations(value: unknown): Generator<unknown> {
  yield* REPLACEMENTS;
  if (Array.isArray(value)) {
    yield [];
    yield value.slice(1);
    yield [...value, value[0]];
    yield [...value, 'x'];
    for (const [index, item] of value.entries()) {
      for (const changed of mutations(item)) yield value.with(index, changed);
    }
  } else if (typeof value === 'object' && value !== null) {
    const object = value as Record<string, unknown>;
    for (const key of Object.keys(object)) {
      const { [key]: _, ...rest } = object;
      yield rest;
      for (const changed of mutations(object[key])) yield { ...object, [key]: changed };
    }
    yield { ...object, extra: 1 };
    yield { ...object, LONGKEY: { on: true } };
  } else if (typeof value === 'number') {
    // Plain decimals: 19.99 + 0.25 is 20.240000000000002, which the oracle's exact decimal
    // multipleOf refuses and our float-safe one accepts.
    const changed = [value + 1, value - 1, value + 0.5, -value, value * 10, value + 0.25];
    yield* changed.map((number) => Number(number.toFixed(9)));
  } else if (typeof value === 'string') {
    yield* [value + value, value.slice(1), value.toLowerCase(), `${value}1`, `x_${value}`];
  }
}

/** Each pair of the case, once: its valid values and their mutations. */
function valuesOf(valid: unknown[]): unknown[] {
  const seen = new Map<string, unknown>();
  for (const value of valid) {
    seen.set(JSON.stringify(value), value);
    for (const changed of mutations(value)) seen.set(JSON.stringify(changed), changed);
  }
  return [...seen.values()];
}

interface Outcome {
  pairs: number;
  valid: number;
  disagreements: string[];
}

function compare(draft: SchemaDraft, schema: JsonSchema, values: unknown[]): Outcome {
  const oracle = new Validator(structuredClone(schema) as object, draft, false);
  const outcome: Outcome = { pairs: 0, valid: 0, disagreements: [] };
  for (const value of values) {
    const expected = oracle.validate(value).valid;
    const ours = validateJsonSchema(schema, value);
    outcome.pairs += 1;
    if (expected) outcome.valid += 1;
    if (expected !== (ours.length === 0)) {
      outcome.disagreements.push(
        `${JSON.stringify(value)}: oracle ${expected}, ours ${ours[0]?.message}`,
      );
    }
  }
  return outcome;
}

const totals = { pairs: 0, valid: 0 };

describe('validateJsonSchema agrees with @cfworker/json-schema (the oracle)', () => {
  const targets = [
    ['2020-12', undefined],
    ['7', 'draft-7'],
  ] as const;
  for (const [name, type, valid] of zodCases) {
    for (const [draft, target] of targets) {
      it(`zod 4: ${name} (${target ?? '2020-12'})`, () => {
        const schema = z.toJSONSchema(type, target ? { target } : {}) as JsonSchema;
        for (const value of valid) expect(validateJsonSchema(schema, value)).toEqual([]);
        const outcome = compare(draft, schema, valuesOf(valid));
        expect(outcome.disagreements).toEqual([]);
        totals.pairs += outcome.pairs;
        totals.valid += outcome.valid;
      });
    }
  }

  for (const [name, draft, schema, valid] of handCases) {
    it(`hand-written: ${name}`, () => {
      for (const value of valid) expect(validateJsonSchema(schema, value)).toEqual([]);
      const outcome = compare(draft, schema, valuesOf(valid));
      expect(outcome.disagreements).toEqual([]);
      totals.pairs += outcome.pairs;
      totals.valid += outcome.valid;
    });
  }

  it('covers many pairs, valid and invalid ones', () => {
    // The corpus is fixed: this says when a change to it loses most of its pairs.
    expect(totals.pairs).toBeGreaterThan(3000);
    expect(totals.valid).toBeGreaterThan(800);
    expect(totals.pairs - totals.valid).toBeGreaterThan(2000);
  });
});

import { describe, expect, it } from 'vitest';
import { type JsonSchema, pointerSegment, validateJsonSchema } from './validate-json-schema';

/** The issues of `value` against `schema`, as `path: message` lines. */
function issues(schema: JsonSchema, value: unknown): string[] {
  return validateJsonSchema(schema, value).map(({ path, message }) => `${path}: ${message}`);
}

describe('validateJsonSchema: boolean schemas and type', () => {
  it('true accepts anything, false nothing', () => {
    expect(issues(true, { a: 1 })).toEqual([]);
    expect(issues(false, 1)).toEqual([': must not be present']);
  });

  it('checks each JSON type, integer being a number without a fraction', () => {
    expect(issues({ type: 'integer' }, 3)).toEqual([]);
    expect(issues({ type: 'integer' }, 3.5)).toEqual([': must be integer, got number']);
    expect(issues({ type: 'integer' }, '3')).toEqual([': must be integer, got string']);
    expect(issues({ type: 'number' }, 3)).toEqual([]);
    expect(issues({ type: 'array' }, {})).toEqual([': must be array, got object']);
    expect(issues({ type: 'object' }, [])).toEqual([': must be object, got array']);
    expect(issues({ type: 'object' }, null)).toEqual([': must be object, got null']);
    expect(issues({ type: 'boolean' }, false)).toEqual([]);
  });

  it('reads a list of types, and OpenAPI 3.0 nullable', () => {
    expect(issues({ type: ['string', 'null'] }, null)).toEqual([]);
    expect(issues({ type: ['string', 'null'] }, 1)).toEqual([
      ': must be string or null, got number',
    ]);
    expect(issues({ type: 'string', nullable: true }, null)).toEqual([]);
    expect(issues({ type: 'string', nullable: true }, 2)).toEqual([': must be string, got number']);
  });
});

describe('validateJsonSchema: enum and const', () => {
  it('compares JSON values deeply, key order aside', () => {
    const schema = { enum: ['town', { a: [1, { b: 2 }] }, null] };
    expect(issues(schema, { a: [1, { b: 2 }] })).toEqual([]);
    expect(issues(schema, null)).toEqual([]);
    expect(issues(schema, { a: [1, { b: 3 }] })).toHaveLength(1);
    expect(issues({ const: { x: 1, y: 2 } }, { y: 2, x: 1 })).toEqual([]);
    expect(issues({ const: [1, 2] }, [2, 1])).toEqual([': must be [1,2]']);
    expect(issues({ const: [] }, {})).toEqual([': must be []']);
    expect(issues({ const: null }, 0)).toEqual([': must be null']);
    expect(issues({ const: null }, null)).toEqual([]);
  });

  it('names the allowed values, cut when long', () => {
    expect(issues({ enum: ['town', 'city'] }, 'hamlet')).toEqual([
      ': must be one of "town", "city"',
    ]);
    const long = Array.from({ length: 100 }, (_, i) => `value-${i}`);
    const [message] = validateJsonSchema({ enum: long }, 'x').map((issue) => issue.message);
    expect(message!.length).toBeLessThan(100);
    expect(message).toMatch(/^must be one of "value-0", "value-1", .*…$/);
  });
});

describe('validateJsonSchema: objects', () => {
  const place = {
    type: 'object',
    properties: { city: { type: 'string' }, 'a/b~c': { type: 'number' } },
    required: ['city'],
    additionalProperties: false,
  };

  it('checks properties at escaped paths, required and additionalProperties false', () => {
    expect(issues(place, { city: 'Oslo', 'a/b~c': 1 })).toEqual([]);
    expect(issues(place, { 'a/b~c': 'one', extra: true })).toEqual([
      ': must have property city',
      '/a~1b~0c: must be number, got string',
      ': must not have property extra',
    ]);
  });

  it('checks additionalProperties and patternProperties as schemas', () => {
    const schema = {
      properties: { id: { type: 'string' } },
      patternProperties: { '^n_': { type: 'number' } },
      additionalProperties: { type: 'boolean' },
    };
    expect(issues(schema, { id: 'a', n_x: 1, flag: true })).toEqual([]);
    expect(issues(schema, { id: 'a', n_x: 'one', flag: 1 })).toEqual([
      '/n_x: must be number, got string',
      '/flag: must be boolean, got number',
    ]);
  });

  it('checks propertyNames and the number of properties', () => {
    const schema = { propertyNames: { pattern: '^[a-z]+$' }, minProperties: 1, maxProperties: 2 };
    expect(issues(schema, { ab: 1 })).toEqual([]);
    expect(issues(schema, { Ab: 1 })).toEqual([': must not have property Ab (propertyNames)']);
    expect(issues(schema, {})).toEqual([': must have at least 1 properties']);
    expect(issues(schema, { a: 1, b: 2, c: 3 })).toEqual([': must have at most 2 properties']);
  });
});

describe('validateJsonSchema: arrays', () => {
  it('checks items, their count and uniqueness', () => {
    const schema = { items: { type: 'number' }, minItems: 1, maxItems: 3, uniqueItems: true };
    expect(issues(schema, [1, 2])).toEqual([]);
    expect(issues(schema, [])).toEqual([': must have at least 1 items']);
    expect(issues(schema, [1, 2, 3, 4])).toEqual([': must have at most 3 items']);
    expect(issues(schema, [1, 'x'])).toEqual(['/1: must be number, got string']);
    expect(issues({ uniqueItems: true }, [{ a: 1 }, 2, { a: 1 }])).toEqual([
      ': must have unique items (item 2 repeats one)',
    ]);
  });

  it('reads tuples: prefixItems (2020-12) and items as an array with additionalItems', () => {
    const modern = { prefixItems: [{ type: 'string' }, { type: 'number' }], items: false };
    expect(issues(modern, ['a', 1])).toEqual([]);
    expect(issues(modern, ['a', 'b', 3])).toEqual([
      '/1: must be number, got string',
      '/2: must not be present',
    ]);
    const legacy = { items: [{ type: 'string' }], additionalItems: { type: 'boolean' } };
    expect(issues(legacy, ['a', true, false])).toEqual([]);
    expect(issues(legacy, [1, 'b'])).toEqual([
      '/0: must be string, got number',
      '/1: must be boolean, got string',
    ]);
    // additionalItems means nothing beside an `items` schema.
    expect(issues({ items: { type: 'string' }, additionalItems: false }, ['a', 'b'])).toEqual([]);
  });

  it('checks contains, minContains and maxContains', () => {
    const schema = { contains: { const: 1 } };
    expect(issues(schema, [0, 1])).toEqual([]);
    expect(issues(schema, [0])).toEqual([': must have at least 1 items matching contains']);
    const counted = { contains: { const: 1 }, minContains: 2, maxContains: 2 };
    expect(issues(counted, [1, 1])).toEqual([]);
    expect(issues(counted, [1, 0])).toEqual([': must have at least 2 items matching contains']);
    expect(issues(counted, [1, 1, 1])).toEqual([': must have at most 2 items matching contains']);
  });
});

describe('validateJsonSchema: strings and numbers', () => {
  it('counts code points for minLength and maxLength', () => {
    const schema = { minLength: 2, maxLength: 3 };
    expect(issues(schema, '😀😀')).toEqual([]);
    expect(issues(schema, '😀')).toEqual([': must have at least 2 characters']);
    expect(issues(schema, '😀😀😀😀')).toEqual([': must have at most 3 characters']);
  });

  it('tests a pattern with the u flag, and reads one only valid without it', () => {
    expect(issues({ pattern: '^.$' }, '😀')).toEqual([]);
    expect(issues({ pattern: '^[A-Z]{3}$' }, 'oslo')).toEqual([': must match pattern ^[A-Z]{3}$']);
    expect(issues({ pattern: '^\\d\\-\\d$' }, '1-2')).toEqual([]);
    expect(issues({ pattern: '(' }, 'x')).toEqual([
      ': cannot be checked: the schema: pattern must be a regular expression, got "("',
    ]);
  });

  it('checks bounds in their number and draft-04 boolean forms', () => {
    const schema = { minimum: 1, maximum: 5, exclusiveMinimum: 0, exclusiveMaximum: 4 };
    expect(issues(schema, 3)).toEqual([]);
    expect(issues(schema, 0)).toEqual([': must be >= 1', ': must be > 0']);
    expect(issues(schema, 4)).toEqual([': must be < 4']);
    expect(issues(schema, 6)).toEqual([': must be <= 5', ': must be < 4']);
    const draft4 = { minimum: 1, exclusiveMinimum: true, maximum: 2, exclusiveMaximum: true };
    expect(issues(draft4, 1.5)).toEqual([]);
    expect(issues(draft4, 1)).toEqual([': must be > 1']);
    expect(issues(draft4, 2)).toEqual([': must be < 2']);
  });

  it('checks multipleOf without being fooled by floating point', () => {
    expect(issues({ multipleOf: 0.1 }, 0.3)).toEqual([]);
    expect(issues({ multipleOf: 0.01 }, 19.99)).toEqual([]);
    expect(issues({ multipleOf: 0.1 }, 0.35)).toEqual([': must be a multiple of 0.1']);
    expect(issues({ multipleOf: 3 }, 10)).toEqual([': must be a multiple of 3']);
  });

  it('does not assert format (an annotation) and ignores unknown keywords', () => {
    expect(issues({ type: 'string', format: 'email', 'x-unknown': 1 }, 'not an email')).toEqual([]);
  });
});

describe('validateJsonSchema: combinations', () => {
  it('gives one issue for a failing anyOf or oneOf, not its branches’', () => {
    const anyOf = { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] };
    expect(issues(anyOf, 1)).toEqual([]);
    expect(issues(anyOf, true)).toEqual([': must match one of the 3 schemas of anyOf']);
    const oneOf = { oneOf: [{ type: 'number' }, { type: 'integer' }] };
    expect(issues(oneOf, 1.5)).toEqual([]);
    expect(issues(oneOf, 1)).toEqual([": matches 2 of oneOf's schemas, must match one"]);
    expect(issues(oneOf, 'x')).toEqual([': must match one of the 2 schemas of oneOf']);
  });

  it('checks allOf, not and if/then/else', () => {
    const allOf = { allOf: [{ required: ['a'] }, { required: ['b'] }] };
    expect(issues(allOf, { a: 1 })).toEqual([': must have property b']);
    expect(issues({ not: { type: 'string' } }, 's')).toEqual([
      ': must not match the schema of not',
    ]);
    const conditional = {
      if: { properties: { kind: { const: 'city' } } },
      // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, not a thenable.
      then: { required: ['mayor'] },
      else: { required: ['village'] },
    };
    expect(issues(conditional, { kind: 'city', mayor: 'x' })).toEqual([]);
    expect(issues(conditional, { kind: 'city' })).toEqual([': must have property mayor']);
    expect(issues(conditional, { kind: 'town' })).toEqual([': must have property village']);
  });
});

describe('validateJsonSchema: $ref', () => {
  const tree = {
    $defs: {
      node: {
        type: 'object',
        properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } },
      },
    },
    $ref: '#/$defs/node',
    required: ['name'],
  };

  it('follows refs inside the schema, recursively (a tree)', () => {
    const value = { name: 'a', children: [{ name: 'b', children: [{ name: 'c' }] }] };
    expect(issues(tree, value)).toEqual([]);
    const broken = { name: 'a', children: [{ children: [{ name: 1, children: 2 }] }] };
    expect(issues(tree, broken).sort()).toEqual([
      '/children/0/children/0/children: must be array, got number',
      '/children/0/children/0/name: must be string, got number',
      '/children/0: must have property name',
    ]);
  });

  it('resolves escaped segments and definitions', () => {
    const schema = {
      definitions: { 'a/b': { type: 'number' }, 'c~d': { type: 'string' } },
      properties: {
        x: { $ref: '#/definitions/a~1b' },
        y: { $ref: '#/definitions/c~0d' },
        z: { $ref: '#/definitions/a~1b' },
      },
    };
    expect(issues(schema, { x: 1, y: 'y', z: 2 })).toEqual([]);
    expect(issues(schema, { x: 'x', y: 2, z: 'z' })).toHaveLength(3);
  });

  it('ignores the keywords beside a $ref in drafts 04 to 07, not in 2019-09 and later', () => {
    const beside = { definitions: { n: { type: 'number' } }, $ref: '#/definitions/n', minimum: 5 };
    const draft7 = { $schema: 'http://json-schema.org/draft-07/schema#', ...beside };
    expect(issues(draft7, 1)).toEqual([]);
    expect(issues(beside, 1)).toEqual([': must be >= 5']);
  });

  it('makes a ref that does not resolve inside the schema an issue naming it, never a throw', () => {
    // (The schema read whole first: refused for every value, whichever part of it the value uses.)
    expect(issues({ $ref: 'https://example.test/other.json' }, 1)).toEqual([
      ': cannot be checked: the schema: $ref "https://example.test/other.json" must point inside the schema (#/$defs/…)',
    ]);
    expect(issues({ properties: { a: { $ref: '#/$defs/missing' } } }, {})).toEqual([
      ': cannot be checked: the schema at #/properties/a: $ref "#/$defs/missing" must point inside the schema (#/$defs/…)',
    ]);
    expect(issues({ $ref: '#anchor' }, 1)).toHaveLength(1);
    // A URL naming the schema's own $id is not followed either: refs stay plain pointers.
    expect(
      issues({ $id: 'https://example.test/s', $ref: 'https://example.test/s#' }, 1),
    ).toHaveLength(1);
    expect(issues({ $ref: '#' }, 1)).toEqual([
      ': cannot be checked: the schema: $ref "#" loops back to itself',
    ]);
  });
});

describe('validateJsonSchema: the walk', () => {
  it('never changes the schema (a frozen one is read as it is)', () => {
    const schema = {
      type: 'object',
      properties: { code: { type: 'string', pattern: '^[A-Z]+$' } },
      required: ['code'],
    };
    const before = JSON.stringify(schema);
    const freeze = (node: object): void => {
      Object.freeze(node);
      for (const child of Object.values(node)) if (typeof child === 'object') freeze(child);
    };
    freeze(schema);
    expect(issues(schema, { code: 'abc' })).toHaveLength(1);
    expect(issues(schema, { code: 'ABC' })).toEqual([]);
    expect(JSON.stringify(schema)).toBe(before);
  });

  it('collects at most the bound of issues (200 unless told)', () => {
    const schema = { items: { type: 'string' } };
    const value = Array.from({ length: 500 }, () => 0);
    expect(validateJsonSchema(schema, value)).toHaveLength(200);
    expect(validateJsonSchema(schema, value, 20)).toHaveLength(20);
  });

  it('refuses a malformed schema with an issue, not a throw', () => {
    const [issue, ...more] = validateJsonSchema({ enum: 5 }, 1);
    expect(more).toEqual([]);
    expect(issue).toEqual({
      path: '',
      message: 'cannot be checked: the schema: enum must be an array, got 5',
    });
  });

  it('writes JSON pointer segments with ~ and / escaped', () => {
    expect(pointerSegment('a/b~c')).toBe('/a~1b~0c');
    expect(pointerSegment(3)).toBe('/3');
  });
});

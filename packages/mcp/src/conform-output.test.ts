import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { conformTo, resultConformer } from './conform-output';

const entry = z.object({
  id: z.string(),
  tags: z.array(z.string()),
  sizes: z.array(z.number().int().min(1)).optional(),
});
const shape = z
  .object({
    text: z.string(),
    share: z.number().min(0).max(1),
    seconds: z.number().min(0),
    count: z.number().int().min(0),
    kind: z.literal('en'),
    on: z.boolean(),
    entries: z.array(entry),
  })
  .partial()
  .meta({ anyOf: [{ required: ['text'] }] });

describe('conformTo', () => {
  it.each([
    ['a number', { share: 0.5 }, { share: 0.5 }],
    ['a numeric string', { seconds: ' 3.2 ' }, { seconds: 3.2 }],
    ['a percentage where 0..1 is declared', { share: 98 }, { share: 0.98 }],
    ['1 (100 %, not 1 %)', { share: 1 }, { share: 1 }],
    ['a percentage as a string', { share: '50' }, { share: 0.5 }],
    ['above 100 where 0..1 is declared', { share: 101 }, {}],
    ['Infinity', { seconds: Number.POSITIVE_INFINITY }, {}],
    ['NaN', { seconds: Number.NaN }, {}],
    ['"1e309"', { seconds: '1e309' }, {}],
    ['hexadecimal', { seconds: '0x10' }, {}],
    ['a blank string', { seconds: ' ' }, {}],
    ['below the minimum', { seconds: -1 }, {}],
    ['a fraction where an integer is declared', { count: 2.5 }, {}],
    ['an integer written as a string', { count: '4' }, { count: 4 }],
    ['null', { text: 'x', kind: null }, { text: 'x' }],
    ['a number where a string is declared', { text: 'x', kind: 5 }, { text: 'x' }],
    ['the constant', { kind: 'en' }, { kind: 'en' }],
    ['another constant', { kind: 'de' }, {}],
    ['a string where a boolean is declared', { on: 'true' }, {}],
    ['extra fields', JSON.parse('{"on":false,"other":1,"__proto__":{"text":"no"}}'), { on: false }],
  ])('%s', (_, value, fields) => {
    expect(conformTo(shape, { text: 't', ...value })).toEqual({ text: 't', ...fields });
  });

  it('leaves out list entries that cannot be read, keeps those that can', () => {
    const entries = [
      { id: 'a', tags: ['x', 1, null], sizes: ['384', -1, 2.5, 8] },
      { id: 7, tags: [] },
      'not an entry',
      { id: 'b', tags: null, sizes: 16 },
      { id: 'c', tags: 'one' },
    ];
    expect(conformTo(shape, { text: 't', entries })).toEqual({
      text: 't',
      entries: [
        { id: 'a', tags: ['x'], sizes: [384, 8] },
        { id: 'b', tags: [], sizes: [16] },
        { id: 'c', tags: ['one'] },
      ],
    });
  });

  it('is undefined when a required field cannot be read; idempotent otherwise', () => {
    expect(conformTo(shape, { text: 5 })).toBeUndefined();
    expect(conformTo(shape, null)).toBeUndefined();
    const once = conformTo(shape, { text: 't', share: '98', entries: [{ id: 'a' }] });
    expect(conformTo(shape, once)).toEqual(once);
  });

  it("passes a field declared with no type on as it is (checked elsewhere: ask_model's output)", () => {
    const schema = z.object({ text: z.string(), output: z.unknown().describe('any') }).partial();
    const output = { city: 'Lviv', sizes: [1, '2'], nested: { n: null } };
    expect(conformTo(schema, { text: 't', output })).toEqual({ text: 't', output });
    expect(conformTo(schema, { text: 't', output: [1] })).toEqual({ text: 't', output: [1] });
    expect(conformTo(schema, { text: 't' })).toEqual({ text: 't' });
  });

  it('refuses, when compiled, a schema keyword it does not honour', () => {
    for (const schema of [
      z.object({ name: z.string().min(1) }),
      z.object({ choice: z.enum(['a', 'b']) }),
      z.object({ either: z.union([z.string(), z.number()]) }),
      z.looseObject({ open: z.string() }),
    ]) {
      expect(() => conformTo(schema, {})).toThrow(/conform-output\.ts cannot honour/);
    }
  });
});

describe('resultConformer', () => {
  const conform = resultConformer(shape);
  const text = [{ type: 'text' as const, text: 'the answer' }];

  it('conforms the structured content and keeps the text', () => {
    expect(conform({ content: text, structuredContent: { text: 'a', share: 98 } })).toEqual({
      content: text,
      structuredContent: { text: 'a', share: 0.98 },
    });
  });

  it('an answer missing a required field becomes a failed call that keeps the text', () => {
    const result = conform({ content: text, structuredContent: { text: null } });
    expect(result.isError).toBe(true);
    expect(result.content[0]).toEqual(text[0]);
    expect(result.structuredContent).toMatchObject({ error: { code: 'invalid_response' } });
  });

  it('a failed call whose envelope cannot be read keeps its text without structured content', () => {
    const result = conform({ isError: true, content: text, structuredContent: { error: 1 } });
    expect(result).toEqual({ isError: true, content: text });
  });
});

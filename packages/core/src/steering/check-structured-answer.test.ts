import { caught } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PLACE_SCHEMA } from '../../test/helpers';
import { isGatewayError } from '../errors/errors';
import { checkStructuredAnswer, type StandardSchemaLike } from './check-structured-answer';

const schema = PLACE_SCHEMA;
const valid = { city: 'Oslo', kind: 'town', where: { country: 'Norway', rank: 1 } };

function answered(value: unknown) {
  return { value, text: JSON.stringify(value) };
}

describe('checkStructuredAnswer with a JSON Schema (core’s own check)', () => {
  it('passes a valid answer through as it is', async () => {
    await expect(
      checkStructuredAnswer('m', 'json_schema', answered(valid), { schema }),
    ).resolves.toEqual(valid);
  });

  it('fails a schema-breaking answer with the innermost issues, their paths, the method and the text', async () => {
    const value = { city: 'Oslo', kind: 'hamlet', where: { rank: '1' } };
    const error = await caught(
      checkStructuredAnswer('vendor/m', 'tools', answered(value), { schema }),
      isGatewayError,
    );
    expect(error.code).toBe('invalid_structured_output');
    expect(error.invalidOutput?.method).toBe('tools');
    expect(error.invalidOutput?.text).toBe(JSON.stringify(value));
    const issues = error.invalidOutput?.issues ?? [];
    expect(issues.map((issue) => issue.path).sort()).toEqual(['/kind', '/where', '/where/rank']);
    expect(issues.find((issue) => issue.path === '/where/rank')?.message).toMatch(/integer/);
    // (Their parents, "property where does not match" at the root, are left out.)
    expect(error.message).toMatch(
      /^vendor\/m answered structured output \(method tools\) that fails its check: /,
    );
  });

  it('keeps at most 20 issues on the error and says how many more in its message', async () => {
    const many = { type: 'array', items: { type: 'number' } };
    const value = Array.from({ length: 50 }, () => 'x');
    const error = await caught(
      checkStructuredAnswer('m', 'json_object', answered(value), { schema: many }),
      isGatewayError,
    );
    expect(error.invalidOutput?.issues).toHaveLength(20);
    expect(error.message).toMatch(/; and 17 more$/);
  });

  it('does not mark or change the caller’s schema, and reads its declared draft', async () => {
    const draft7 = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      definitions: { n: { type: 'number' } },
      type: 'object',
      properties: { n: { $ref: '#/definitions/n' } },
    };
    const before = JSON.stringify(draft7);
    Object.freeze(draft7);
    await expect(
      checkStructuredAnswer('m', 'json_schema', answered({ n: 1 }), { schema: draft7 }),
    ).resolves.toEqual({ n: 1 });
    const refused = await caught(
      checkStructuredAnswer('m', 'json_schema', answered({ n: 'one' }), { schema: draft7 }),
      isGatewayError,
    );
    expect(refused.code).toBe('invalid_structured_output');
    expect(JSON.stringify(draft7)).toBe(before);
    expect(Object.getOwnPropertyNames(draft7)).toEqual(Object.keys(JSON.parse(before)));
  });

  it('checks a schema with a pattern without eval (Workers and edge runtimes forbid it)', async () => {
    const code = {
      type: 'object',
      properties: { code: { type: 'string', pattern: '^[A-Z]{3}$' } },
    };
    await expect(
      checkStructuredAnswer('m', 'json_schema', answered({ code: 'OSL' }), { schema: code }),
    ).resolves.toEqual({
      code: 'OSL',
    });
    const error = await caught(
      checkStructuredAnswer('m', 'json_schema', answered({ code: 'oslo' }), { schema: code }),
      isGatewayError,
    );
    expect(error.invalidOutput?.issues[0]?.path).toBe('/code');
  });
});

describe('checkStructuredAnswer with a Standard Schema', () => {
  const Place = z.object({
    city: z.string(),
    kind: z.enum(['town', 'village']),
    where: z.object({ country: z.string(), rank: z.number().int() }),
    population: z.number().default(0),
  });

  it('uses the schema’s own ~standard.validate, and gives its output (defaults applied)', async () => {
    await expect(
      checkStructuredAnswer('m', 'json_schema', answered(valid), { schema: {}, standard: Place }),
    ).resolves.toEqual({ ...valid, population: 0 });
  });

  it('fails with its issues, their paths as JSON pointers', async () => {
    const value = { city: 'Oslo', kind: 'hamlet', where: { country: 'Norway' } };
    const error = await caught(
      checkStructuredAnswer('m', 'json_object', answered(value), { schema, standard: Place }),
      isGatewayError,
    );
    expect(error.code).toBe('invalid_structured_output');
    expect(error.invalidOutput?.issues.map((issue) => issue.path)).toEqual([
      '/kind',
      '/where/rank',
    ]);
  });

  it('reads a hand-written Standard Schema whose validate is async and whose paths are segments', async () => {
    const standard: StandardSchemaLike = {
      '~standard': {
        version: 1,
        vendor: 'test',
        validate: async (value) =>
          (value as { ok?: boolean }).ok === true
            ? { value: 'accepted' }
            : { issues: [{ message: 'not ok', path: [{ key: 'a/b' }, 0, 'ti~lde'] }] },
      },
    };
    await expect(
      checkStructuredAnswer('m', 'tools', answered({ ok: true }), { schema: {}, standard }),
    ).resolves.toBe('accepted');
    const error = await caught(
      checkStructuredAnswer('m', 'tools', answered({}), { schema: {}, standard }),
      isGatewayError,
    );
    expect(error.invalidOutput?.issues).toEqual([{ message: 'not ok', path: '/a~1b/0/ti~0lde' }]);
  });

  it('a refusal without issues still fails, with one issue saying so', async () => {
    const standard: StandardSchemaLike = {
      '~standard': { version: 1, vendor: 'test', validate: () => ({ issues: [] }) },
    };
    const error = await caught(
      checkStructuredAnswer('m', 'tools', answered({}), { schema: {}, standard }),
      isGatewayError,
    );
    expect(error.invalidOutput?.issues).toEqual([{ message: 'the schema refused the answer' }]);
  });
});

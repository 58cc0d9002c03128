// A schema LangChain's converter cannot write is refused naming why: "recursive" only when the
// converter failed on a recursion, its own message otherwise (a `z.bigint()` was once called
// "a recursive schema?"). Through `withStructuredOutput` and the `response_format` call option.
import { isGatewayError } from '@infergate/core';
import { caught } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { recordingModel } from '../../test/helpers';

// zod 4's getter form of a recursive schema: LangChain's converter overflows its stack on it.
const tree = z.object({
  name: z.string(),
  get children() {
    return z.array(tree).optional();
  },
});
const withBigInt = z.object({ id: z.bigint() });
const withDate = z.object({ at: z.date() });

const jsonSchemaFormat = (schema: unknown) => ({
  type: 'json_schema' as const,
  json_schema: { name: 'answer', schema: schema as Record<string, unknown> },
});

describe('a schema the converter cannot write', () => {
  it.each([
    ['z.bigint()', withBigInt, 'BigInt cannot be represented in JSON Schema'],
    ['z.date()', withDate, 'Date cannot be represented in JSON Schema'],
  ])(
    'response_format with %s: the converter’s own message, not "recursive"',
    async (_, schema, reason) => {
      const { model, bodies } = await recordingModel();
      const error = await caught(
        model.invoke('hi', { response_format: jsonSchemaFormat(schema) }),
        isGatewayError,
      );
      expect(error).toMatchObject({ code: 'invalid_request_error', field: 'schema' });
      expect(error.message).toContain(reason);
      expect(error.message).not.toMatch(/recursive/i);
      expect(bodies).toEqual([]);
    },
  );

  it('withStructuredOutput with z.bigint(): the converter’s own message, not "recursive"', async () => {
    const { model, bodies } = await recordingModel();
    let error: unknown;
    try {
      await model.withStructuredOutput(withBigInt).invoke('hi');
    } catch (thrown) {
      error = thrown;
    }
    expect(isGatewayError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'invalid_request_error', field: 'schema' });
    expect((error as Error).message).toContain('BigInt cannot be represented in JSON Schema');
    expect((error as Error).message).not.toMatch(/recursive/i);
    expect(bodies).toEqual([]);
  });

  it('a recursive schema is still called recursive, in both places', async () => {
    const { model, bodies } = await recordingModel();
    const viaOption = await caught(
      model.invoke('hi', { response_format: jsonSchemaFormat(tree) }),
      isGatewayError,
    );
    expect(viaOption.message).toMatch(/it is recursive/);
    expect(() => model.withStructuredOutput(tree)).toThrow(/it is recursive/);
    expect(bodies).toEqual([]);
  });
});

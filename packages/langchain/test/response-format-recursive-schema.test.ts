// A zod schema in the `response_format` call option that LangChain's converter cannot write as
// JSON Schema (a recursive one overflows it) is refused with a typed error, nothing sent — not a
// raw RangeError (rv-28c F2).
import { isGatewayError } from '@infergate/core';
import { caught } from '@infergate/emulator/testing';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { recordingModel } from './helpers';

// zod 4's getter form of a recursive schema (z.lazy is written with a $ref).
const node = z.object({
  name: z.string(),
  get children() {
    return z.array(node).optional();
  },
});

it('a recursive zod schema the converter cannot write: invalid_request_error, nothing sent', async () => {
  const { model, bodies } = await recordingModel();
  const format = { type: 'json_schema' as const, json_schema: { name: 'tree', schema: node } };
  const error = await caught(model.invoke('hi', { response_format: format }), isGatewayError);
  expect(error).toMatchObject({ code: 'invalid_request_error', field: 'schema' });
  expect(error.message).toMatch(/could not be written as JSON Schema/);
  expect(bodies).toEqual([]);
});

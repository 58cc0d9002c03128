// docs/gateway-protocol.md §4.8 (a call's JSON Schema must be one core's check can use): a zod
// schema (or another Standard Schema) nested in a plain JSON Schema —
// `{ type: 'object', properties: { a: z.string() } }` — used to be refused naming a keyword the
// caller never wrote ("nullable must be true or false, got a function": zod's methods read as
// keywords), or, a zod mini string (`type: "string"`), sent as if it were JSON Schema. Refused
// saying what it is, before anything is sent.
import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import * as zm from 'zod/mini';
import * as z3 from 'zod/v3';
import { isGatewayError } from '../src/index';
import { clientOn, totalRequests } from './helpers';

const asking = (schema: Record<string, unknown>) => ({
  model: 'community/general',
  messages: [{ role: 'user' as const, content: 'give json' }],
  response_format: { type: 'json_schema' as const, json_schema: { name: 'answer', schema } },
});

/** A Standard Schema that is no zod (valibot's shape): a `nullable` method, as zod has. */
const standard = {
  '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) },
  nullable: () => standard,
};
/** ArkType's schemas are functions carrying `~standard`. */
const callable = Object.assign(() => undefined, { '~standard': standard['~standard'] });

const SAYS =
  'a zod (or Standard) schema inside a JSON Schema: convert it (z.toJSONSchema) or pass the ' +
  'whole schema as zod where the adapter takes one';

describe('a zod or Standard schema inside a JSON Schema', () => {
  it.each([
    ['zod 4', z.string()],
    ['zod 4 mini (type: "string")', zm.string()],
    ['zod 3', z3.string()],
    ['a Standard Schema', standard],
    ['a function with ~standard', callable],
  ])('is refused saying so, nothing sent: %s (stream: false, true)', async (_, inner) => {
    const emulated = await emulate();
    const client = clientOn(emulated);
    const schema = { type: 'object', properties: { a: inner }, required: ['a'] };
    for (const stream of [false, true]) {
      const request = asking(schema);
      const run = stream
        ? async () => {
            for await (const _ of await client.chatStream(request));
          }
        : () => client.chat(request);
      const error = await caught(run, isGatewayError);
      expect(error).toMatchObject({
        code: 'invalid_request_error',
        field: 'response_format.json_schema.schema',
      });
      expect(error.message).toContain(`at #/properties/a: ${SAYS}`);
      expect(error.message).not.toContain('nullable');
    }
    expect(totalRequests(emulated.emulator)).toBe(0);
    await emulated.close();
  });

  it('deep in the schema too (under items and anyOf)', async () => {
    const emulated = await emulate();
    const client = clientOn(emulated);
    const schema = { type: 'array', items: { anyOf: [{ type: 'null' }, z.number()] } };
    const error = await caught(() => client.chat(asking(schema)), isGatewayError);
    expect(error.message).toContain(`at #/items/anyOf/1: ${SAYS}`);
    expect(totalRequests(emulated.emulator)).toBe(0);
    await emulated.close();
  });

  it("JSON Schema is still sent: z.toJSONSchema's (its own ~standard), a keyword named _def", async () => {
    const emulated = await emulate();
    const client = clientOn(emulated);
    const converted = z.toJSONSchema(z.string());
    expect(Object.hasOwn(converted, '~standard')).toBe(true);
    const properties = { a: { type: 'string', _def: 'x' }, b: converted };
    const schema = { type: 'object', properties };
    const result = await client.chat(asking(schema), { capabilities: ['chat', 'json_schema'] });
    expect(result.servedModel).toBe('community/general');
    await emulated.close();
  });
});

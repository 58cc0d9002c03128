import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { GatewayError } from '../src/index';
import { clientOn } from './helpers';

// A JSON Schema core's check cannot use (docs/gateway-protocol.md §4.8) is the caller's error:
// refused before any request, naming the schema. Sent, it would make every model's answer fail the
// check (`invalid_structured_output`, each answer paid) and open healthy models' breakers.
const asking = (schema: Record<string, unknown>) => ({
  model: 'community/general',
  messages: [{ role: 'user' as const, content: 'give json' }],
  response_format: { type: 'json_schema' as const, json_schema: { name: 'answer', schema } },
});

describe('a schema core cannot check answers against', () => {
  it.each([false, true])('is refused before any request (stream: %s)', async (stream) => {
    const emulated = await emulate();
    const client = clientOn(emulated);
    const request = asking({ type: 'object', properties: { n: { type: 'strin' } } });
    const options = { fallbackModels: ['community/json-schema', 'pool-a/llama-3-8b'] };
    const error = await caught<GatewayError>(
      stream ? client.chatStream(request, options) : client.chat(request, options),
    );
    expect(error).toMatchObject({
      code: 'invalid_request_error',
      field: 'response_format.json_schema.schema',
    });
    expect(error.message).toMatch(
      /at #\/properties\/n: type must be one of string, .* got "strin"/,
    );
    // Nothing sent: no chat request, no catalog read.
    expect(emulated.counters.requests.chat ?? 0).toBe(0);
    expect(emulated.counters.requests.models ?? 0).toBe(0);
    await emulated.close();
  });

  it('trips no breaker: the model answers the next call', async () => {
    const emulated = await emulate();
    const client = clientOn(emulated);
    for (let i = 0; i < 3; i++) {
      const refused = client.chat(asking({ type: 'strin' }), {
        fallbackModels: ['community/json-schema'],
      });
      expect(await caught<GatewayError>(refused)).toMatchObject({ code: 'invalid_request_error' });
    }
    const result = await client.chat(
      { model: 'community/general', messages: [{ role: 'user', content: 'hello' }] },
      { fallbackModels: ['community/streamer'] },
    );
    expect(result.route.hops.map((hop) => [hop.model, hop.outcome])).toEqual([
      ['community/general', 'answered'],
    ]);
    await emulated.close();
  });
});

// Read as core's check reads it: what that check can use is sent (docs/gateway-protocol.md §4.8).
const PLACE = {
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
};

describe('a schema core can check answers against, or does not check', () => {
  it.each([
    [
      'a $defs entry no $ref reaches',
      { ...PLACE, $defs: { geo: { $ref: 'https://schemas.example.com/geo.json' } } },
    ],
    [
      'keywords written as null',
      {
        ...PLACE,
        properties: { city: { type: 'string', maxLength: null, pattern: null, enum: null } },
        additionalProperties: null,
        not: null,
        type: 'object',
      },
    ],
    [
      'a keyword beside $ref in draft-07 (ignored by that draft)',
      {
        $schema: 'http://json-schema.org/draft-07/schema#',
        definitions: { name: { type: 'string' } },
        ...PLACE,
        properties: { city: { $ref: '#/definitions/name', minLength: 'three' } },
      },
    ],
  ])('is sent and its answer checked: %s', async (_, schema) => {
    const emulated = await emulate();
    const client = clientOn(emulated);
    const result = await client.chat(asking(schema), { fallbackModels: ['community/json-schema'] });
    expect(result.structured?.value).toMatchObject({ city: expect.any(String) });
    expect(emulated.counters.requests.chat).toBeGreaterThan(0);
    await emulated.close();
  });

  it('is sent unread when a Standard Schema checks the answers', async () => {
    const emulated = await emulate();
    const client = clientOn(emulated);
    // An anchor `$ref` (2020-12): core's check does not resolve it, the Standard Schema decides.
    const schema = { $defs: { place: { $anchor: 'Place', ...PLACE } }, $ref: '#Place' };
    const standard = {
      '~standard': {
        version: 1 as const,
        vendor: 'test',
        validate: (value: unknown) => ({ value }),
      },
    };
    const result = await client.chat(asking(schema), {
      fallbackModels: ['community/json-schema'],
      structuredOutput: { standard },
    });
    expect(result.structured?.value).toBeDefined();
    expect(emulated.counters.requests.chat).toBeGreaterThan(0);
    await emulated.close();
  });

  it('refuses a chain of $refs deeper than 64, typed (no stack overflow)', async () => {
    const emulated = await emulate();
    const client = clientOn(emulated);
    const $defs: Record<string, unknown> = { d8000: { type: 'string' } };
    for (let i = 0; i < 8000; i++) $defs[`d${i}`] = { allOf: [{ $ref: `#/$defs/d${i + 1}` }] };
    const error = await caught<GatewayError>(
      client.chat(asking({ $defs, $ref: '#/$defs/d0' }), {
        fallbackModels: ['community/json-schema'],
      }),
    );
    expect(error).toMatchObject({
      code: 'invalid_request_error',
      field: 'response_format.json_schema.schema',
    });
    expect(error.message).toMatch(/more than 64 schemas deep/);
    expect(emulated.counters.requests.chat ?? 0).toBe(0);
    await emulated.close();
  });
});

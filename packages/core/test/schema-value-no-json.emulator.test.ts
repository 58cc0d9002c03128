import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../src/index';
import { clientOn } from './helpers';

// A call's JSON Schema holding a value JSON has no form for (docs/gateway-protocol.md §4.8): a
// function-valued keyword (`nullable: () => …`), a bigint, `undefined`, an object that loops. Refused as the caller's error naming the
// keyword, before any request: never a raw TypeError from describing the value.
const asking = (schema: Record<string, unknown>) => ({
  model: 'community/general',
  messages: [{ role: 'user' as const, content: 'give json' }],
  response_format: { type: 'json_schema' as const, json_schema: { name: 'answer', schema } },
});

const looping: Record<string, unknown> = {};
looping.self = looping;

describe('a schema value JSON cannot write', () => {
  it.each([
    [
      'a function-valued keyword',
      { type: 'object', nullable: () => undefined },
      /against: nullable must be true or false, got a function$/,
    ],
    [
      'a bigint keyword',
      { type: 'object', properties: { n: { type: 'integer', maximum: 10n } } },
      /is a BigInt \(10n\).*\(at response_format\.json_schema\.schema\.properties\.n\.maximum\)$/,
    ],
    [
      'an undefined property schema',
      { type: 'object', properties: { n: undefined } },
      /at #\/properties\/n: must be a schema \(an object or true\/false\), got undefined$/,
    ],
    [
      'a keyword whose value loops',
      { type: looping },
      /is a circular reference .*\(at response_format\.json_schema\.schema\.type\.self\)$/,
    ],
  ])('is refused naming it, nothing sent: %s (stream: false, true)', async (_, schema, message) => {
    const emulated = await emulate();
    const client = clientOn(emulated);
    for (const stream of [false, true]) {
      const request = asking(schema);
      const error = await caught(stream ? client.chatStream(request) : client.chat(request));
      expect(error).toBeInstanceOf(GatewayError);
      expect(error).toMatchObject({
        code: 'invalid_request_error',
        field: 'response_format.json_schema.schema',
      });
      expect((error as GatewayError).message).toMatch(message);
    }
    expect(emulated.counters.requests.chat ?? 0).toBe(0);
    await emulated.close();
  });
});

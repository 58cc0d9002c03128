import { type EmulatedGateway, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../src/index';
import { clientOn } from './helpers';

// A schema whose root is not an object (an array, a string enum, `anyOf` with `null`): a forced
// tool's parameters must be an object — OpenAI-compatible servers refuse any other with a 400 — so
// `tools` asks for it as the one property `value` and reads it back from there; `json_object`'s
// instruction names what the root is (docs/gateway-protocol.md §4.8 items 2 and 3).

const cities = { type: 'array', items: { type: 'string' }, minItems: 1 };

const asking = (model: string, schema: Record<string, unknown>): ChatRequest => ({
  model,
  messages: [{ role: 'user', content: 'Name a city near "Oslo"' }],
  response_format: { type: 'json_schema', json_schema: { name: 'cities', schema } },
});

interface Sent {
  tools?: { function: { parameters: Record<string, unknown> } }[];
  messages: { role: string; content: string }[];
}

/**
 * `gateway`'s connection, its chat requests recorded, and refused as OpenAI refuses a tool whose
 * parameters are not an object (400, its message).
 */
function strictTools(gateway: EmulatedGateway) {
  const sent: Sent[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.endsWith('/chat/completions')) return gateway.fetch(request);
    const body = (await request.clone().json()) as Sent;
    sent.push(body);
    const bad = body.tools?.find((tool) => tool.function.parameters.type !== 'object');
    if (bad === undefined) return gateway.fetch(request);
    const message = `Invalid schema for function: schema must be a JSON Schema of 'type: "object"', got 'type: "${bad.function.parameters.type}"'.`;
    const error = { message, type: 'invalid_request_error', code: 'invalid_function_parameters' };
    return Response.json({ error }, { status: 400 });
  };
  return { connection: { ...gateway.connection, fetch }, sent };
}

describe('a schema whose root is not an object, served by tools', () => {
  it('chat: asked as the value of "value", read back from there, checked', async () => {
    const gateway = strictTools(await emulate());
    const result = await clientOn(gateway).chat(asking('community/tools', cities));
    expect(gateway.sent[0]?.tools?.[0]?.function.parameters).toEqual({
      type: 'object',
      properties: { value: cities },
      required: ['value'],
      additionalProperties: false,
    });
    expect(result.structured).toMatchObject({ value: ['Oslo'], method: 'tools' });
    expect(result.answer.text).toBe('["Oslo"]');
    expect(result.answer.toolCalls).toEqual([]);
  });

  it('chatStream: the value’s JSON as text, once the call is whole', async () => {
    const gateway = strictTools(await emulate());
    const stream = await clientOn(gateway).chatStream(asking('community/tools', cities));
    let text = '';
    for await (const event of stream) if (event.type === 'text-delta') text += event.delta;
    const result = await stream.result();
    expect(text).toBe('["Oslo"]');
    expect([result.text, result.structured]).toEqual([
      '["Oslo"]',
      expect.objectContaining({ value: ['Oslo'], method: 'tools' }),
    ]);
  });

  it('a string enum, anyOf with null; a $ref pointed to where the schema now is', async () => {
    const gateway = strictTools(await emulate());
    const client = clientOn(gateway);
    const kind = { enum: ['town', 'village'] };
    expect((await client.chat(asking('community/tools', kind))).structured?.value).toBe('town');
    const maybe = { anyOf: [{ type: 'string' }, { type: 'null' }] };
    expect((await client.chat(asking('community/tools', maybe))).structured?.value).toBe('Oslo');
    const refs = { type: 'array', items: { $ref: '#/$defs/city' }, $defs: { city: cities.items } };
    const result = await client.chat(asking('community/tools', refs));
    const value = gateway.sent.at(-1)?.tools?.[0]?.function.parameters.properties as {
      value: { items: unknown };
    };
    expect(value.value.items).toEqual({ $ref: '#/properties/value/$defs/city' });
    expect(result.structured?.value).toEqual(['Oslo']);
  });

  it('a fallback list: the tools model answers, no 400 ends the call', async () => {
    const gateway = strictTools(await emulate());
    const result = await clientOn(gateway).chat(asking('community/tools', cities), {
      fallbackModels: ['community/json-schema'],
    });
    expect(result.route.hops.map((hop) => [hop.model, hop.outcome])).toEqual([
      ['community/tools', 'answered'],
    ]);
  });
});

describe('a schema whose root is not an object, served by json_object', () => {
  it('the instruction names the root’s kind; the answer is checked', async () => {
    const gateway = strictTools(await emulate());
    const result = await clientOn(gateway).chat(asking('community/json-object', cities));
    const stated = gateway.sent[0]?.messages.find((message) => message.role === 'system');
    expect(stated?.content).toMatch(/^Answer with one JSON array "cities" and nothing else/);
    expect(result.structured).toEqual({ value: ['Oslo'], method: 'json_object' });
  });
});

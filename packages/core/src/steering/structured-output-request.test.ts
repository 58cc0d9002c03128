import { caught } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../errors/errors';
import type { AssembledChat } from '../protocol/chat-result-types';
import type { ChatRequest } from '../protocol/wire-types';
import {
  readStructuredAnswer,
  type StructuredOutputSchema,
  structuredRequest,
} from './structured-output-request';

const schema = {
  type: 'object',
  properties: { city: { type: 'string' }, kind: { enum: ['town', 'village'] } },
  required: ['city', 'kind'],
};
const given: StructuredOutputSchema = { name: 'place', schema, description: 'A place' };

const request: ChatRequest = {
  model: 'm',
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Where?' },
  ],
  temperature: 0,
  response_format: { type: 'text' },
};

function answer(extra: Partial<AssembledChat>): AssembledChat {
  return { text: '', toolCalls: [], finishReason: 'stop', ...extra };
}

/** `extra`'s answer read back as a forced call of the schema's tool (`tools`). */
function readByTools(extra: Partial<AssembledChat>) {
  return readStructuredAnswer('m', answer(extra), given, 'tools');
}

describe('structuredRequest', () => {
  it('json_schema: the schema as response_format, the caller’s replaced', () => {
    const sent = structuredRequest(request, { ...given, strict: true }, 'json_schema');
    expect(sent).toEqual({
      ...request,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'place', schema, description: 'A place', strict: true },
      },
    });
    expect(request.response_format).toEqual({ type: 'text' }); // not changed
  });

  it('json_schema: `strict` and `description` only when given; the name defaults to "response"', () => {
    const sent = structuredRequest(request, { schema }, 'json_schema');
    expect(sent.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'response', schema },
    });
  });

  it('tools: one tool whose parameters are the schema, forced by tool_choice; no response_format', () => {
    const sent = structuredRequest(request, given, 'tools');
    expect(sent.response_format).toBeUndefined();
    expect(sent.tools).toEqual([
      { type: 'function', function: { name: 'place', description: 'A place', parameters: schema } },
    ]);
    expect(sent.tool_choice).toEqual({ type: 'function', function: { name: 'place' } });
    expect(sent.messages).toBe(request.messages);
  });

  it('json_object: response_format json_object and the schema stated after the leading system messages', () => {
    const sent = structuredRequest(request, given, 'json_object');
    expect(sent.response_format).toEqual({ type: 'json_object' });
    expect(sent.messages.map((message) => message.role)).toEqual(['system', 'system', 'user']);
    expect(sent.messages[0]).toEqual(request.messages[0]);
    const stated = sent.messages[1]!.content as string;
    expect(stated).toContain('"place" (A place)');
    expect(stated).toContain(JSON.stringify(schema));
    expect(request.messages).toHaveLength(2);
    // Without a system message of the caller's, it comes first.
    const bare = structuredRequest(
      { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
      given,
      'json_object',
    );
    expect(bare.messages.map((message) => message.role)).toEqual(['system', 'user']);
  });
});

describe('a schema whose root is not an object', () => {
  const list = {
    type: 'array',
    items: { $ref: '#/$defs/city' },
    $defs: { city: { type: 'string', examples: [{ $ref: '#/kept' }] } },
  };
  const listed: StructuredOutputSchema = { name: 'cities', schema: list };

  it('tools: asked as the one property "value", its local $refs pointed into it', () => {
    const sent = structuredRequest(request, listed, 'tools');
    expect(sent.tools?.[0]?.function.parameters).toEqual({
      type: 'object',
      properties: {
        value: {
          type: 'array',
          items: { $ref: '#/properties/value/$defs/city' },
          // A value (here `examples`) is data: a `$ref` in it is left as it is.
          $defs: { city: { type: 'string', examples: [{ $ref: '#/kept' }] } },
        },
      },
      required: ['value'],
      additionalProperties: false,
    });
    // A root with no `type` is wrapped too; an object root is sent as it is.
    const any = structuredRequest(request, { schema: { enum: ['a', 'b'] } }, 'tools');
    expect(any.tools?.[0]?.function.parameters?.type).toBe('object');
    expect(structuredRequest(request, given, 'tools').tools?.[0]?.function.parameters).toBe(schema);
  });

  it('tools: a property named like a value keyword (`default`) is a schema, its $ref moved', () => {
    const settings = {
      type: 'array',
      items: {
        type: 'object',
        properties: { default: { $ref: '#/$defs/setting' }, other: { $ref: '#/$defs/setting' } },
      },
      $defs: { setting: { type: 'string' } },
    };
    const sent = structuredRequest(request, { name: 'settings', schema: settings }, 'tools');
    const value = sent.tools?.[0]?.function.parameters?.properties as Record<string, unknown>;
    expect(value.value).toEqual({
      ...settings,
      items: {
        type: 'object',
        properties: {
          default: { $ref: '#/properties/value/$defs/setting' },
          other: { $ref: '#/properties/value/$defs/setting' },
        },
      },
    });
  });

  it('tools: the value read back from "value", its JSON the value’s; none there fails', async () => {
    const args = '{ "value": ["Oslo", "Bergen"] }';
    const call = (text: string) => ({ toolCalls: [{ id: 'c', name: 'cities', arguments: text }] });
    const read = readStructuredAnswer('m', answer(call(args)), listed, 'tools');
    expect(read).toEqual({ value: ['Oslo', 'Bergen'], text: args, json: '["Oslo","Bergen"]' });
    const bare = await caught(
      () => readStructuredAnswer('m', answer(call('["Oslo"]')), listed, 'tools'),
      isGatewayError,
    );
    expect(bare.invalidOutput?.issues[0]?.message).toMatch(/^the arguments have no "value"/);
  });

  it('json_object: the instruction names what the root is', () => {
    const kinds: [Record<string, unknown>, string][] = [
      [list, 'array'],
      [{ type: 'string', enum: ['a'] }, 'string'],
      [{ type: 'integer' }, 'number'],
      [{ anyOf: [{ type: 'string' }, { type: 'null' }] }, 'value'],
      [schema, 'object'],
    ];
    for (const [root, kind] of kinds) {
      const sent = structuredRequest(request, { name: 'x', schema: root }, 'json_object');
      expect(sent.messages[1]?.content).toMatch(new RegExp(`^Answer with one JSON ${kind} "x"`));
    }
  });
});

describe('readStructuredAnswer', () => {
  it('reads the content for json_schema and json_object', () => {
    const text = '{"city":"Oslo","kind":"town"}';
    for (const method of ['json_schema', 'json_object'] as const) {
      expect(readStructuredAnswer('m', answer({ text }), given, method)).toEqual({
        value: { city: 'Oslo', kind: 'town' },
        text,
        json: text,
      });
    }
  });

  it('reads the forced tool call’s arguments for tools', () => {
    const args = '{"city":"Oslo","kind":"town"}';
    const read = readByTools({
      text: 'thinking aloud',
      toolCalls: [{ id: 'c1', name: 'place', arguments: args }],
    });
    expect(read).toEqual({ value: { city: 'Oslo', kind: 'town' }, text: args, json: args });
  });

  it('a tools answer that calls another tool, or none, is invalid_structured_output', async () => {
    const search = [{ id: 'c', name: 'search', arguments: '{}' }];
    const other = await caught(() => readByTools({ toolCalls: search }), isGatewayError);
    expect(other.code).toBe('invalid_structured_output');
    expect(other.invalidOutput?.issues).toEqual([
      { message: 'the answer did not call the tool "place": it called "search" instead' },
    ]);
    const none = await caught(() => readByTools({ text: 'Oslo' }), isGatewayError);
    expect(none.invalidOutput).toEqual({
      method: 'tools',
      text: 'Oslo',
      issues: [{ message: 'the answer did not call the tool "place": it called no tool' }],
      reason: 'no_json',
    });
  });

  it('text that is not JSON is invalid_structured_output keeping the whole text', async () => {
    const text = '{"city": "Os';
    const error = await caught(
      () => readStructuredAnswer('vendor/claims', answer({ text }), given, 'json_schema'),
      isGatewayError,
    );
    expect(error.code).toBe('invalid_structured_output');
    expect(error.isRetryable).toBe(false);
    expect(error.model).toBe('vendor/claims');
    expect(error.invalidOutput).toMatchObject({ method: 'json_schema', text });
    expect(error.invalidOutput?.issues[0]?.message).toMatch(/^the answer is not JSON/);
    expect(error.message).toMatch(
      /^vendor\/claims answered structured output \(method json_schema\) that fails its check: the answer is not JSON/,
    );
    // The message never quotes the text (it may be long, or anything).
    expect(error.message).not.toContain('Os');
    const empty = await caught(
      () => readStructuredAnswer('m', answer({ text: ' ' }), given, 'json_object'),
      isGatewayError,
    );
    expect(empty.invalidOutput?.issues).toEqual([{ message: 'the answer is empty' }]);
    // A call of a tool nobody offered instead of the JSON: the issue names it.
    const called = answer({ toolCalls: [{ id: 'c', name: 'place', arguments: '{}' }] });
    const stray = await caught(
      () => readStructuredAnswer('m', called, given, 'json_schema'),
      isGatewayError,
    );
    expect(stray.invalidOutput?.issues).toEqual([
      {
        message: 'the answer is empty; it called "place" instead, which the request did not offer',
      },
    ]);
  });

  it('an answer cut at the length limit says so, as text and as tool arguments', async () => {
    const text = '{"city": "Os';
    const cutText = await caught(
      () => readStructuredAnswer('m', answer({ text }), given, 'json_schema', true),
      isGatewayError,
    );
    expect(cutText.invalidOutput?.issues).toEqual([
      {
        message:
          'the answer is not JSON (at position 12): it was cut at the length limit (finish_reason "length"); raise max_tokens',
      },
    ]);
    const calls = [{ id: 'c', name: 'place', arguments: '{"city":' }];
    const cutCall = await caught(
      () => readStructuredAnswer('m', answer({ toolCalls: calls }), given, 'tools', true),
      isGatewayError,
    );
    expect(cutCall.message).toContain('cut at the length limit');
  });

  it('tool arguments that are not JSON are invalid_structured_output', async () => {
    const cut = [{ id: 'c', name: 'place', arguments: '{"city":' }];
    const error = await caught(() => readByTools({ toolCalls: cut }), isGatewayError);
    expect(error.invalidOutput).toMatchObject({ method: 'tools', text: '{"city":' });
  });

  it('accepts a fenced answer, with or without prose around it', () => {
    const json = '{"city":"Oslo","kind":"town"}';
    for (const text of [
      `\`\`\`json\n${json}\n\`\`\``,
      `\`\`\`\n${json}\n\`\`\``,
      `  \`\`\`JSON ${json}\`\`\`  `,
      `Here is the JSON you asked for:\n\`\`\`json\n${json}\n\`\`\`\nAnything else?`,
    ]) {
      expect(readStructuredAnswer('m', answer({ text }), given, 'json_object').value).toEqual({
        city: 'Oslo',
        kind: 'town',
      });
    }
  });

  it('does not search prose for unfenced JSON', async () => {
    const text = 'Here is the JSON you asked for:\n{"city":"Oslo","kind":"town"}\nAnything else?';
    expect(
      (
        await caught(
          () => readStructuredAnswer('m', answer({ text }), given, 'json_schema'),
          isGatewayError,
        )
      ).code,
    ).toBe('invalid_structured_output');
  });
});

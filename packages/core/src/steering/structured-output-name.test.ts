// docs/gateway-protocol.md §4.8: the schema's name as sent — as given when OpenAI-compatible
// servers take it for a function or a json_schema, else mapped to such a name; refused only when
// there is nothing to map.
import { caught } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../errors/errors';
import type { AssembledChat } from '../protocol/chat-result-types';
import type { ChatRequest } from '../protocol/wire-types';
import { readStructuredAnswer, schemaName, structuredRequest } from './structured-output-request';

const schema = { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] };
const request: ChatRequest = { model: 'm', messages: [{ role: 'user', content: 'Review it.' }] };

describe('schemaName', () => {
  it.each([
    [undefined, 'response'],
    ['movie_review-2', 'movie_review-2'],
    ['Movie review', 'Movie_review'],
    ['  Movie   review!  ', 'Movie_review_'],
    ['Critique de café', 'Critique_de_cafe'],
    ['a.b/c', 'a_b_c'],
    ['Рецензія', 'response'],
    ['x'.repeat(65), 'x'.repeat(64)],
    [`${'y '.repeat(40)}`, `${'y_'.repeat(32)}`],
    // Blank: not given (as LangChain and MCP read a blank title), so the default.
    ['', 'response'],
    ['   ', 'response'],
    ['\n\t', 'response'],
  ])('%j is sent as %j', (name, sent) => {
    expect(schemaName({ schema, name })).toBe(sent);
    expect(sent).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
  });

  it('json_schema and the forced tool both carry the mapped name; the tool call is read back by it', () => {
    const given = { schema, name: 'Movie review' };
    const native = structuredRequest(request, given, 'json_schema');
    expect(native.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'Movie_review', schema },
    });
    const tools = structuredRequest(request, given, 'tools');
    expect(tools.tool_choice).toEqual({ type: 'function', function: { name: 'Movie_review' } });
    expect(tools.tools?.map((tool) => tool.function.name)).toEqual(['Movie_review']);
    const called: AssembledChat = {
      text: '',
      finishReason: 'tool_calls',
      toolCalls: [{ id: 'c1', name: 'Movie_review', arguments: '{"title":"Solaris"}' }],
    };
    expect(readStructuredAnswer('m', called, given, 'tools').value).toEqual({ title: 'Solaris' });
  });

  it.each([
    [42, 'number'],
    [true, 'boolean'],
  ])('refuses %j before sending: not a string', async (name, got) => {
    const error = await caught(
      () => structuredRequest(request, { schema, name: name as unknown as string }, 'tools'),
      isGatewayError,
    );
    expect(error.code).toBe('invalid_request_error');
    expect(error.field).toBe('structuredOutput.name');
    expect(error.message).toBe(
      `structuredOutput.name: must be a string (the name the model sees; sent as letters, digits, "_" and "-"), got ${got}`,
    );
  });
});

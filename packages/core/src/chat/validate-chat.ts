// docs/gateway-protocol.md §4.1 (request, reasoning effort), §4.2 (capability rules), §11 (limits).
import { checkModelId } from '../catalog/resolve-model';
import { describeValue, findUnsendable } from '../encoding/json-body';
import { invalidRequest } from '../errors/errors';
import { isJsonObject } from '../protocol/json-object';
import { LIMITS } from '../protocol/limits';
import type { ChatRequest, ModelCapability } from '../protocol/wire-types';
import { withoutNullFields } from './build-chat-request';

const ROLES: ReadonlySet<string> = new Set(['system', 'user', 'assistant', 'tool']);
const RESPONSE_FORMATS: ReadonlySet<string> = new Set(['text', 'json_object', 'json_schema']);

/**
 * Checks a chat request against docs/gateway-protocol.md §4.1, §4.2 and §11 before anything is
 * sent, and returns it as the call sends it: an optional field that is `null` is not set
 * (`withoutNullFields`: left out), not checked. The one cleaning of a call's request.
 */
export function validateChatRequest(given: ChatRequest): ChatRequest {
  if (!isJsonObject(given))
    throw invalidRequest('request', `must be an object, got ${describeValue(given)}`);
  const request = withoutNullFields(given);
  checkModelId(request.model);
  checkTopLevelNumbers(request);
  checkSamplingFields(request);
  checkMessages(request.messages);
  if (request.tools !== undefined) checkTools(request.tools);
  if (request.response_format !== undefined) checkResponseFormat(request.response_format);
  if (request.tool_choice !== undefined) checkSerialisable('tool_choice', request.tool_choice);
  checkReasoningEffort(request.reasoning_effort);
  return request;
}

/** NaN and ±Infinity would be sent as `null` by JSON.stringify, a bigint not at all: refused. */
function checkTopLevelNumbers(request: Record<string, unknown>): void {
  // (By key: no [name, value] pair made per field.)
  for (const name of Object.keys(request)) {
    const value = request[name];
    if (typeof value === 'number' && !Number.isFinite(value)) {
      throw invalidRequest(name, `must be a finite number, got ${value}`);
    }
    if (typeof value === 'bigint') {
      throw invalidRequest(name, `must be a number, got bigint ${value}`);
    }
  }
}

/** Refuses `value` unless `ok`, naming the field, the type it must have and what it got. */
function mustBe(
  field: string,
  value: unknown,
  ok: (value: unknown) => boolean,
  type: string,
): void {
  if (!ok(value)) throw invalidRequest(field, `must be ${type}, got ${describeValue(value)}`);
}

/** `mustBe` for an optional field: a value given, `null` included, has the type. */
function mayBe(field: string, value: unknown, ok: (value: unknown) => boolean, type: string): void {
  if (value !== undefined) mustBe(field, value, ok, type);
}

/** `mustBe` for every item of a list (`undefined` too: JSON would send it as `null`). */
function eachMustBe(field: string, list: unknown[], ok: (value: unknown) => boolean, type: string) {
  for (let i = 0; i < list.length; i++) mustBe(`${field}[${i}]`, list[i], ok, type);
}

const isNumber = (value: unknown) => typeof value === 'number';
const isString = (value: unknown) => typeof value === 'string';

/** The spec's types (gateway API §2.5); a `null` never reaches here (`withoutNullFields`). */
function checkSamplingFields(request: Record<string, unknown>): void {
  const { temperature, top_p, max_tokens, seed, stop } = request;
  mayBe('temperature', temperature, isNumber, 'a number');
  mayBe('top_p', top_p, isNumber, 'a number');
  mayBe('max_tokens', max_tokens, Number.isInteger, 'an integer');
  mayBe('seed', seed, Number.isInteger, 'an integer');
  if (Array.isArray(stop)) eachMustBe('stop', stop, isString, 'a string');
  else mayBe('stop', stop, isString, 'a string or an array of strings');
}

/** At least one message, each an object with a known role and string, array or null content. */
function checkMessages(messages: unknown): void {
  if (!Array.isArray(messages)) {
    throw invalidRequest(
      'messages',
      `must be an array of messages, got ${describeValue(messages)}`,
    );
  }
  if (messages.length < 1) {
    throw invalidRequest('messages', 'has 0 messages; at least 1 is required');
  }
  for (let i = 0; i < messages.length; i++) {
    const message: unknown = messages[i];
    if (!isJsonObject(message)) {
      throw invalidRequest(`messages[${i}]`, `must be an object, got ${describeValue(message)}`);
    }
    if (typeof message.role !== 'string' || !ROLES.has(message.role)) {
      throw invalidRequest(
        `messages[${i}].role`,
        `is ${describeValue(message.role)}; allowed: system, user, assistant, tool`,
      );
    }
    const content = message.content;
    if (
      content !== undefined &&
      content !== null &&
      typeof content !== 'string' &&
      !Array.isArray(content)
    ) {
      throw invalidRequest(
        `messages[${i}].content`,
        `must be a string, an array of content parts or null, got ${describeValue(content)}`,
      );
    }
    checkToolFields(message, `messages[${i}]`);
  }
}

/**
 * The spec's message types (gateway API §2.4): `tool_calls` an array of objects (`null` too:
 * answers carry it, and a history sends them back), `tool_call_id` a string.
 */
function checkToolFields(message: Record<string, unknown>, place: string): void {
  const { tool_calls: calls, tool_call_id: id } = message;
  if (Array.isArray(calls)) eachMustBe(`${place}.tool_calls`, calls, isJsonObject, 'an object');
  else if (calls !== null)
    mayBe(`${place}.tool_calls`, calls, Array.isArray, 'an array of tool calls');
  mayBe(`${place}.tool_call_id`, id, isString, 'a string');
}

/** An array of named function tools whose parameters JSON can carry. */
function checkTools(tools: unknown): void {
  if (!Array.isArray(tools)) {
    throw invalidRequest('tools', `must be an array, got ${describeValue(tools)}`);
  }
  tools.forEach((tool: unknown, i) => {
    if (
      !isJsonObject(tool) ||
      tool.type !== 'function' ||
      !isJsonObject(tool.function) ||
      typeof tool.function.name !== 'string' ||
      tool.function.name === ''
    ) {
      throw invalidRequest(
        `tools[${i}]`,
        'must be {type: "function", function: {name, description?, parameters?}}',
      );
    }
    checkSerialisable(`tools[${i}].function.parameters`, tool.function.parameters);
  });
}

/** A known `type`; for `json_schema`, a named schema object JSON can carry. */
function checkResponseFormat(format: unknown): void {
  if (!isJsonObject(format)) {
    throw invalidRequest('response_format', `must be an object, got ${describeValue(format)}`);
  }
  if (typeof format.type !== 'string' || !RESPONSE_FORMATS.has(format.type)) {
    throw invalidRequest(
      'response_format.type',
      `is ${describeValue(format.type)}; allowed: text, json_object, json_schema`,
    );
  }
  if (format.type !== 'json_schema') return;
  const schema = format.json_schema;
  if (
    !isJsonObject(schema) ||
    typeof schema.name !== 'string' ||
    schema.name === '' ||
    !isJsonObject(schema.schema)
  ) {
    throw invalidRequest(
      'response_format.json_schema',
      'must be {name: string, schema: object} when response_format.type is "json_schema"',
    );
  }
  checkSerialisable('response_format.json_schema.schema', schema.schema);
}

/**
 * `reasoning_effort` is not the gateway's field (docs/gateway-protocol.md §4.1, our reading): the
 * model servers that read it take a word, so anything else is refused rather than sent.
 */
function checkReasoningEffort(effort: unknown): void {
  if (effort === undefined || typeof effort === 'string') return;
  throw invalidRequest(
    'reasoning_effort',
    `must be a string such as "low", "medium" or "high", got ${describeValue(effort)}`,
  );
}

/**
 * Refuses a value JSON cannot carry faithfully (encoding/json-body.ts's `findUnsendable`): a cycle
 * or a BigInt (JSON.stringify throws a raw TypeError), NaN/Infinity (sent as `null`), or nesting
 * deeper than `LIMITS.schemaMaxDepth` (which could overflow the stack), naming where it is.
 */
export function checkSerialisable(
  field: string,
  value: unknown,
  maxDepth: number = LIMITS.schemaMaxDepth,
): void {
  const found = findUnsendable(value, field, { maxDepth, finiteNumbers: true });
  if (found === undefined) return;
  throw invalidRequest(
    field,
    found.path === field ? found.problem : `${found.problem} (at ${found.path})`,
  );
}

/** The model capabilities a chat request needs (docs/gateway-protocol.md §4.2). */
export function requiredCapabilities(
  request: ChatRequest,
  stream = request.stream === true,
): ModelCapability[] {
  const needs: ModelCapability[] = ['chat'];
  if (stream) needs.push('streaming');
  if (Array.isArray(request.tools) && request.tools.length > 0) needs.push('tools');
  const type = request.response_format?.type;
  if (type === 'json_object' || type === 'json_schema') needs.push(type);
  return needs;
}

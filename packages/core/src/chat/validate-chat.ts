// docs/gateway-protocol.md §4.1 (request, reasoning effort), §4.2 (capability rules), §11 (limits).
import { isString, mayBe, mustBe } from '../call/field-checks';
import { checkModelId } from '../catalog/resolve-model';
import { describeValue, findUnsendable } from '../encoding/json-body';
import { loneSurrogate, loneSurrogateAt } from '../encoding/well-formed-text';
import { invalidRequest } from '../errors/errors';
import { isJsonObject } from '../protocol/json-object';
import { LIMITS } from '../protocol/limits';
import type { ChatRequest, ModelCapability } from '../protocol/wire-types';
import { sendsTools, withoutEmptyTools, withoutNullFields } from './build-chat-request';

const ROLES: ReadonlySet<string> = new Set(['system', 'user', 'assistant', 'tool']);
const RESPONSE_FORMATS: ReadonlySet<string> = new Set(['text', 'json_object', 'json_schema']);

/**
 * Checks a chat request against docs/gateway-protocol.md §4.1, §4.2 and §11 before anything is
 * sent, and returns it as the call sends it: an optional field that is `null` is not set
 * (`withoutNullFields`: left out), not checked, nor an empty `tools` list and the `tool_choice`
 * and `parallel_tool_calls` given with it (`withoutEmptyTools`, §4.2). The one cleaning of a call's request.
 */
export function validateChatRequest(given: ChatRequest): ChatRequest {
  mustBe('request', given, isJsonObject, 'an object');
  const request = withoutEmptyTools(withoutNullFields(given));
  checkModelId(request.model);
  checkTopLevelNumbers(request);
  checkSamplingFields(request);
  checkMessages(request.messages);
  if (request.tools !== undefined) checkTools(request.tools);
  if (request.response_format !== undefined) checkResponseFormat(request.response_format);
  if (request.tool_choice !== undefined) checkSerialisable('tool_choice', request.tool_choice);
  // Not the gateway's field (§4.1, our reading): the model servers that read it take a word.
  mayBe(
    'reasoning_effort',
    request.reasoning_effort,
    isString,
    'a string such as "low", "medium" or "high"',
  );
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

/** `mustBe` for every item of a list (`undefined` too: JSON would send it as `null`). */
function eachMustBe(field: string, list: unknown[], ok: (value: unknown) => boolean, type: string) {
  for (let i = 0; i < list.length; i++) mustBe(`${field}[${i}]`, list[i], ok, type);
}

const isNumber = (value: unknown) => typeof value === 'number';

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

/**
 * At least one message, each an object with a known role and string, array or null content. (A
 * message's field names are made only for a refusal: most requests have none to refuse.)
 */
function checkMessages(messages: unknown): void {
  mustBe('messages', messages, Array.isArray, 'an array of messages');
  if (messages.length < 1) {
    throw invalidRequest('messages', 'has 0 messages; at least 1 is required');
  }
  for (let i = 0; i < messages.length; i++) {
    const message: unknown = messages[i];
    if (!isJsonObject(message)) mustBe(`messages[${i}]`, message, isJsonObject, 'an object');
    if (typeof message.role !== 'string' || !ROLES.has(message.role)) {
      throw invalidRequest(
        `messages[${i}].role`,
        `is ${describeValue(message.role)}; allowed: system, user, assistant, tool`,
      );
    }
    // (A string, an array of content parts, null or none.)
    const { content } = message;
    if (
      content !== null &&
      content !== undefined &&
      !Array.isArray(content) &&
      !isString(content)
    ) {
      mustBe(
        `messages[${i}].content`,
        content,
        isString,
        'a string, an array of content parts or null',
      );
    }
    checkContentText(content, i);
    // (Reasoning sent back and a participant's name are text the server reads too.)
    for (const field of ['reasoning_content', 'name'] as const) {
      refuseLoneSurrogate(message[field], i, field);
    }
    checkToolFields(message, i);
  }
}

/**
 * A message's text, its `content` string or its parts' `text`, one UTF-8 can carry: no lone
 * surrogate (encoding/well-formed-text.ts). The field is named only for a refusal.
 */
function checkContentText(content: unknown, i: number): void {
  if (typeof content === 'string') refuseLoneSurrogate(content, i, 'content');
  if (!Array.isArray(content)) return;
  for (let j = 0; j < content.length; j++) {
    const text: unknown = isJsonObject(content[j]) ? content[j].text : undefined;
    refuseLoneSurrogate(text, i, 'content', j, '.text');
  }
}

/**
 * Refuses `text`, when a string with a lone surrogate, as message `i`'s `field` (item `item`'s
 * `under`, in an array field). The parts, not the field's name: it is built only for a refusal.
 */
function refuseLoneSurrogate(
  text: unknown,
  i: number,
  field: string,
  item?: number,
  under = '',
): void {
  const at = typeof text === 'string' ? loneSurrogateAt(text) : -1;
  if (at === -1) return;
  const path = item === undefined ? field : `${field}[${item}]${under}`;
  throw loneSurrogate(`messages[${i}].${path}`, at);
}

/**
 * The spec's message types (gateway API §2.4): `tool_calls` an array of objects (`null` too:
 * answers carry it, and a history sends them back), `tool_call_id` a string.
 */
function checkToolFields(message: Record<string, unknown>, i: number): void {
  const { tool_calls: calls, tool_call_id: id } = message;
  if (Array.isArray(calls)) {
    eachMustBe(`messages[${i}].tool_calls`, calls, isJsonObject, 'an object');
    calls.forEach((call: Record<string, unknown>, k) => {
      const args = isJsonObject(call.function) ? call.function.arguments : undefined;
      refuseLoneSurrogate(args, i, 'tool_calls', k, '.function.arguments');
    });
  } else if (calls !== null && calls !== undefined) {
    mustBe(`messages[${i}].tool_calls`, calls, Array.isArray, 'an array of tool calls');
  }
  if (id !== undefined && !isString(id))
    mustBe(`messages[${i}].tool_call_id`, id, isString, 'a string');
}

/** An array of named function tools whose parameters JSON can carry. */
function checkTools(tools: unknown): void {
  mustBe('tools', tools, Array.isArray, 'an array');
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
  mustBe('response_format', format, isJsonObject, 'an object');
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
  if (sendsTools(request.tools)) needs.push('tools');
  const type = request.response_format?.type;
  if (type === 'json_object' || type === 'json_schema') needs.push(type);
  return needs;
}

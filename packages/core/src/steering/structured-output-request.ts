// docs/gateway-protocol.md §4.8 (structured output: one request per method, the answer read back).
/**
 * One chat request rewritten for the method a hop serves the schema with, and the structured
 * answer read back from what that hop answered (a completion or an assembled stream, both
 * `AssembledChat`). Pure: the walk calls `structuredRequest` for each hop and
 * `readStructuredAnswer` on its answer, then checks the value (check-structured-answer.ts).
 */
import { invalidRequest, isGatewayError } from '../errors/errors';
import type { AssembledChat } from '../protocol/chat-result-types';
import type { StructuredOutputMethod } from '../protocol/chat-route';
import type { ChatMessage, ChatRequest, ChatTool } from '../protocol/wire-types';
import { invalidStructuredOutput } from './invalid-structured-output';
import { jsonInText, splitThought } from './json-in-text';

/** The schema a call asks for: a JSON Schema and the name the model sees it by. */
export interface StructuredOutputSchema {
  /** The JSON Schema the answer must follow. */
  schema: Record<string, unknown>;
  /**
   * The name the model sees: `json_schema.name`, or the forced tool's name. Sent as it is when it
   * is 1 to 64 letters, digits, `_` and `-` (all OpenAI-compatible servers take), else as such a
   * name (`schemaName`): "Movie review" is sent as `Movie_review`. Default `response`, as
   * `@ai-sdk/openai-compatible` sends.
   */
  name?: string;
  /** What the answer is, for the model. */
  description?: string;
  /** `json_schema.strict` / the tool's `strict`, sent when given (the model server's business). */
  strict?: boolean;
}

/** The name a schema gets when the caller gives none. */
export const DEFAULT_SCHEMA_NAME = 'response';

/** The name the OpenAI-compatible servers accept for a function or a json_schema. */
const NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The schema's name as sent (`field`: where the caller gave it). The spec sets no form for it,
 * but OpenAI and servers like it refuse a function name outside `NAME_PATTERN` with a 400, and a
 * schema may serve as a forced tool on another hop: so a name such as a zod schema's title
 * ("Movie review") is mapped, not refused: accents dropped ("Café" → `Cafe`), each run of other
 * characters one `_`, cut at 64; one with no letter or digit left is sent as the default. The
 * mapping is the same on every hop, so the forced tool's call is read back by the same name.
 * A blank name (empty, or only spaces) counts as not given: the default, as LangChain's and MCP's
 * adapters treat a blank title. Refused before sending: a name that is not a string.
 */
export function schemaName(given: StructuredOutputSchema, field = 'structuredOutput.name'): string {
  const name: unknown =
    typeof given.name === 'string' && given.name.trim() === '' ? undefined : given.name;
  if (name === undefined || name === null) return DEFAULT_SCHEMA_NAME;
  if (typeof name === 'string' && NAME_PATTERN.test(name)) return name;
  if (typeof name !== 'string') {
    throw invalidRequest(
      field,
      `must be a string (the name the model sees; sent as letters, digits, "_" and "-"), got ${typeof name}`,
    );
  }
  const mapped = name
    .trim()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .slice(0, 64);
  return /[A-Za-z0-9]/.test(mapped) ? mapped : DEFAULT_SCHEMA_NAME;
}

/**
 * `request` asking for `given` by `method`: the caller's own `response_format` is replaced (the
 * schema is what was asked for); `tools` adds the schema's tool and forces it, `json_object`
 * states the schema in a system message after the caller's leading ones. `request` is not changed.
 */
export function structuredRequest(
  request: ChatRequest,
  given: StructuredOutputSchema,
  method: StructuredOutputMethod,
): ChatRequest {
  const name = schemaName(given);
  const { response_format: _replaced, ...rest } = request;
  if (method === 'json_schema') {
    const json_schema = {
      name,
      schema: given.schema,
      ...(given.description === undefined ? {} : { description: given.description }),
      ...(given.strict === undefined ? {} : { strict: given.strict }),
    };
    return { ...rest, response_format: { type: 'json_schema', json_schema } };
  }
  if (method === 'tools') {
    const tools = [...(request.tools ?? []), schemaTool(name, given)];
    return { ...rest, tools, tool_choice: { type: 'function', function: { name } } };
  }
  const messages = withSchemaStated(request.messages, name, given);
  return { ...rest, messages, response_format: { type: 'json_object' } };
}

function schemaTool(name: string, given: StructuredOutputSchema): ChatTool {
  const description = given.description ?? 'Give the answer as this function’s arguments.';
  return {
    type: 'function',
    function: {
      name,
      description,
      parameters: wrapsRoot(given.schema) ? wrapped(given.schema) : given.schema,
      ...(given.strict === undefined ? {} : { strict: given.strict }),
    },
  };
}

/** The property a non-object root is asked for under, as a forced tool's one argument. */
export const WRAPPED_ROOT = 'value';

/**
 * A schema whose root is not an object (an array, a string enum, `anyOf` with `null`, …): a tool's
 * parameters must be an object (OpenAI-compatible servers refuse any other with a 400), so
 * `tools` asks for it as the value of one property, `WRAPPED_ROOT`, and reads it back from there.
 */
export function wrapsRoot(schema: Record<string, unknown>): boolean {
  return schema.type !== 'object';
}

/**
 * `schema` as the one required property of an object; its local `$ref`s (`#…`) pointed into that
 * property, where the schema now is (values — `const`, `enum`, `default`, `examples` — left alone).
 */
function wrapped(schema: Record<string, unknown>): Record<string, unknown> {
  const at = `#/properties/${WRAPPED_ROOT}`;
  const moved = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(moved);
    if (node === null || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#')) {
        out[key] = at + value.slice(1);
      } else if (VALUE_KEYWORDS.has(key)) out[key] = value;
      else if (NAMED_SCHEMAS.has(key) && value !== null && typeof value === 'object') {
        // Its keys are names (a property called `default` too), each value a schema.
        out[key] = Object.fromEntries(
          Object.entries(value).map(([name, sub]) => [name, moved(sub)]),
        );
      } else out[key] = moved(value);
    }
    return out;
  };
  return {
    type: 'object',
    properties: { [WRAPPED_ROOT]: moved(schema) },
    required: [WRAPPED_ROOT],
    additionalProperties: false,
  };
}

/** Keywords whose values are data, not schemas: a `$ref` in them is no reference. */
const VALUE_KEYWORDS = new Set(['const', 'enum', 'default', 'examples']);

/** Keywords whose values map names to schemas: a name is never a keyword. */
const NAMED_SCHEMAS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
]);

/** What the schema's root asks for, as the `json_object` instruction names it. */
function rootKind(schema: Record<string, unknown>): string {
  const kinds: Record<string, string> = {
    object: 'object',
    array: 'array',
    string: 'string',
    number: 'number',
    integer: 'number',
    boolean: 'boolean',
  };
  return (typeof schema.type === 'string' && kinds[schema.type]) || 'value';
}

/**
 * The messages with one system message stating the schema as JSON (models in json_object mode
 * only promise JSON; the schema has to be in the prompt), after the caller's leading system ones
 * so that their instructions stay first.
 */
function withSchemaStated(
  messages: ChatMessage[],
  name: string,
  given: StructuredOutputSchema,
): ChatMessage[] {
  const about = given.description === undefined ? '' : ` (${given.description})`;
  const content =
    `Answer with one JSON ${rootKind(given.schema)} "${name}"${about} and nothing else: no prose, no code fence. ` +
    `It must follow this JSON Schema: ${JSON.stringify(given.schema)}`;
  let at = 0;
  while (at < messages.length && messages[at]!.role === 'system') at++;
  return [...messages.slice(0, at), { role: 'system', content }, ...messages.slice(at)];
}

/** A structured answer read back: the parsed value, the text it was read from and its JSON. */
export interface StructuredAnswer {
  value: unknown;
  /** What the model sent: its text, or the forced tool call's arguments. */
  text: string;
  /** The JSON text the value was parsed from (a fence's content; the arguments, trimmed). */
  json: string;
  /** A think block at the text's start: the model's reasoning, not part of the JSON. */
  reasoning?: string;
}

/**
 * Where `method` puts the JSON of `answer` (to a request made by `structuredRequest`): for
 * `tools`, the arguments of the call of the schema's tool (undefined: no such call); else the
 * text, as bare JSON or one ```json code fence (prose around the fence allowed: `jsonInText`),
 * after a think block at its start, if any (`splitThought`). Not parsed here.
 */
export function structuredJsonText(
  answer: AssembledChat,
  given: StructuredOutputSchema,
  method: StructuredOutputMethod,
): Omit<StructuredAnswer, 'value'> | undefined {
  if (method !== 'tools') {
    const [reasoning, rest] = splitThought(answer.text);
    const read: Omit<StructuredAnswer, 'value'> = { text: answer.text, json: jsonInText(rest) };
    if (reasoning !== undefined) read.reasoning = reasoning;
    return read;
  }
  const name = schemaName(given);
  const call = answer.toolCalls.find((candidate) => candidate.name === name);
  return call && { text: call.arguments, json: call.arguments.trim() };
}

/**
 * The structured answer of `answer`, which `model` gave to a request made by `structuredRequest`:
 * its JSON where its method puts it (`structuredJsonText`), parsed. No JSON there (no call of the
 * schema's tool, text that does not parse) is `invalid_structured_output`, with the text and what
 * is wrong (`cutAtLength`: the answer ended at the length limit, which the message then names).
 * The value is not checked against the schema here (check-structured-answer.ts).
 */
export function readStructuredAnswer(
  model: string,
  answer: AssembledChat,
  given: StructuredOutputSchema,
  method: StructuredOutputMethod,
  cutAtLength = false,
): StructuredAnswer {
  const where = structuredJsonText(answer, given, method);
  if (where === undefined) {
    const name = schemaName(given);
    const called = answer.toolCalls.map((other) => JSON.stringify(other.name.slice(0, 64)));
    const instead = called.length > 0 ? `called ${called.join(', ')} instead` : 'called no tool';
    const cut = cutAtLength ? `: ${CUT_WORDS}` : '';
    const issues = [{ message: `the answer did not call the tool "${name}": it ${instead}${cut}` }];
    const reason = cutAtLength ? 'cut' : 'no_json';
    throw invalidStructuredOutput(model, { method, text: answer.text, issues, reason });
  }
  const read = parsed(model, method, where.text, where.json, cutAtLength, strayCalls(answer));
  if (where.reasoning !== undefined) read.reasoning = where.reasoning;
  return method === 'tools' && wrapsRoot(given.schema) ? unwrapped(model, read) : read;
}

/**
 * The calls of an answer read for its JSON text (a tool step never is): tools the request did not
 * offer, which the refusal of a text with no JSON names (a model that "calls" the schema).
 */
function strayCalls(answer: AssembledChat): string {
  if (answer.toolCalls.length === 0) return '';
  const names = answer.toolCalls.map((call) => JSON.stringify(call.name.slice(0, 64)));
  return `; it called ${names.join(', ')} instead, which the request did not offer`;
}

/** A wrapped root's value (`wrapsRoot`) in its one property's place, else undefined. */
function wrappedValue(value: unknown): { inner: unknown } | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  if (!Object.hasOwn(value, WRAPPED_ROOT)) return undefined;
  return { inner: (value as Record<string, unknown>)[WRAPPED_ROOT] };
}

/**
 * The JSON of a wrapped root's value, from the tool call's whole arguments `text` (a stream gives
 * it once they are whole); `text` as it came when it is not JSON with that property (the check
 * refuses it then).
 */
export function unwrappedJsonText(text: string): string {
  let found: { inner: unknown } | undefined;
  try {
    found = wrappedValue(JSON.parse(text));
  } catch {
    found = undefined;
  }
  return found === undefined ? text : JSON.stringify(found.inner);
}

/** A wrapped root's value (`wrapsRoot`), read from its one property: its JSON that value's. */
function unwrapped(model: string, read: StructuredAnswer): StructuredAnswer {
  const found = wrappedValue(read.value);
  if (found !== undefined) {
    return { ...read, value: found.inner, json: JSON.stringify(found.inner) };
  }
  const message = `the arguments have no "${WRAPPED_ROOT}": the schema's root is not an object, so it was asked for as the value of "${WRAPPED_ROOT}"`;
  const issues = [{ message }];
  throw invalidStructuredOutput(model, {
    method: 'tools',
    text: read.text,
    issues,
    reason: 'schema',
  });
}

/** What an issue adds when the answer ended at the length limit (`reason: 'cut'`). */
export const CUT_WORDS =
  'it was cut at the length limit (finish_reason "length"); raise max_tokens';

/**
 * Why a parsed answer is still refused as cut: a number at its root that ended at the length limit
 * (`70` may be the start of `7000`: the one value whose cut beginning still parses), else undefined.
 */
export function unfinishedNumber(value: unknown, cut: boolean): string | undefined {
  return cut && typeof value === 'number'
    ? `the answer is a number that may be unfinished: ${CUT_WORDS}`
    : undefined;
}

/**
 * `cut`: the answer ended at the length limit, the likely reason its JSON is unfinished. A number
 * at the root is the one JSON that still parses when cut (`70` of `7000`): with `cut` it is
 * refused too, as unfinished (objects, arrays and strings cut short do not parse; a literal cut
 * short neither).
 */
function parsed(
  model: string,
  method: StructuredOutputMethod,
  text: string,
  json: string,
  cut: boolean,
  stray: string,
): StructuredAnswer {
  try {
    const value: unknown = JSON.parse(json);
    const what = unfinishedNumber(value, cut);
    if (what === undefined) return { value, text, json };
    throw invalidStructuredOutput(model, {
      method,
      text,
      issues: [{ message: what }],
      reason: 'cut',
    });
  } catch (error) {
    if (isGatewayError(error)) throw error;
    const position = /position \d+/.exec((error as Error).message)?.[0];
    const where = position === undefined ? '' : ` (at ${position})`;
    let what = text.trim() === '' ? 'the answer is empty' : `the answer is not JSON${where}`;
    if (method !== 'tools') what += stray;
    if (cut) what += `: ${CUT_WORDS}`;
    const issues = [{ message: what }];
    throw invalidStructuredOutput(model, { method, text, issues, reason: cut ? 'cut' : 'no_json' });
  }
}

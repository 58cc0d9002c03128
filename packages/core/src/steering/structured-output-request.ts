// docs/gateway-protocol.md §4.8 (structured output: one request per method, the answer read back).
/**
 * One chat request rewritten for the method a hop serves the schema with, and the structured
 * answer read back from what that hop answered (a completion or an assembled stream, both
 * `AssembledChat`). Pure: the walk calls `structuredRequest` for each hop and
 * `readStructuredAnswer` on its answer, then checks the value (check-structured-answer.ts).
 */
import { invalidRequest } from '../errors/errors';
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
   * The name the model sees: `json_schema.name`, or the forced tool's name (letters, digits, `_`
   * and `-`, at most 64). Default `response`, as `@ai-sdk/openai-compatible` sends.
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

/** The schema's name, checked before anything is sent (`field`: where the caller gave it). */
export function schemaName(given: StructuredOutputSchema, field = 'structuredOutput.name'): string {
  const name = given.name ?? DEFAULT_SCHEMA_NAME;
  if (typeof name === 'string' && NAME_PATTERN.test(name)) return name;
  const got =
    typeof name === 'string'
      ? `${JSON.stringify(name.slice(0, 70))} (${name.length} characters)`
      : typeof name;
  throw invalidRequest(
    field,
    `must be 1 to 64 letters, digits, "_" or "-" (the name the model sees), got ${got}`,
  );
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
      parameters: given.schema,
      ...(given.strict === undefined ? {} : { strict: given.strict }),
    },
  };
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
    `Answer with one JSON object "${name}"${about} and nothing else: no prose, no code fence. ` +
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
    const issues = [{ message: `the answer did not call the tool "${name}": it ${instead}` }];
    throw invalidStructuredOutput(model, { method, text: answer.text, issues });
  }
  const read = parsed(model, method, where.text, where.json, cutAtLength);
  if (where.reasoning !== undefined) read.reasoning = where.reasoning;
  return read;
}

/** `cut`: the answer ended at the length limit, the likely reason its JSON is unfinished. */
function parsed(
  model: string,
  method: StructuredOutputMethod,
  text: string,
  json: string,
  cut: boolean,
): StructuredAnswer {
  try {
    return { value: JSON.parse(json), text, json };
  } catch (error) {
    const position = /position \d+/.exec((error as Error).message)?.[0];
    const where = position === undefined ? '' : ` (at ${position})`;
    let what = text.trim() === '' ? 'the answer is empty' : `the answer is not JSON${where}`;
    if (cut) what += ': it was cut at the length limit (finish_reason "length"); raise max_tokens';
    throw invalidStructuredOutput(model, { method, text, issues: [{ message: what }] });
  }
}

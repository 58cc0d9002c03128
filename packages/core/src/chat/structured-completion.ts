// docs/gateway-protocol.md §4.8 (structured output: every answer checked before the caller gets it).
/**
 * A non-streamed answer of a call asking for structured output, checked inside its attempt
 * (which still holds its slot): the completion read (bounded by `maxResponseBytes`), its
 * structured answer read back by the model's method and checked against the schema. A failure is
 * the attempt's (`invalid_structured_output`); an answer that passes is handed on clean — its
 * text the JSON itself (a fence's content; a forced tool call's arguments, that call removed,
 * finish `tool_calls` read as `stop`) — with its checked value kept for `ChatResult.structured`.
 * Loaded with the steering module.
 */
import { describeCause, GatewayError, isGatewayError } from '../errors/errors';
import { tooLarge } from '../http/answer-errors';
import type { AttemptAnswer } from '../http/attempt-policy';
import { readBoundedBody } from '../http/read-bounded-body';
import type { AssembledChat, StructuredResult } from '../protocol/chat-result-types';
import type { StructuredOutputMethod } from '../protocol/chat-route';
import type { ChatCompletionResponse } from '../protocol/wire-types';
import { schemaName } from '../steering/structured-output-request';
import {
  checkedStructuredAnswer,
  ownToolCalls,
  type StructuredAsk,
  structuredFinish,
} from './checked-structured-answer';
import { readChatCompletion } from './read-chat-completion';
import { chatCompletionProblem } from './validate-chat-response';

/** What a whole answer is checked by: the schema asked for, the check, the body's limit. */
export interface WholeCheck extends StructuredAsk {
  maxResponseBytes: number;
  path: string;
  /** The attempt's signal: its abort (a stall, the deadline) ends the body's read. */
  signal?: AbortSignal;
}

/**
 * `answer` of `model` (asked by `method`) checked: the failure; or its checked value, a clean
 * answer left in `answer.response`; or undefined when it was handed on unchecked, as it came (a
 * step of the caller's tool loop; a body that is no completion, which the transport's reader then
 * refuses, `invalid_response`, as for any call).
 */
export async function checkWholeAnswer(
  answer: AttemptAnswer,
  model: string,
  method: StructuredOutputMethod,
  asked: WholeCheck,
): Promise<GatewayError | StructuredResult | undefined> {
  const { response } = answer;
  let read: Awaited<ReturnType<typeof readBoundedBody>>;
  try {
    read = await readBoundedBody(response, asked.maxResponseBytes, asked.signal);
  } catch (cause) {
    // (An abort is the walk's to report: it checks the call's scope after this.)
    return unreadable(response, model, cause);
  }
  if (read.truncated) {
    return tooLarge(response, { path: asked.path, requestedModel: model }, asked.maxResponseBytes);
  }
  // The gateway has finished this request: a refusal of its answer cuts nothing.
  answer.readToEnd = true;
  let data: ChatCompletionResponse | undefined;
  try {
    data = JSON.parse(read.text) as ChatCompletionResponse;
  } catch {
    data = undefined;
  }
  const completion = data && !chatCompletionProblem(data) ? readChatCompletion(data) : undefined;
  if (data === undefined || completion === undefined) {
    // No completion: handed on as it came, for the transport's reader to refuse.
    answer.response = rebuilt(response, read.text);
    return undefined;
  }
  // A step of the caller's own tool loop (it called the request's tools; `tools` is not used when
  // the request has some): not the structured answer yet, handed on unchecked — as it came but
  // for calls of tools nobody offered. An answer calling none of the request's tools is checked.
  const own = ownToolCalls(completion.toolCalls, method, asked.check);
  if (own.length > 0) {
    const stray = own.length < completion.toolCalls.length;
    const names = own.map((call) => call.name);
    answer.response = rebuilt(response, stray ? JSON.stringify(onlyCalls(data, names)) : read.text);
    return undefined;
  }
  try {
    const { value, json, reasoning, checked } = await checkedStructuredAnswer(
      model,
      method,
      completion,
      asked,
    );
    // The answer's reasoning (a field's, thinking parts'), then a think block's before the JSON:
    // kept when content parts become the JSON's text.
    const thought = (completion.reasoning ?? '') + (reasoning ?? '');
    const clean = cleaned(data, json, thought === '' ? undefined : thought);
    answer.response = rebuilt(response, JSON.stringify(clean));
    // A refused last answer handed on (`returnRefused`): clean, but no checked value.
    return checked ? structuredResult(value, method, completion, asked) : undefined;
  } catch (error) {
    if (isGatewayError(error)) return error;
    throw error;
  }
}

/**
 * The checked `value` of `answer` as `ChatResult.structured` gives it: with the forced call of the
 * schema's tool that served it when `method` is `tools` (its first, as the answer is read), which
 * the clean answer no longer has, and the finish the server sent when the clean answer reports
 * another (`sentFinishReason`).
 */
export function structuredResult(
  value: unknown,
  method: StructuredOutputMethod,
  answer: AssembledChat,
  asked: StructuredAsk,
): StructuredResult {
  const result: StructuredResult = { value, method };
  // The finish as sent, when the answer reports another (`tool_calls` as `stop`).
  const sent = answer.sentFinishReason ?? answer.finishReason;
  if (sent !== null && structuredFinish(sent) !== sent) result.sentFinishReason = sent;
  if (method !== 'tools') return result;
  const name = schemaName(asked.given);
  const call = answer.toolCalls.find((candidate) => candidate.name === name);
  if (call) result.toolCall = { id: call.id, name: call.name, arguments: call.arguments };
  return result;
}

/** A body that failed while it was read: the attempt's failure, typed. */
function unreadable(response: Response, model: string, cause: unknown): GatewayError {
  if (isGatewayError(cause)) return cause;
  return new GatewayError({
    code: 'network_error',
    status: response.status,
    message: `The response body could not be read: ${describeCause(cause)}`,
    requestedModel: model,
    cause,
  });
}

/**
 * The completion with choice 0's content the JSON, no tool call (a forced tool call's is the
 * JSON; any other names a tool nobody offered), its reasoning `reasoning` when given, and its
 * finish `structuredFinish`'s. A refused answer handed on keeps its `refusal` as sent, and the
 * JSON never holds the refusal's words (`checkedStructuredAnswer`): read, as any answer's, as the
 * content then the refusal, each once, the finish `content_filter` where it was `stop`.
 */
function cleaned(
  data: ChatCompletionResponse,
  json: string,
  reasoning: string | undefined,
): ChatCompletionResponse {
  return withFirstChoice(data, (choice) => {
    const message: Choice['message'] = { ...choice.message, content: json };
    if (reasoning !== undefined) message.reasoning_content = reasoning;
    delete message.tool_calls;
    return { ...choice, message, finish_reason: structuredFinish(choice.finish_reason) };
  });
}

/** The completion with choice 0's tool calls those of `names` only. */
function onlyCalls(data: ChatCompletionResponse, names: readonly string[]): ChatCompletionResponse {
  return withFirstChoice(data, (choice) => {
    const calls = choice.message.tool_calls ?? [];
    const kept = calls.filter((call) => names.includes(call.function.name));
    return { ...choice, message: { ...choice.message, tool_calls: kept } };
  });
}

type Choice = ChatCompletionResponse['choices'][number];

/** The completion with choice 0 (by its index, else the first) replaced by `change`'s. */
function withFirstChoice(
  data: ChatCompletionResponse,
  change: (choice: Choice) => Choice,
): ChatCompletionResponse {
  const at = data.choices.findIndex((choice) => choice.index === 0);
  const choice = data.choices[at === -1 ? 0 : at]!;
  const clean = change(choice);
  return { ...data, choices: data.choices.map((other) => (other === choice ? clean : other)) };
}

/** A response the transport reads again: the same status and headers, this body. */
function rebuilt(response: Response, body: string): Response {
  const headers = new Headers(response.headers);
  // The body is not the one these described.
  headers.delete('content-length');
  headers.delete('content-encoding');
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

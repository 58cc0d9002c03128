// docs/gateway-protocol.md §4.8 (structured output: every answer checked before the caller gets it).
/**
 * A non-streamed answer of a call asking for structured output, checked inside its attempt
 * (which still holds its slot): the completion read (bounded by `maxResponseBytes`), its
 * structured answer read back by the model's method and checked against the schema. A failure is
 * the attempt's (`invalid_structured_output`); an answer that passes is handed on clean — its
 * text the JSON itself (a fence's content; a forced tool call's arguments, that call removed,
 * finish `stop`) — with its checked value kept for `ChatResult.structured`. Loaded with the
 * steering module.
 */
import { describeCause, GatewayError, isGatewayError } from '../errors/errors';
import { tooLarge } from '../http/answer-errors';
import type { AttemptAnswer } from '../http/attempt-policy';
import { readBoundedBody } from '../http/read-bounded-body';
import type { StructuredResult } from '../protocol/chat-result-types';
import type { StructuredOutputMethod } from '../protocol/chat-route';
import type { ChatCompletionResponse } from '../protocol/wire-types';
import { type StructuredOutputSchema, schemaName } from '../steering/structured-output-request';
import { checkedStructuredAnswer, type StructuredAsk } from './checked-structured-answer';
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
  // A step of the caller's own tool loop (it called the request's tools; `tools` is not used when
  // the request has some): not the structured answer yet, handed on as it came, unchecked.
  const toolStep = method !== 'tools' && (completion?.toolCalls.length ?? 0) > 0;
  if (data === undefined || completion === undefined || toolStep) {
    answer.response = rebuilt(response, read.text);
    return undefined;
  }
  try {
    const { value, json, reasoning, checked } = await checkedStructuredAnswer(
      model,
      method,
      completion,
      asked,
    );
    // A think block before the JSON: the answer's reasoning, after any the model sent apart.
    const thought = reasoning === undefined ? undefined : (completion.reasoning ?? '') + reasoning;
    const clean = cleaned(data, json, method, asked.given, thought);
    answer.response = rebuilt(response, JSON.stringify(clean));
    // A refused last answer handed on (`returnRefused`): clean, but no checked value.
    return checked ? { value, method } : undefined;
  } catch (error) {
    if (isGatewayError(error)) return error;
    throw error;
  }
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
 * The completion with choice 0's content the JSON (and a forced tool call's call removed; its
 * reasoning `reasoning` when given).
 */
function cleaned(
  data: ChatCompletionResponse,
  json: string,
  method: StructuredOutputMethod,
  given: StructuredOutputSchema,
  reasoning: string | undefined,
): ChatCompletionResponse {
  const choices = data.choices;
  const at = choices.findIndex((choice) => choice.index === 0);
  const choice = choices[at === -1 ? 0 : at]!;
  const message = { ...choice.message, content: json };
  if (reasoning !== undefined) message.reasoning_content = reasoning;
  let finish = choice.finish_reason;
  if (method === 'tools') {
    const name = schemaName(given);
    const others = (message.tool_calls ?? []).filter((call) => call.function.name !== name);
    if (others.length > 0) message.tool_calls = others;
    else delete message.tool_calls;
    finish = others.length > 0 ? finish : 'stop';
  }
  const clean = { ...choice, message, finish_reason: finish };
  return { ...data, choices: choices.map((other) => (other === choice ? clean : other)) };
}

/** A response the transport reads again: the same status and headers, this body. */
function rebuilt(response: Response, body: string): Response {
  const headers = new Headers(response.headers);
  // The body is not the one these described.
  headers.delete('content-length');
  headers.delete('content-encoding');
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

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
import type {
  AssembledChat,
  StructuredResult,
  UncheckedStructured,
} from '../protocol/chat-result-types';
import type { StructuredOutputMethod } from '../protocol/chat-route';
import type { ChatCompletionResponse } from '../protocol/wire-types';
import { invalidStructuredOutput } from '../steering/invalid-structured-output';
import { jsonInText } from '../steering/json-in-text';
import { CUT_WORDS, unfinishedNumber } from '../steering/structured-output-request';
import {
  checkedStructuredAnswer,
  ownToolCalls,
  type StructuredAsk,
  servedBy,
  structuredFinish,
} from './checked-structured-answer';
import { classifyFinishReason } from './classify-finish-reason';
import { choicesInOrder, readChatCompletion, readEveryChoice } from './read-chat-completion';
import { jsonBesideRefusal } from './read-message-parts';
import { chatCompletionProblem } from './validate-chat-response';

/** What a whole answer is checked by: the schema asked for, the check, the body's limit. */
/** How a whole answer's body is read in its attempt. */
interface BodyReadInAttempt {
  maxResponseBytes: number;
  path: string;
  /** The attempt's signal: its abort (a stall, the deadline) ends the body's read. */
  signal?: AbortSignal;
}

export interface WholeCheck extends StructuredAsk, BodyReadInAttempt {}

/**
 * What a whole answer's check found, the clean answer left in `answer.response`: choice 0's checked
 * value (`checked`), or how it was served when handed on unchecked (`unchecked`: a refused last
 * answer, `returnRefused`), and each later choice's checked value (`checkedChoices`) or how it was
 * served when handed on unchecked (`uncheckedChoices`), by its place among the choices (choice 0
 * first, then by index, as `ChatResult.choices`).
 */
export interface WholeChecked {
  checked?: StructuredResult;
  unchecked?: UncheckedStructured;
  uncheckedChoices?: ReadonlyMap<number, UncheckedStructured>;
  /**
   * Each later choice that passed its check, by its place among the choices: its checked value,
   * with the forced call, every tool call and the finish the server sent in it (as `checked`).
   */
  checkedChoices?: ReadonlyMap<number, StructuredResult>;
}

/**
 * `answer` of `model` (asked by `method`) checked: the failure; or what the check found
 * (`WholeChecked`); or undefined when it was handed on as it came (a body that is no completion,
 * refused as for any call: one not JSON by the attempt's own read, http/reported-in-answer.ts, a
 * failover reason; one of the wrong shape by the transport's reader, `invalid_response`). A step of the
 * caller's tool loop is handed on as it came, `checked` and `unchecked` unset.
 */
export async function checkWholeAnswer(
  answer: AttemptAnswer,
  model: string,
  method: StructuredOutputMethod,
  asked: WholeCheck,
): Promise<GatewayError | WholeChecked | undefined> {
  const read = await readInAttempt(answer, model, asked);
  if (isGatewayError(read)) return read;
  const { text, data, completion } = read;
  if (data === undefined || completion === undefined) {
    // No completion: handed on as it came, refused as for any call (not JSON: by the attempt,
    // reported-in-answer.ts, with the same error a call without a schema gets).
    answer.response = rebuilt(answer.response, text);
    return undefined;
  }
  // Every choice read as its method reads it and checked (`n` > 1: choice 0 first, then by index):
  // one that fails fails the answer, and no choice is handed on unchecked.
  const read0 = { body: text, completion };
  const outcome = await checkEveryChoice(data, read0, model, method, asked);
  if (isGatewayError(outcome.result)) return outcome.result;
  answer.response = rebuilt(answer.response, outcome.body);
  return outcome.result;
}

/** A whole answer's body as read in its attempt, and its completion when it is one. */
interface ReadInAttempt {
  text: string;
  data?: ChatCompletionResponse;
  completion?: AssembledChat;
}

/**
 * Reads `answer`'s body within its bounds (a failure, or a body past them, is the hop's error) and
 * parses it; the gateway has then finished the request, so a refusal of the answer cuts nothing.
 */
async function readInAttempt(
  answer: AttemptAnswer,
  model: string,
  asked: BodyReadInAttempt,
): Promise<GatewayError | ReadInAttempt> {
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
  answer.readToEnd = true;
  let data: ChatCompletionResponse | undefined;
  try {
    data = JSON.parse(read.text) as ChatCompletionResponse;
  } catch {
    return { text: read.text };
  }
  const completion = data && !chatCompletionProblem(data) ? readChatCompletion(data) : undefined;
  return { text: read.text, data, completion };
}

/** What `checkEveryChoice` found, and the body to hand on. */
interface ChoicesChecked {
  result: GatewayError | WholeChecked;
  body: string;
}

/**
 * Each choice of `data` (choice 0 is `first.completion`) read by `method` and checked: the first
 * failure (naming its choice when there are several), else what was found (each choice's checked
 * value or its unchecked mark) and the body with every choice
 * clean (`first.body`, as it came, when none changed).
 */
async function checkEveryChoice(
  data: ChatCompletionResponse,
  first: { body: string; completion: AssembledChat },
  model: string,
  method: StructuredOutputMethod,
  asked: WholeCheck,
): Promise<ChoicesChecked> {
  const several = data.choices.length > 1;
  const answers = several ? readEveryChoice(data, first.completion)! : [first.completion];
  const raws = choicesInOrder(data.choices);
  const result: WholeChecked = {};
  const later = new Map<number, UncheckedStructured>();
  const passed = new Map<number, StructuredResult>();
  let changed = false;
  const clean = new Map<Choice, Choice>();
  for (const [i, raw] of raws.entries()) {
    const outcome = await checkChoice(raw, answers[i]!, model, method, asked);
    if (isGatewayError(outcome)) {
      return { result: several ? ofChoice(outcome, raw.index ?? i, model) : outcome, body: '' };
    }
    // (The answer is choice 0; a later choice carries its own checked value or unchecked mark.)
    const found = outcome.result;
    if (found !== undefined && 'unchecked' in found) {
      if (i === 0) result.unchecked = found.unchecked;
      else later.set(i, found.unchecked);
    } else if (found !== undefined) {
      if (i === 0) result.checked = found;
      else passed.set(i, found);
    }
    changed ||= outcome.choice !== raw;
    clean.set(raw, outcome.choice);
  }
  if (later.size > 0) result.uncheckedChoices = later;
  if (passed.size > 0) result.checkedChoices = passed;
  if (!changed) return { result, body: first.body };
  const choices = data.choices.map((raw) => clean.get(raw) ?? raw);
  return { result, body: JSON.stringify({ ...data, choices }) };
}

/**
 * One choice (`raw`, read as `answer`) checked: its failure, or the choice to hand on and its
 * checked value. A step of the caller's own tool loop (it called the request's tools; `tools` is
 * not used when the request has some) is not the structured answer yet: handed on unchecked, as it
 * came but for calls of tools nobody offered. A choice calling none of the request's tools is
 * checked, and handed on clean.
 */
async function checkChoice(
  raw: Choice,
  answer: AssembledChat,
  model: string,
  method: StructuredOutputMethod,
  asked: WholeCheck,
): Promise<
  GatewayError | { choice: Choice; result?: StructuredResult | { unchecked: UncheckedStructured } }
> {
  const own = ownToolCalls(answer.toolCalls, method, asked.check);
  if (own.length > 0) {
    if (own.length === answer.toolCalls.length) return { choice: raw };
    return {
      choice: onlyCalls(
        raw,
        own.map((call) => call.name),
      ),
    };
  }
  try {
    const { value, json, reasoning, checked } = await checkedStructuredAnswer(
      model,
      method,
      answer,
      asked,
    );
    // The answer's reasoning (a field's, thinking parts'), then a think block's before the JSON:
    // kept when content parts become the JSON's text.
    const thought = (answer.reasoning ?? '') + (reasoning ?? '');
    const choice = cleaned(raw, json, thought === '' ? undefined : thought);
    // A refused last answer handed on (`returnRefused`): clean, no checked value, how it was served.
    return checked
      ? { choice, result: structuredResult(value, method, answer, asked) }
      : { choice, result: { unchecked: servedBy(method, answer, asked) } };
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
  return { value, ...servedBy(method, answer, asked) };
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
 * `choice` with its content the JSON, no tool call (a forced tool call's is the JSON; any other
 * names a tool nobody offered), its reasoning `reasoning` when given, and its finish
 * `structuredFinish`'s. A refused answer handed on keeps its `refusal` as sent, and the JSON never
 * holds the refusal's words (`checkedStructuredAnswer`): read, as any answer's, as the content
 * then the refusal, each once, the finish `content_filter` where it was `stop`.
 */
function cleaned(choice: Choice, json: string, reasoning: string | undefined): Choice {
  const message: Choice['message'] = { ...choice.message, content: json };
  if (reasoning !== undefined) message.reasoning_content = reasoning;
  delete message.tool_calls;
  return { ...choice, message, finish_reason: structuredFinish(choice.finish_reason) };
}

/** `choice` with its tool calls those of `names` only. */
function onlyCalls(choice: Choice, names: readonly string[]): Choice {
  const calls = choice.message.tool_calls ?? [];
  const kept = calls.filter((call) => names.includes(call.function.name));
  return { ...choice, message: { ...choice.message, tool_calls: kept } };
}

type Choice = ChatCompletionResponse['choices'][number];

/**
 * The failure of choice `index` of an answer of several: named so (`invalidOutput.choice`, the
 * message), its usage kept (the whole answer's).
 */
function ofChoice(error: GatewayError, index: number, model: string): GatewayError {
  const output = error.invalidOutput;
  if (error.code !== 'invalid_structured_output' || output === undefined) return error;
  const reason = output.reason ?? 'schema';
  const named = invalidStructuredOutput(model, { ...output, reason, choice: index });
  if (error.usage !== undefined) (named as { usage?: typeof error.usage }).usage = error.usage;
  return named;
}

/** A response the transport reads again: the same status and headers, this body. */
function rebuilt(response: Response, body: string): Response {
  const headers = new Headers(response.headers);
  // The body is not the one these described.
  headers.delete('content-length');
  headers.delete('content-encoding');
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/** What a JSON text answer (`json_object`, no schema) is read and refused by. */
export interface JsonTextCheck extends BodyReadInAttempt {
  /**
   * Asked once an answer failed: no model is left to move on to (`WalkAhead.last`). The last
   * answer is then handed on as it came, as a call of one model's is: its caller parses it.
   */
  last(): boolean;
}

/**
 * A whole answer of a steered call asking for JSON with no schema (`json_object`), read in its
 * attempt: a choice whose text, read by the fence rule as the caller would get it, does not parse
 * fails the hop (`invalid_structured_output`, method `json_object`), which moves the walk on (the
 * spec: the client validates, even in JSON mode); a tool step is handed on as it came. With no
 * model left, the answer is handed on as it came. Its body is read to its end either way.
 */
export async function checkJsonTextAnswer(
  answer: AttemptAnswer,
  model: string,
  asked: JsonTextCheck,
): Promise<GatewayError | undefined> {
  const read = await readInAttempt(answer, model, asked);
  if (isGatewayError(read)) return read;
  answer.response = rebuilt(answer.response, read.text);
  const { data, completion } = read;
  // No completion: refused as for any call (reported-in-answer.ts).
  if (data === undefined || completion === undefined) return undefined;
  const choices = readEveryChoice(data, completion) ?? [completion];
  const raws = choicesInOrder(data.choices);
  for (const [i, choice] of choices.entries()) {
    const failure = jsonTextFailure(model, choice);
    if (failure === undefined) continue;
    if (asked.last()) return undefined;
    const error = choices.length > 1 ? ofChoice(failure, raws[i]?.index ?? i, model) : failure;
    // The tokens were spent: the route's failed hop reports them.
    if (completion.usage !== undefined) (error as { usage?: unknown }).usage = completion.usage;
    return error;
  }
  return undefined;
}

/**
 * Why `choice`'s text, as a JSON call's caller gets it (the fence rule; a refusal's words after
 * it), is no JSON, or undefined when it parses (or is a tool step). A number at the root cut at
 * the length limit is refused as cut, as a schema's is.
 */
function jsonTextFailure(model: string, choice: AssembledChat): GatewayError | undefined {
  if (choice.toolCalls.length > 0) return undefined;
  const cut = classifyFinishReason(choice.finishReason) === 'length';
  const text = jsonBesideRefusal(choice.text, choice.refusal, jsonInText);
  let reason: 'refused' | 'cut' | 'no_json';
  let message: string;
  try {
    const unfinished = unfinishedNumber(JSON.parse(text), cut);
    if (unfinished === undefined) return undefined;
    reason = 'cut';
    message = unfinished;
  } catch {
    reason = choice.refusal !== undefined ? 'refused' : cut ? 'cut' : 'no_json';
    const what = text.trim() === '' ? 'the answer is empty' : 'the answer is not JSON';
    message =
      reason === 'refused'
        ? `the model refused to answer (OpenAI's \`refusal\`): ${JSON.stringify(choice.refusal!.slice(0, 200))}`
        : reason === 'cut'
          ? `${what}: ${CUT_WORDS}`
          : what;
  }
  const error = invalidStructuredOutput(model, {
    method: 'json_object',
    text: choice.text,
    issues: [{ message }],
    reason,
  });
  return error;
}

// docs/gateway-protocol.md §4.8 (structured output: every answer checked before the caller gets it).
/**
 * The check both shapes of a structured-output answer share (a whole completion and an assembled
 * stream): the answer read back by its method, checked against the schema, and its JSON text as
 * the caller gets it. Loaded with the steering module.
 */
import { isGatewayError } from '../errors/errors';
import type {
  AssembledChat,
  AssembledToolCall,
  UncheckedStructured,
} from '../protocol/chat-result-types';
import type { StructuredOutputMethod } from '../protocol/chat-route';
import {
  checkStructuredAnswer,
  type StructuredOutputCheck,
} from '../steering/check-structured-answer';
import { invalidStructuredOutput } from '../steering/invalid-structured-output';
import {
  readStructuredAnswer,
  type StructuredOutputSchema,
  schemaName,
  structuredJsonText,
} from '../steering/structured-output-request';
import { classifyFinishReason, refusedFinishReason } from './classify-finish-reason';

/** What an answer is checked by: the schema asked for, and the check. */
export interface StructuredAsk {
  given: StructuredOutputSchema;
  check: StructuredOutputCheck;
  /**
   * An answer the check refuses is handed on unchecked (`checked: false`), not thrown: the last
   * model's, on a call with `structuredOutput.lastAnswer: 'returned'` — JSON that breaks the
   * schema, and an answer with no JSON where its method puts it (its caller parses and refuses
   * it by its own rules, as it would any provider's answer). Read only once a refusal is known:
   * claiming the last answer is the walk's (a hedged call's run is spent by it).
   */
  returnRefused?: boolean;
}

/**
 * `answer` of `model` (asked by `method`) checked: its value, its JSON text (a fence's content; a
 * forced tool call's arguments) and the reasoning of a think block before the JSON (§4.8 item 3).
 * Throws `invalid_structured_output` when it fails; a refusal, when `asked.returnRefused`, is
 * `checked: false` instead: the JSON read from `content` (the answer without the refusal's words:
 * a stream's content pieces), unchecked; an answer with none (not JSON, no call of
 * the schema's tool) has `value` undefined and `json` the text its method reads it from (the text
 * after a think block, a fence's content; the tool call's arguments; '' when the tool was not
 * called: the model's own text is not the answer, and a stream left it out).
 */
export async function checkedStructuredAnswer(
  model: string,
  method: StructuredOutputMethod,
  answer: AssembledChat,
  asked: StructuredAsk,
  content: AssembledChat = withoutRefusal(answer),
): Promise<{ value: unknown; json: string; reasoning?: string; checked: boolean }> {
  // An answer cut at the length limit: its error says so (unfinished JSON is the likely cause).
  const cutAtLength = classifyFinishReason(answer.finishReason) === 'length';
  let read: ReturnType<typeof readStructuredAnswer>;
  try {
    if (answer.refusal !== undefined) throw refusedStructuredOutput(model, method, answer);
    read = readStructuredAnswer(model, answer, asked.given, method, cutAtLength);
  } catch (error) {
    if (!isGatewayError(error) || !asked.returnRefused) {
      throw withAnswerUsage(error, answer, method, asked);
    }
    // (A refusal's words are not the JSON: it is read from `content`, the answer without them.)
    const where = structuredJsonText(content, asked.given, method);
    const json = where?.json ?? '';
    return { value: undefined, json, reasoning: where?.reasoning, checked: false };
  }
  let value: unknown;
  try {
    value = await checkStructuredAnswer(model, method, read, asked.check);
  } catch (error) {
    if (!isGatewayError(error) || !asked.returnRefused) {
      throw withAnswerUsage(error, answer, method, asked);
    }
    return { value: read.value, json: read.json, reasoning: read.reasoning, checked: false };
  }
  return { value, json: read.json, reasoning: read.reasoning, checked: true };
}

/**
 * A whole `answer` with its text without its refusal's words (read after the content: its end).
 */
export function withoutRefusal(answer: AssembledChat): AssembledChat {
  const { text, refusal } = answer;
  if (refusal === undefined || !text.endsWith(refusal)) return answer;
  return { ...answer, text: text.slice(0, text.length - refusal.length) };
}

/** Refusal words quoted in the error's message (the whole text is on the error). */
const REFUSAL_QUOTED = 200;

/**
 * An answer in which the model refused (OpenAI's `refusal`, read as its text): no structured
 * output, whatever the text parses to. The issue says so and quotes the refusal, rather than
 * "not JSON" about the refusal's own words.
 */
function refusedStructuredOutput(
  model: string,
  method: StructuredOutputMethod,
  answer: AssembledChat,
): unknown {
  const refusal = answer.refusal ?? '';
  const quoted = JSON.stringify(refusal.slice(0, REFUSAL_QUOTED));
  const cut =
    refusal.length > REFUSAL_QUOTED
      ? ` (${refusal.length} characters, first ${REFUSAL_QUOTED} quoted)`
      : '';
  const message = `the model refused to answer (OpenAI's \`refusal\`): ${quoted}${cut}`;
  const issues = [{ message }];
  return invalidStructuredOutput(model, { method, text: answer.text, issues, reason: 'refused' });
}

/**
 * A refusal carrying the refused answer's usage (set in place: the error is this answer's own).
 * The tokens were spent: the caller's accounting, and a fallback route's hop, report them. Its
 * `invalidOutput` says how the answer was served: the finish as sent, the forced call (`tools`)
 * and every call the server sent.
 */
function withAnswerUsage(
  error: unknown,
  answer: AssembledChat,
  method: StructuredOutputMethod,
  asked: StructuredAsk,
): unknown {
  if (!isGatewayError(error)) return error;
  if (answer.usage !== undefined) {
    (error as { usage?: AssembledChat['usage'] }).usage = answer.usage;
  }
  const output = error.invalidOutput;
  if (output !== undefined) {
    const { toolCall, sentToolCalls } = servedBy(method, answer, asked);
    const sent = answer.sentFinishReason ?? answer.finishReason;
    if (sent !== null) output.sentFinishReason = sent;
    if (toolCall !== undefined) output.toolCall = toolCall;
    if (sentToolCalls !== undefined) output.sentToolCalls = sentToolCalls;
  }
  return error;
}

/**
 * The calls of `calls` that make an answer a step of the caller's tool loop: those of the
 * request's own tools (`check.tools`). A call of a tool nobody offered (a model that "calls" the
 * schema by its name) is no step: the answer is then read for its JSON, that call left out. With
 * `tools` there are none (a request with tools of its own is not served by it; the schema's call
 * is the answer).
 */
export function ownToolCalls(
  calls: readonly AssembledToolCall[],
  method: StructuredOutputMethod,
  check: StructuredOutputCheck,
): AssembledToolCall[] {
  const offered = method === 'tools' ? [] : (check.tools ?? []);
  return calls.filter((call) => offered.includes(call.name));
}

/**
 * A structured answer's finish reason, in a whole answer and a stream alike: `stop` where it said
 * it ended with calls (`tool_calls`, or a dialect's word for it: the schema's call under `tools`,
 * or one nobody offered), as no call is handed on with it; else the model's own (`length`,
 * `content_filter`, … say why the JSON may be cut or missing, whatever the method).
 */
export function structuredFinish<Reason extends string | null | undefined>(
  reason: Reason,
): Reason | 'stop' {
  return classifyFinishReason(reason) === 'tool_calls' ? 'stop' : reason;
}

/**
 * A finish event of a structured answer: `structuredFinish`'s reason, the server's own kept in
 * `sent` when the reason is another (as a refused answer's is), for adapters that keep the raw word.
 */
export function structuredFinishEvent<Event extends { reason: string; sent?: string }>(
  event: Event,
): Event {
  const reason = structuredFinish(event.reason);
  return reason === event.reason ? event : { ...event, reason, sent: event.sent ?? event.reason };
}

/**
 * A structured answer's finish reason as its caller gets it, whole or streamed: `structuredFinish`'s,
 * then a refused answer's `stop` reported as `content_filter` (`refused`: it carried a refusal),
 * as for any refused answer.
 */
export function answerFinish(reason: string | null, refused: boolean): string | null {
  const finish = structuredFinish(reason);
  return refused && finish !== null ? refusedFinishReason(finish) : finish;
}

/**
 * How `answer` served the schema, checked or not: `method`, the forced call of the schema's tool
 * (`tools`: its first, as the answer is read), every call the server sent (in its order; the
 * clean answer hands none on) and the finish as sent when the clean answer reports another
 * (`tool_calls` as `stop`; not for a refused answer handed on).
 */
export function servedBy(
  method: StructuredOutputMethod,
  answer: AssembledChat,
  asked: StructuredAsk,
): UncheckedStructured {
  const result: UncheckedStructured = { method };
  const sent = answer.sentFinishReason ?? answer.finishReason;
  // (A refused answer's finish stays `content_filter`, what its refusal says: no other is kept.)
  const refused = answer.refusal !== undefined;
  if (sent !== null && !refused && structuredFinish(sent) !== sent) result.sentFinishReason = sent;
  if (answer.toolCalls.length > 0) {
    result.sentToolCalls = answer.toolCalls.map(({ id, name, arguments: text }) => ({
      id,
      name,
      arguments: text,
    }));
  }
  if (method !== 'tools') return result;
  const name = schemaName(asked.given);
  const call = answer.toolCalls.find((candidate) => candidate.name === name);
  if (call) result.toolCall = { id: call.id, name: call.name, arguments: call.arguments };
  return result;
}

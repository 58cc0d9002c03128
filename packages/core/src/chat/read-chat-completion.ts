// docs/gateway-protocol.md §4.3 (the answer's shape and its choice 0), §4.4 (tool calls).

import type { GatewayError } from '../errors/errors';
import { type AnswerErrorBounds, unusableAnswer } from '../http/unusable-answer';
import type { AssembledChat, AssembledToolCall } from '../protocol/chat-result-types';
import { isJsonObject } from '../protocol/json-object';
import type { ChatCompletionResponse, ToolCall } from '../protocol/wire-types';
import { choiceIndexes } from './choice-position';
import { refusedFinishReason } from './classify-finish-reason';
import { readAudio, readImageUrls } from './generated-media';
import { argumentsText, readContent, readReasoningField, uniqueCallId } from './read-message-parts';
import { chatCompletionProblem } from './validate-chat-response';

/**
 * A non-streamed answer read: loaded by a client's first `chat` call (chat-calls.ts), so that an
 * app that only streams never loads it, as one that never streams never loads the stream reader.
 */

/** A 2xx JSON answer as the transport read it. */
interface ChatAnswer {
  data: ChatCompletionResponse;
  status: number;
  text: string;
  /** Kept on the error of an answer that cannot be used. */
  headers: Headers;
}

/**
 * The answer checked and read, or the `invalid_response` it is (`failed` adds a steered call's
 * route; `client` keeps the key out of the kept body and bounds it).
 */
export function readCheckedCompletion(
  answer: ChatAnswer,
  requestedModel: string,
  client: AnswerErrorBounds,
  failed: ((error: GatewayError) => GatewayError) | undefined,
): AssembledChat {
  const problem = chatCompletionProblem(answer.data);
  const assembled = problem ? undefined : readChatCompletion(answer.data);
  if (assembled !== undefined) return assembled;
  const message = problem
    ? `The chat completion ${problem}`
    : 'The chat completion has no choice of index 0 (each of its choices has another index)';
  // A body that is an error object (and no answer) is read as that error, as in a stream (§5.3).
  const error = unusableAnswer(client, message, answer, requestedModel);
  throw failed ? failed(error) : error;
}

/**
 * Reads choice 0 of a non-streamed completion (already shape-checked by `chatCompletionProblem`)
 * the same tolerant way as a stream: content parts joined, reasoning from `reasoning_content`,
 * `reasoning` or thinking parts, a `refusal` as text (a refused `stop` reported as
 * `content_filter`, the server's word kept), tool calls with ids, its `logprobs` and legacy
 * `function_call` when they are objects. `undefined` when there is no choice 0.
 */
export function readChatCompletion(response: ChatCompletionResponse): AssembledChat | undefined {
  const choices = response.choices;
  const indexes = choiceIndexes(choices);
  const choice =
    choices.find((_, position) => indexes[position] === 0) ??
    (choices.length === 1 ? choices[0] : undefined);
  if (choice === undefined) return undefined;
  // Every choice's tool-call arguments as JSON text (`argumentsText`), also in the body handed back
  // (`ChatResult.response`), which then holds what its type says for each choice, not choice 0's.
  for (const each of choices) {
    for (const call of each.message.tool_calls ?? []) {
      call.function.arguments = argumentsText(call.function.arguments);
    }
  }
  return readChoice(response, choice);
}

type Choice = ChatCompletionResponse['choices'][number];

/**
 * Every choice of an answer that has several (a request with `n` > 1), read as choice 0 is, in
 * the order of their indexes: `answer` (choice 0) first. `undefined` for an answer of one choice.
 * Call after `readChatCompletion`, which read choice 0 as `answer`.
 */
export function readEveryChoice(
  response: ChatCompletionResponse,
  answer: AssembledChat,
): AssembledChat[] | undefined {
  if (response.choices.length < 2) return undefined;
  const others = choicesInOrder(response.choices).slice(1);
  return [answer, ...others.map((choice) => readChoice(response, choice))];
}

/**
 * The choices in the order `readEveryChoice` reads them: choice 0 (by its index, else the first),
 * then the others by index; a choice without `index` at the index choice-position.ts gives it.
 */
export function choicesInOrder(choices: Choice[]): Choice[] {
  const indexes = choiceIndexes(choices);
  const indexed = choices.map((choice, position) => ({ choice, index: indexes[position] ?? 0 }));
  const zero = indexed.find((each) => each.index === 0) ?? indexed[0]!;
  const others = indexed.filter((each) => each !== zero).sort((a, b) => a.index - b.index);
  return [zero, ...others].map((each) => each.choice);
}

/** One choice of an answer (already shape-checked), with the answer's id, model and usage. */
function readChoice(response: ChatCompletionResponse, choice: Choice): AssembledChat {
  const message = choice.message as unknown as Record<string, unknown>;
  const parts = readContent(message.content) ?? { text: '', reasoning: '' };
  const reasoning = readReasoningField(message) + parts.reasoning;
  const refusal = typeof message.refusal === 'string' ? message.refusal : '';
  const sent = typeof choice.finish_reason === 'string' ? choice.finish_reason : null;
  const finishReason = refusal === '' || sent === null ? sent : refusedFinishReason(sent);
  const result: AssembledChat = {
    text: parts.text + refusal,
    toolCalls: readToolCalls(choice.message.tool_calls ?? []),
    finishReason,
  };
  if (finishReason !== sent) result.sentFinishReason = sent as string;
  if (reasoning !== '') result.reasoning = reasoning;
  if (refusal !== '') result.refusal = refusal;
  if (typeof response.id === 'string' && response.id !== '') result.id = response.id;
  if (typeof response.model === 'string' && response.model !== '') result.model = response.model;
  if (
    typeof response.created === 'number' &&
    Number.isFinite(response.created) &&
    response.created > 0
  )
    result.created = response.created;
  if (typeof response.usage === 'object' && response.usage !== null) result.usage = response.usage;
  // (Sent when asked, `logprobs: true`: handed on as the server sent them, when an object.)
  const { logprobs } = choice as unknown as Record<string, unknown>;
  if (isJsonObject(logprobs)) result.logprobs = logprobs;
  const functionCall = message.function_call;
  if (isJsonObject(functionCall) && typeof functionCall.name === 'string') {
    result.functionCall = {
      name: functionCall.name,
      arguments: argumentsText(functionCall.arguments),
    };
  }
  return withMedia(result, message);
}

/** `result` with the audio and images the model generated (generated-media.ts), when it sent any. */
function withMedia(result: AssembledChat, message: Record<string, unknown>): AssembledChat {
  const audio = readAudio(message.audio);
  if (audio !== undefined) result.audio = audio;
  const images = readImageUrls(message.images);
  if (images.length > 0) result.images = images.map((url) => ({ url }));
  return result;
}

/**
 * The calls with their arguments (JSON text already: `readChatCompletion`), their ids (one made up, tagged
 * for this answer, for a call the server sent without one or with the id of an earlier call:
 * `uniqueCallId`) and their `extra_content` when it is an object (Gemini's thought signature).
 */
function readToolCalls(calls: ToolCall[]): AssembledToolCall[] {
  const toolCalls: AssembledToolCall[] = [];
  if (calls.length === 0) return toolCalls;
  const ids = new Set<string>();
  for (const [i, call] of calls.entries()) {
    const args = call.function.arguments;
    const given = typeof call.id === 'string' && call.id !== '' ? call.id : undefined;
    const extra: unknown = call.extra_content;
    toolCalls.push({
      id: uniqueCallId(ids, given, i, i),
      name: call.function.name,
      arguments: args.trim() === '' ? '{}' : args,
      ...(isJsonObject(extra) && { extraContent: extra }),
    });
  }
  return toolCalls;
}

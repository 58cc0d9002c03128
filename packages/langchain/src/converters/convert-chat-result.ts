// docs/gateway-protocol.md §4.3 (the response), §4.4 (tool calls), §4.5 (invalid tool arguments).
import type {
  AssembledChat,
  AssembledToolCall,
  ChatResult as GatewayChatResult,
  StructuredResult,
  UncheckedStructured,
} from '@infergate/core';
import { AIMessage } from '@langchain/core/messages';
import { type ChatGeneration, ChatGenerationChunk, type ChatResult } from '@langchain/core/outputs';
import { GatewayMessageChunk } from './gateway-message-chunk';
import { audioKwarg, contentWithImages } from './generated-media';
import { INTERLEAVED_KWARG, interleavedBlocks } from './interleaved-content';
import { spentUsage } from './map-usage';
import { readToolCalls } from './parse-tool-arguments';
import { registerContentBlockTranslator } from './reasoning-content-blocks';
import { buildResponseMetadata, finishInfo } from './response-metadata';

registerContentBlockTranslator();

/**
 * A gateway chat answer (docs/gateway-protocol.md §4.3) → LangChain's ChatResult: one AIMessage
 * per choice, as `ChatOpenAI`'s `generate` gives them (several only for a request with `n` > 1;
 * `invoke` returns the first, choice 0).
 */
export function convertChatResult(result: GatewayChatResult): ChatResult {
  // Core read each choice tolerantly: content parts, reasoning fields, tool-call ids.
  const choices = result.choices ?? [result.answer];
  return { generations: choices.map((answer) => convertChoice(result, answer)) };
}

/** One choice of the answer as a generation. */
function convertChoice(result: GatewayChatResult, answer: AssembledChat): ChatGeneration {
  const { response } = result;
  const text = contentText(answer);
  let extras: Record<string, unknown> | undefined;
  for (const call of answer.toolCalls) {
    // Gemini's thought signature, by call id: LangChain's tool calls have no field for it.
    if (call.extraContent) {
      extras ??= {};
      extras[call.id] = call.extraContent;
    }
  }
  const calls = readToolCalls(
    answer.toolCalls.map(({ id, name, arguments: args }) => ({ id, name, args })),
  );
  const responseMetadata = buildResponseMetadata(
    result,
    answer.finishReason,
    response.usage,
    answer.id,
    response,
  );
  const aiMessage = new AIMessage({
    // Generated images as `ChatOpenAI` gives them: image blocks after the text's block.
    content: contentWithImages(text, answer.images),
    ...(answer.id ? { id: answer.id } : {}),
    additional_kwargs: {
      ...additionalKwargs(result, answer),
      ...(extras ? { [EXTRA_CONTENT_KWARG]: extras } : {}),
    },
    ...calls,
    usage_metadata: spentUsage(response.usage, result.route),
    response_metadata: responseMetadata,
  });
  // Usage travels in usage_metadata; `_generate` adds llmOutput.tokenUsage from it.
  const generationInfo = finishInfo(responseMetadata);
  // Where `ChatOpenAI` puts them (LangChain copies `generationInfo` into `response_metadata`).
  if (answer.logprobs !== undefined) generationInfo.logprobs = answer.logprobs;
  return { text, message: aiMessage, generationInfo };
}

/**
 * Where `ChatOpenAI` keeps them: the reasoning (`contentBlocks` shows it as a `reasoning` block),
 * and the structured answer core checked (`parsed`: the Standard Schema's output when one was
 * given), which `withStructuredOutput`'s parser returns.
 */
function additionalKwargs(
  result: GatewayChatResult,
  answer: AssembledChat,
): Record<string, unknown> {
  const { reasoning, toolCalls, functionCall } = answer;
  const ordered =
    answer === result.answer
      ? interleavedBlocks(firstMessage(result), contentText(answer), reasoning)
      : undefined;
  return {
    // OpenAI's `refusal`, apart from the content (core reads it as text, after the content).
    ...(answer.refusal !== undefined ? { refusal: answer.refusal } : {}),
    ...(reasoning !== undefined ? { reasoning_content: reasoning } : {}),
    ...(ordered !== undefined ? { [INTERLEAVED_KWARG]: ordered } : {}),
    // (A later choice, `n` > 1: its own checked value, or its unchecked mark, with its own call,
    // calls and finish as sent.)
    ...structuredKwargs(
      answer === result.answer
        ? (result.structured ?? result.structuredUnchecked)
        : (answer.structured ?? answer.structuredUnchecked),
    ),
    // OpenAI's raw forms, as `ChatOpenAI` keeps them: the tool calls (with the ids core gave
    // them) and a legacy `function_call` (not a tool call; the answer's only output when sent).
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls.map(rawToolCall) } : {}),
    ...(functionCall !== undefined ? { function_call: { ...functionCall } } : {}),
    // The audio the model spoke, as `ChatOpenAI` keeps it (OpenAI's fields).
    ...(answer.audio !== undefined ? { audio: audioKwarg(answer.audio) } : {}),
  };
}

/**
 * The message's text: the content alone when the model also refused (OpenAI's `refusal` beside
 * it: JSON and words of refusal glued do not parse, as `ChatOpenAI`'s content holds the content
 * alone). A refusal with no content stays the text: the answer's only words.
 */
function contentText(answer: AssembledChat): string {
  const { text, refusal } = answer;
  if (refusal === undefined || text === refusal || !text.endsWith(refusal)) return text;
  return text.slice(0, text.length - refusal.length);
}

/** Choice 0's message as the gateway sent it (by its index, else the first). */
function firstMessage(result: GatewayChatResult): unknown {
  const choices = result.response.choices ?? [];
  return (choices.find((choice) => choice.index === 0) ?? choices[0])?.message;
}

/**
 * Where an AI message keeps the forced tool call that served its structured answer (core's
 * `structured.toolCall`, in OpenAI's raw form): not among its tool calls (the answer is the
 * JSON), but `withStructuredOutput`'s `includeRaw` gives it back on the raw message, as
 * `ChatOpenAI`'s `functionCalling` raw message has it.
 */
export const STRUCTURED_CALL_KWARG = 'structured_tool_call';

/**
 * Where an AI message keeps every tool call the server sent with its structured answer, in the
 * order sent (core's `structured.sentToolCalls`, in OpenAI's raw form; the forced call among
 * them): `withStructuredOutput`'s `includeRaw` lists them all on the raw message, as `ChatOpenAI`'s
 * raw message does.
 */
export const SENT_CALLS_KWARG = 'sent_tool_calls';

/**
 * Where an AI message keeps the finish reason the server sent for its structured answer, when
 * core reports another (core's `structured.sentFinishReason`: `tool_calls` read as `stop`):
 * `withStructuredOutput`'s `includeRaw` gives it back as the raw message's
 * `response_metadata.finish_reason`, as `ChatOpenAI`'s raw message has it.
 */
export const SENT_FINISH_KWARG = 'sent_finish_reason';

/**
 * The structured answer's kwargs: its checked value (`parsed`; none for an answer core handed on
 * unchecked, which the parser then refuses), the call that served it, every call the server sent
 * and the finish reason the server sent.
 */
export function structuredKwargs(
  structured: StructuredResult | UncheckedStructured | undefined,
): Record<string, unknown> {
  if (structured === undefined) return {};
  const call = structured.toolCall;
  const calls = structured.sentToolCalls;
  const sent = structured.sentFinishReason;
  return {
    ...('value' in structured ? { parsed: structured.value } : {}),
    ...(call !== undefined ? { [STRUCTURED_CALL_KWARG]: rawToolCall(call) } : {}),
    ...(calls !== undefined ? { [SENT_CALLS_KWARG]: calls.map(rawToolCall) } : {}),
    ...(sent !== undefined ? { [SENT_FINISH_KWARG]: sent } : {}),
  };
}

/** A tool call as OpenAI's chat completions API sends it. */
function rawToolCall(call: Pick<AssembledToolCall, 'id' | 'name' | 'arguments'>) {
  return {
    id: call.id,
    type: 'function' as const,
    function: { name: call.name, arguments: call.arguments },
  };
}

/**
 * Where an AI message keeps its tool calls' `extra_content` (Gemini's thought signature), by
 * tool-call id. A stream's chunks carry each id's entry once, so concatenated chunks merge the
 * entries without joining any string twice.
 */
export const EXTRA_CONTENT_KWARG = 'tool_call_extra_content';

/**
 * A whole (non-streamed) answer as one stream chunk: used when `.stream()` is called on a model
 * without the `streaming` capability. Tool calls become tool_call_chunks so the chunk concatenates
 * like a streamed one.
 */
export function convertChatResultToChunk(result: GatewayChatResult): ChatGenerationChunk {
  const [generation] = convertChatResult(result).generations;
  const message = generation!.message as AIMessage;
  const calls = result.answer.toolCalls;
  return new ChatGenerationChunk({
    text: generation!.text,
    generationInfo: generation!.generationInfo,
    message: new GatewayMessageChunk({
      content: message.content,
      ...(message.id ? { id: message.id } : {}),
      additional_kwargs: message.additional_kwargs,
      tool_call_chunks: calls.map((call, index) => ({
        type: 'tool_call_chunk' as const,
        index,
        id: call.id,
        name: call.name,
        args: call.arguments,
      })),
      usage_metadata: message.usage_metadata,
      response_metadata: message.response_metadata,
    }),
  });
}

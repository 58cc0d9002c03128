// docs/gateway-protocol.md §4.3 (the response), §4.4 (tool calls), §4.5 (invalid tool arguments).
import type { ChatResult as GatewayChatResult } from '@infergate/core';
import { AIMessage } from '@langchain/core/messages';
import { ChatGenerationChunk, type ChatResult } from '@langchain/core/outputs';
import { GatewayMessageChunk } from './gateway-message-chunk';
import { mapUsage } from './map-usage';
import { readToolCalls } from './parse-tool-arguments';
import { registerContentBlockTranslator } from './reasoning-content-blocks';
import { buildResponseMetadata, finishInfo } from './response-metadata';

registerContentBlockTranslator();

/** A gateway chat answer (docs/gateway-protocol.md §4.3) → LangChain's ChatResult with one AIMessage. */
export function convertChatResult(result: GatewayChatResult): ChatResult {
  // Core read choice 0 tolerantly: content parts, reasoning fields, tool-call ids.
  const { response, answer } = result;
  const { text } = answer;
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
    content: text,
    ...(answer.id ? { id: answer.id } : {}),
    additional_kwargs: {
      ...additionalKwargs(result),
      ...(extras ? { [EXTRA_CONTENT_KWARG]: extras } : {}),
    },
    ...calls,
    usage_metadata: mapUsage(response.usage),
    response_metadata: responseMetadata,
  });
  // Usage travels in usage_metadata; `_generate` adds llmOutput.tokenUsage from it.
  return {
    generations: [
      {
        text,
        message: aiMessage,
        generationInfo: finishInfo(responseMetadata),
      },
    ],
  };
}

/**
 * Where `ChatOpenAI` keeps them: the reasoning (`contentBlocks` shows it as a `reasoning` block),
 * and the structured answer core checked (`parsed`: the Standard Schema's output when one was
 * given), which `withStructuredOutput`'s parser returns.
 */
function additionalKwargs(result: GatewayChatResult): Record<string, unknown> {
  const { reasoning } = result.answer;
  return {
    ...(reasoning !== undefined ? { reasoning_content: reasoning } : {}),
    ...(result.structured !== undefined ? { parsed: result.structured.value } : {}),
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

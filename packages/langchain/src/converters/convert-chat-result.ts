import { type ChatResult as GatewayChatResult, messageText } from '@infergate/core';
import { AIMessage, AIMessageChunk } from '@langchain/core/messages';
import type { InvalidToolCall, ToolCall } from '@langchain/core/messages/tool';
import { ChatGenerationChunk, type ChatResult } from '@langchain/core/outputs';
import { invalidResponse } from '../utils/errors';
import { mapUsage } from './map-usage';
import { buildResponseMetadata } from './response-metadata';

/** A gateway chat answer (spec 2.6) → LangChain's ChatResult with one AIMessage. */
export function convertChatResult(result: GatewayChatResult): ChatResult {
  const { response } = result;
  const choice = response.choices[0];
  if (!choice) {
    throw invalidResponse(`the chat answer from ${result.servedModel} has no choices`);
  }
  const { message } = choice;
  const text = messageText(message.content);
  const toolCalls: ToolCall[] = [];
  const invalidToolCalls: InvalidToolCall[] = [];
  for (const call of message.tool_calls ?? []) {
    const parsed = parseArguments(call.function.arguments);
    if (parsed.ok) {
      toolCalls.push({
        type: 'tool_call',
        id: call.id,
        name: call.function.name,
        args: parsed.value,
      });
    } else {
      invalidToolCalls.push({
        type: 'invalid_tool_call',
        id: call.id,
        name: call.function.name,
        args: call.function.arguments,
        error: parsed.error,
      });
    }
  }
  const responseMetadata = buildResponseMetadata({
    servedModel: result.servedModel,
    requestedModel: result.requestedModel,
    fallback: result.fallback,
    finishReason: choice.finish_reason,
    usage: response.usage,
    id: response.id,
  });
  const aiMessage = new AIMessage({
    content: text,
    ...(response.id ? { id: response.id } : {}),
    tool_calls: toolCalls,
    invalid_tool_calls: invalidToolCalls,
    usage_metadata: mapUsage(response.usage),
    response_metadata: responseMetadata,
  });
  // No llmOutput: LangChain copies it into response_metadata, and a streamed answer has none, so
  // invoke and stream would end in different messages. Usage travels in usage_metadata.
  return {
    generations: [
      {
        text,
        message: aiMessage,
        generationInfo: { finish_reason: responseMetadata.finish_reason },
      },
    ],
  };
}

type Parsed = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

/** Tool arguments are JSON text; the model may write invalid JSON (spec 4.3 rule 5). */
export function parseArguments(text: string): Parsed {
  if (text.trim() === '') return { ok: true, value: {} };
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      return { ok: true, value: value as Record<string, unknown> };
    }
    return { ok: false, error: 'tool call arguments are JSON but not an object' };
  } catch (error) {
    return {
      ok: false,
      error: `tool call arguments are not valid JSON: ${(error as Error).message}`,
    };
  }
}

/**
 * A whole (non-streamed) answer as one stream chunk: used when `.stream()` is called on a model
 * without the `streaming` capability. Tool calls become tool_call_chunks so the chunk concatenates
 * like a streamed one.
 */
export function convertChatResultToChunk(result: GatewayChatResult): ChatGenerationChunk {
  const [generation] = convertChatResult(result).generations;
  const message = generation!.message as AIMessage;
  const rawCalls = result.response.choices[0]?.message.tool_calls ?? [];
  return new ChatGenerationChunk({
    text: generation!.text,
    generationInfo: generation!.generationInfo,
    message: new AIMessageChunk({
      content: message.content,
      ...(message.id ? { id: message.id } : {}),
      tool_call_chunks: rawCalls.map((call, index) => ({
        type: 'tool_call_chunk' as const,
        index,
        id: call.id,
        name: call.function.name,
        args: call.function.arguments,
      })),
      ...(message.usage_metadata ? { usage_metadata: message.usage_metadata } : {}),
      response_metadata: message.response_metadata,
    }),
  });
}

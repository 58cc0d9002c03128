// docs/gateway-protocol.md §5 (a streamed answer as LangChain's content-block event stream).
import { convertChunksToEvents } from '@langchain/core/language_models/compat';
import type { ChatModelStreamEvent, FinishReason } from '@langchain/core/language_models/event';
import { AIMessageChunk } from '@langchain/core/messages';
import { ChatGenerationChunk } from '@langchain/core/outputs';

/**
 * The chat model's chunks as LangChain's content-block events, the last `message-finish` carrying
 * the answer's real finish reason and response metadata (LangChain's bridge knows neither).
 * `mapReason` is map-finish-reason.ts's, given by the model: this file loads lazily and imports
 * nothing of core, whose modules it would otherwise split into more chunks (B5).
 */
export async function* convertToChatModelEvents(
  chunks: AsyncIterable<ChatGenerationChunk>,
  signal: AbortSignal | undefined,
  mapReason: (reason: string | undefined) => FinishReason,
): AsyncGenerator<ChatModelStreamEvent> {
  let metadata: Record<string, unknown> | undefined;
  async function* remember(): AsyncGenerator<ChatGenerationChunk> {
    for await (const chunk of chunks) {
      if (Object.keys(chunk.message.response_metadata ?? {}).length > 0) {
        metadata = chunk.message.response_metadata;
      }
      yield shiftToolBlocks(chunk);
    }
  }
  for await (const event of convertChunksToEvents(remember(), { signal })) {
    if (event.event === 'message-finish' && metadata) {
      yield {
        ...event,
        reason: mapReason(metadata.finish_reason as string | undefined),
        responseMetadata: metadata,
      };
    } else {
      yield event;
    }
  }
}

/**
 * LangChain's chunk-to-event bridge puts text in content block 0 and each tool call in the block
 * numbered by its index, so text and tool call 0 would share a block. Tool calls move up by one.
 */
function shiftToolBlocks(chunk: ChatGenerationChunk): ChatGenerationChunk {
  const message = chunk.message as AIMessageChunk;
  if (!message.tool_call_chunks?.length) return chunk;
  return new ChatGenerationChunk({
    text: chunk.text,
    ...(chunk.generationInfo ? { generationInfo: chunk.generationInfo } : {}),
    // Everything else of the chunk is kept: a whole answer in one chunk (a model without
    // `streaming`) carries its usage and metadata here.
    message: new AIMessageChunk({
      content: message.content,
      ...(message.id ? { id: message.id } : {}),
      additional_kwargs: message.additional_kwargs,
      response_metadata: message.response_metadata,
      ...(message.usage_metadata ? { usage_metadata: message.usage_metadata } : {}),
      tool_call_chunks: message.tool_call_chunks.map((piece) => ({
        ...piece,
        index: (piece.index ?? 0) + 1,
      })),
    }),
  });
}

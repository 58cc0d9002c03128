import { AIMessage, AIMessageChunk } from '@langchain/core/messages';
import { ChatGenerationChunk } from '@langchain/core/outputs';

/**
 * LangChain's chunk-to-event bridge puts text in content block 0 and each tool call in the block
 * numbered by its index, so text and tool call 0 would share a block. Tool calls move up by one.
 */
export function shiftToolBlocks(chunk: ChatGenerationChunk): ChatGenerationChunk {
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

/** The joined chunks of a streamed answer as the whole message `invoke` returns. */
export function completeMessage(chunk: AIMessageChunk): AIMessage {
  return new AIMessage({
    content: chunk.content,
    ...(chunk.id ? { id: chunk.id } : {}),
    additional_kwargs: chunk.additional_kwargs,
    response_metadata: chunk.response_metadata,
    tool_calls: chunk.tool_calls ?? [],
    invalid_tool_calls: chunk.invalid_tool_calls ?? [],
    ...(chunk.usage_metadata ? { usage_metadata: chunk.usage_metadata } : {}),
  });
}

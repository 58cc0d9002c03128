// docs/gateway-protocol.md §5 (a streamed answer read whole, for `invoke` on a streaming model).
import { invalidResponse } from '@infergate/core/internal';
import { AIMessage, type AIMessageChunk } from '@langchain/core/messages';
import type { ChatGenerationChunk, ChatResult } from '@langchain/core/outputs';

/** The chunks of a streamed answer joined into the result `invoke` returns. */
export async function joinStreamChunks(
  chunks: AsyncIterable<ChatGenerationChunk>,
): Promise<ChatResult> {
  let final: ChatGenerationChunk | undefined;
  for await (const chunk of chunks) {
    final = final ? final.concat(chunk) : chunk;
  }
  if (!final) throw invalidResponse('the chat stream ended without any chunk');
  return {
    generations: [
      {
        text: final.text,
        message: completeMessage(final.message as AIMessageChunk),
        generationInfo: final.generationInfo,
      },
    ],
  };
}

/** The joined chunks of a streamed answer as the whole message `invoke` returns. */
function completeMessage(chunk: AIMessageChunk): AIMessage {
  return new AIMessage({
    content: chunk.content,
    ...(chunk.id ? { id: chunk.id } : {}),
    additional_kwargs: chunk.additional_kwargs,
    response_metadata: chunk.response_metadata,
    tool_calls: chunk.tool_calls ?? [],
    invalid_tool_calls: chunk.invalid_tool_calls ?? [],
    usage_metadata: chunk.usage_metadata,
  });
}

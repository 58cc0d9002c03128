// docs/gateway-protocol.md §5 (a streamed answer read whole, for `invoke` on a streaming model).

import type { AssembledImage } from '@infergate/core';
import { invalidResponse } from '@infergate/core/internal';
import { AIMessage, type AIMessageChunk } from '@langchain/core/messages';
import type { ChatGenerationChunk, ChatResult } from '@langchain/core/outputs';
import { contentWithImages, IMAGES_KWARG } from './generated-media';

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
  // The generated images the last chunk carried go after the text, as `invoke`'s content has them.
  const { [IMAGES_KWARG]: images, ...kwargs } = chunk.additional_kwargs;
  const content =
    Array.isArray(images) && typeof chunk.content === 'string'
      ? contentWithImages(chunk.content, images as AssembledImage[])
      : chunk.content;
  return new AIMessage({
    content,
    ...(chunk.id ? { id: chunk.id } : {}),
    additional_kwargs: kwargs,
    response_metadata: chunk.response_metadata,
    tool_calls: chunk.tool_calls ?? [],
    invalid_tool_calls: chunk.invalid_tool_calls ?? [],
    usage_metadata: chunk.usage_metadata,
  });
}

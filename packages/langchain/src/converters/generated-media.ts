// docs/gateway-protocol.md §4.3 (audio and images a model generated), §5.1 (as stream chunks).
import type { AssembledAudio, AssembledImage, ChatStreamEvent } from '@infergate/core';
import type { MessageContent } from '@langchain/core/messages';

/**
 * Core's generated audio and images as `ChatOpenAI` gives them: the audio in
 * `additional_kwargs.audio` in OpenAI's form (`{id, data, transcript, expires_at}`), the images as
 * `image` blocks after a text block (`content: [{type: 'text', text}, {type: 'image', url}]`).
 */

/** The audio as `additional_kwargs.audio` holds it (OpenAI's field names). */
export function audioKwarg(audio: AssembledAudio): Record<string, unknown> {
  return {
    ...(audio.id !== undefined && { id: audio.id }),
    data: audio.data,
    transcript: audio.transcript,
    ...(audio.expiresAt !== undefined && { expires_at: audio.expiresAt }),
  };
}

/**
 * Where a stream's last chunk carries the generated images (`image` blocks): chunk content stays a
 * string; `invoke` on a streaming model moves them back into content (`contentWithImages`).
 */
export const IMAGES_KWARG = 'images';

/** A message's content: its text, or a text block then one `image` block per image. */
export function contentWithImages(
  text: string,
  images: readonly AssembledImage[] | undefined,
): MessageContent {
  if (images === undefined || images.length === 0) return text;
  return [{ type: 'text', text }, ...imageBlocks(images)];
}

/** LangChain's `image` blocks of `images` (a URL each: a data URL or a link). */
export function imageBlocks(images: readonly AssembledImage[]): Exclude<MessageContent, string> {
  return images.map(({ url }) => ({ type: 'image' as const, url }));
}

/**
 * One stream piece of the audio as a chunk's `additional_kwargs.audio`: concatenated chunks join
 * `data` and `transcript` and keep the latest `id`; LangChain adds numbers up, so `expires_at`
 * goes on the first piece that carries one only (`expirySent`).
 */
export function audioPieceKwarg(
  event: Extract<ChatStreamEvent, { type: 'audio-delta' }>,
  expirySent: boolean,
): Record<string, unknown> {
  return {
    ...(event.id !== undefined && { id: event.id }),
    ...(event.data !== undefined && { data: event.data }),
    ...(event.transcript !== undefined && { transcript: event.transcript }),
    ...(event.expiresAt !== undefined && !expirySent && { expires_at: event.expiresAt }),
  };
}

/** The id of the audio an AI message carries (`additional_kwargs.audio.id`), to send back. */
export function audioIdOf(kwargs: Record<string, unknown> | undefined): string | undefined {
  const audio = kwargs?.audio;
  if (typeof audio !== 'object' || audio === null) return undefined;
  const { id } = audio as { id?: unknown };
  return typeof id === 'string' && id !== '' ? id : undefined;
}

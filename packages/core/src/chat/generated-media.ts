// docs/gateway-protocol.md §4.3 (the answer: audio and images a model generated), §5.4 (dialects).
import type { AssembledAudio } from '../protocol/chat-result-types';
import { isJsonObject } from '../protocol/json-object';

/**
 * What a model generates besides text, as OpenAI-compatible servers send it (the gateway passes
 * unknown message fields through): OpenAI's spoken answer, `message.audio` (`{id, data, transcript,
 * expires_at}`, asked with `modalities: ['text', 'audio']` and `audio: {voice, format}`), streamed
 * as `delta.audio` pieces whose `data` and `transcript` add up (any piece may carry any field);
 * OpenRouter's generated images, `message.images` (`[{type: 'image_url', image_url: {url}}]`, the
 * URL usually a data URL), streamed as whole images in `delta.images`.
 */

/** One `audio` object's fields (a whole message's or a stream's piece); undefined for a non-object. */
export function readAudioPiece(value: unknown): Partial<AssembledAudio> | undefined {
  if (!isJsonObject(value)) return undefined;
  const { id, data, transcript, expires_at: expiresAt } = value;
  const piece: Partial<AssembledAudio> = {};
  if (typeof id === 'string' && id !== '') piece.id = id;
  if (typeof data === 'string' && data !== '') piece.data = data;
  if (typeof transcript === 'string' && transcript !== '') piece.transcript = transcript;
  if (typeof expiresAt === 'number' && Number.isFinite(expiresAt)) piece.expiresAt = expiresAt;
  return piece;
}

/** A whole message's `audio`, its text fields '' when absent; undefined when it has none. */
export function readAudio(value: unknown): AssembledAudio | undefined {
  const piece = readAudioPiece(value);
  if (piece === undefined) return undefined;
  return { ...piece, data: piece.data ?? '', transcript: piece.transcript ?? '' };
}

/**
 * The URLs of `images` (a message's or a delta's): each entry's `image_url.url`, or its
 * `image_url` or `url` as a string (liberal); entries without one are left out.
 */
export function readImageUrls(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const urls: string[] = [];
  for (const entry of value) {
    if (!isJsonObject(entry)) continue;
    const { image_url: imageUrl, url } = entry;
    const found = isJsonObject(imageUrl) ? imageUrl.url : (imageUrl ?? url);
    if (typeof found === 'string' && found !== '') urls.push(found);
  }
  return urls;
}

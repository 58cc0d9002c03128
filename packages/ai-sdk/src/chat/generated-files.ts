// docs/gateway-protocol.md §4.3 (audio and images a model generated), §5.1 (as stream parts).
import type { LanguageModelV4File } from '@ai-sdk/provider';
import type { AssembledAudio, AssembledChat } from '@infergate/core';

/**
 * Core's generated audio and images as V4 `file` parts (what `generateText`'s `files` and
 * `streamText`'s `file` parts give): an image's data URL as its base64 data and its media type;
 * the audio as its base64 data, its media type read from its first bytes (`audio/pcm` for
 * headerless PCM), its id, transcript and expiry in `providerMetadata.infergate` (`audioId`,
 * `transcript`, `expiresAt`). An image given as a link is no file part (ai would download it, and
 * fail the call when the link is expired or private): see `imageLinks`.
 */
export function generatedFileParts(
  answer: Pick<AssembledChat, 'audio' | 'images'>,
): LanguageModelV4File[] {
  const parts: LanguageModelV4File[] = [];
  for (const { url } of answer.images ?? []) {
    const part = imageFilePart(url);
    if (part !== undefined) parts.push(part);
  }
  if (answer.audio !== undefined && answer.audio.data !== '')
    parts.push(audioFilePart(answer.audio));
  return parts;
}

/** The images an answer gave as links (http, https…): `providerMetadata.infergate.images`. */
export function imageLinks(answer: Pick<AssembledChat, 'images'>): string[] {
  const links: string[] = [];
  for (const { url } of answer.images ?? []) {
    const link = imageLink(url);
    if (link !== undefined) links.push(link);
  }
  return links;
}

const DATA_URL = /^data:([^;,]*)((?:;[^;,]*)*);base64,(.*)$/s;

/** An image's data URL as a file part; undefined for a link or anything else. */
export function imageFilePart(url: string): LanguageModelV4File | undefined {
  const data = DATA_URL.exec(url);
  if (!data) return undefined;
  const mediaType = data[1] !== '' ? (data[1] as string) : 'image/png';
  return { type: 'file', mediaType, data: { type: 'data', data: data[3] as string } };
}

/** An image's URL when it is a link (no base64 data URL, and a URL at all). */
export function imageLink(url: string): string | undefined {
  if (DATA_URL.test(url)) return undefined;
  try {
    new URL(url);
    return url;
  } catch {
    return undefined;
  }
}

/** The audio as a file part (see `generatedFileParts`). */
export function audioFilePart(audio: AssembledAudio): LanguageModelV4File {
  const infergate: Record<string, string | number> = { transcript: audio.transcript };
  if (audio.id !== undefined) infergate.audioId = audio.id;
  if (audio.expiresAt !== undefined) infergate.expiresAt = audio.expiresAt;
  return {
    type: 'file',
    mediaType: audioMediaType(audio.data),
    data: { type: 'data', data: audio.data },
    providerMetadata: { infergate },
  };
}

/** The media type of base64 audio by its first bytes (OpenAI's formats: wav, mp3, flac, opus, aac, pcm16). */
function audioMediaType(base64: string): string {
  let head = '';
  try {
    head = atob(base64.slice(0, 16));
  } catch {
    return 'audio/pcm';
  }
  const byte = (i: number) => head.charCodeAt(i);
  if (head.startsWith('RIFF')) return 'audio/wav';
  if (head.startsWith('fLaC')) return 'audio/flac';
  if (head.startsWith('OggS')) return 'audio/ogg';
  if (head.startsWith('ID3')) return 'audio/mpeg';
  if (byte(0) === 0xff && (byte(1) & 0xf6) === 0xf0) return 'audio/aac';
  if (byte(0) === 0xff && (byte(1) & 0xe0) === 0xe0) return 'audio/mpeg';
  return 'audio/pcm';
}

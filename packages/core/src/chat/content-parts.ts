// docs/gateway-protocol.md §4.1 (content parts: passed through; the gateway and the model decide).
/**
 * Images, audio and other files as chat content parts, built once for every adapter: an image is
 * an `image_url` part (its URL, or a data URL), audio an `input_audio` part (base64 and its
 * format), any other file a `file` part (a data URL and its name). The spec lists no capability
 * for media: parts are sent, and the gateway (or the model behind it) refuses what it cannot read.
 */
import { detectAudioFormat } from '../encoding/audio-format';
import { decodeBase64Prefix, encodeBase64 } from '../encoding/base64';
import type { ChatContentPart } from '../protocol/wire-types';

/** An image's type when neither its media type nor its first bytes name one (as openai-compatible). */
export const DEFAULT_IMAGE_TYPE = 'image/jpeg';

/** Media as the frameworks hand it over. */
export interface MediaSource {
  /** Full (`image/png`) or only the top-level type (`image`, `image/*`). */
  mediaType: string;
  /** The bytes, or their base64 (without a `data:` prefix). */
  data?: Uint8Array | string;
  /** Where the media is (http(s) or a data URL), instead of `data`. */
  url?: string;
  filename?: string;
}

/** Image types recognised by their first bytes. */
const IMAGE_SIGNATURES: [string, (head: Uint8Array) => boolean][] = [
  ['image/png', (h) => h[0] === 0x89 && h[1] === 0x50 && h[2] === 0x4e && h[3] === 0x47],
  ['image/jpeg', (h) => h[0] === 0xff && h[1] === 0xd8 && h[2] === 0xff],
  ['image/gif', (h) => h[0] === 0x47 && h[1] === 0x49 && h[2] === 0x46 && h[3] === 0x38],
  ['image/webp', (h) => ascii(h, 0, 'RIFF') && ascii(h, 8, 'WEBP')],
];

function ascii(bytes: Uint8Array, offset: number, text: string): boolean {
  for (let i = 0; i < text.length; i++) if (bytes[offset + i] !== text.charCodeAt(i)) return false;
  return true;
}

/** The first bytes, for sniffing; none when the text is not base64 (the gateway then judges it). */
function head(data: Uint8Array | string): Uint8Array {
  if (typeof data !== 'string') return data.subarray(0, 12);
  try {
    return decodeBase64Prefix(data, 12);
  } catch {
    return new Uint8Array(0);
  }
}

function base64(data: Uint8Array | string): string {
  return typeof data === 'string' ? data : encodeBase64(data);
}

/** The subtype of a full media type (`audio/x-wav` → `x-wav`), or undefined for `image`, `image/*`. */
function subtypeOf(mediaType: string): string | undefined {
  const subtype = mediaType.split(';')[0]!.split('/')[1]?.trim();
  return subtype && subtype !== '*' ? subtype.toLowerCase() : undefined;
}

/** The media type of an image: as given when full, else by its first bytes, else `DEFAULT_IMAGE_TYPE`. */
export function imageMediaType(mediaType: string, data: Uint8Array | string): string {
  if (subtypeOf(mediaType)) return mediaType;
  const bytes = head(data);
  return IMAGE_SIGNATURES.find(([, matches]) => matches(bytes))?.[0] ?? DEFAULT_IMAGE_TYPE;
}

/** `input_audio`'s format: from the media type (`audio/mpeg` → `mp3`), else the bytes, else `wav`. */
export function audioFormat(mediaType: string, data: Uint8Array | string): string {
  const subtype = subtypeOf(mediaType)?.replace(/^x-/, '');
  if (subtype) return subtype === 'mpeg' ? 'mp3' : subtype;
  return detectAudioFormat(head(data)) ?? 'wav';
}

/**
 * The content part of an image, audio clip or other file, or undefined when it has no wire form:
 * audio or a non-image file given only by URL (`input_audio` and `file` parts carry data).
 */
export function mediaPart(source: MediaSource): ChatContentPart | undefined {
  const { mediaType, data, url } = source;
  const kind = mediaType.split('/')[0]!.toLowerCase();
  if (kind === 'image') {
    if (url !== undefined) return imageUrl(url);
    if (data === undefined) return undefined;
    return imageUrl(`data:${imageMediaType(mediaType, data)};base64,${base64(data)}`);
  }
  if (data === undefined) return undefined;
  if (kind === 'audio') {
    return {
      type: 'input_audio',
      input_audio: { data: base64(data), format: audioFormat(mediaType, data) },
    };
  }
  const file: Record<string, string> = { file_data: `data:${mediaType};base64,${base64(data)}` };
  if (source.filename !== undefined) file.filename = source.filename;
  return { type: 'file', file };
}

function imageUrl(url: string): ChatContentPart {
  return { type: 'image_url', image_url: { url } };
}

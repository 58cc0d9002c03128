// docs/gateway-protocol.md §4.1 (content parts: passed through; the gateway and the model decide).
/**
 * Images, video, audio and other files as chat content parts, built once for every adapter: an
 * image is an `image_url` part (its URL, or a data URL; its `detail`), a video a `video_url` part
 * (as openai-compatible sends it), audio an `input_audio` part (base64 and its format), a UTF-8
 * text file a text part, any other file a `file` part (a data URL and its name, else a
 * placeholder; or the id of a file the server holds). Media given as a base64 data URL, in its
 * data or its URL, is read as its data, typed by the data URL unless the part names a full type. The
 * spec lists no capability for media: parts are sent, and the gateway (or the model behind it)
 * refuses what it cannot read.
 */
import { decodeBase64 } from '../encoding/base64-bytes';
import { readDataUrl } from '../encoding/data-url';
import { invalidRequest } from '../errors/errors';
import type { ChatContentPart } from '../protocol/wire-types';

/** An image's type when neither its media type nor its first bytes name one (as openai-compatible). */
export const DEFAULT_IMAGE_TYPE = 'image/jpeg';

/** Media as the frameworks hand it over. */
interface MediaSource {
  /**
   * Full (`image/png`) or only the top-level type (`image`, `image/*`), as the part names it;
   * left out when it names none. A data URL's own type is used unless this is a full one.
   */
  mediaType?: string;
  /**
   * The type of media whose part and data URL name none (a LangChain block's kind: `image`,
   * `text/plain`); else `application/octet-stream`.
   */
  untypedAs?: string;
  /**
   * The data as base64, or a base64 data URL (read as its data and type); adapters encode bytes
   * with their framework's own helper, which keeps an encoder out of core's chat path.
   */
  data?: string;
  /** Where the media is (http(s), or a data URL: read as data), instead of `data`. */
  url?: string;
  filename?: string;
  /** A file the model server already holds (OpenAI's `file_id`), when there is no data. */
  fileId?: string;
  /** An image's `detail` (`low`, `high`, `auto`), where OpenAI reads it: on `image_url`. */
  detail?: string;
  /** The media type's field as the framework names it (`mediaType`, `mimeType`), for a refusal. */
  typeField?: string;
}

/** The first 12 bytes of base64 as a binary string, or `''` when it is not base64 (no type read from it). */
function headOf(base64: string): string {
  try {
    return atob(base64.slice(0, 16));
  } catch {
    return ''; // the gateway judges the data
  }
}

/** Image types recognised by the start of their base64 (PNG, JPEG, GIF; WebP by its RIFF tag). */
function sniffImage(base64: string): string | undefined {
  if (base64.startsWith('iVBORw0KGgo')) return 'image/png';
  if (base64.startsWith('/9j/')) return 'image/jpeg';
  if (base64.startsWith('R0lGOD')) return 'image/gif';
  if (base64.startsWith('UklGR') && headOf(base64).slice(8) === 'WEBP') return 'image/webp';
  return undefined;
}

/**
 * Video types recognised by their first bytes (those openai-compatible sniffs): MP4 (an `ftyp`
 * box first; QuickTime when its brand is `qt  `), WebM (EBML's magic), AVI (`RIFF` … `AVI `).
 */
function sniffVideo(base64: string): string | undefined {
  if (base64.startsWith('GkXfo')) return 'video/webm';
  const head = headOf(base64);
  if (head.slice(4, 8) === 'ftyp')
    return head.slice(8, 10) === 'qt' ? 'video/quicktime' : 'video/mp4';
  if (head.startsWith('RIFF') && head.slice(8, 12) === 'AVI ') return 'video/x-msvideo';
  return undefined;
}

/**
 * The media type of a video given as data: as given when full, else by its first bytes; else it
 * is refused (a `data:video;base64,` URL names no type a server can read), naming the field.
 */
function videoMediaType(mediaType: string, typeField: string | undefined, base64: string): string {
  if (subtypeOf(mediaType)) return mediaType;
  const sniffed = sniffVideo(base64);
  if (sniffed) return sniffed;
  throw invalidRequest(
    typeField ?? 'mediaType',
    `"${mediaType}" names no video type and the data is not MP4, QuickTime, WebM or AVI: give the full type, e.g. "video/mp4"`,
  );
}

/** The subtype of a full media type (`audio/x-wav` → `x-wav`), or undefined for `image`, `image/*`. */
function subtypeOf(mediaType: string): string | undefined {
  const subtype = mediaType.split(';')[0]!.split('/')[1]?.trim();
  return subtype && subtype !== '*' ? subtype.toLowerCase() : undefined;
}

/** The media type of an image: as given when full, else by its first bytes, else `DEFAULT_IMAGE_TYPE`. */
function imageMediaType(mediaType: string, base64: string): string {
  if (subtypeOf(mediaType)) return mediaType;
  return sniffImage(base64) ?? DEFAULT_IMAGE_TYPE;
}

/**
 * `input_audio`'s format: from the media type (`audio/mpeg` → `mp3`, `audio/x-wav` → `wav`), else
 * `wav` (the bytes are not sniffed: it would pull the audio sniffer into every chat bundle).
 */
function audioFormat(mediaType: string): string {
  const subtype = subtypeOf(mediaType)?.replace(/^x-/, '');
  if (!subtype) return 'wav';
  return subtype === 'mpeg' ? 'mp3' : subtype;
}

/**
 * A part's media type: the type it names when full (`image/*` names none), else its data URL's,
 * else `untypedAs`. Naming the data URL's bare type keeps the data URL's parameters
 * (`text/plain` with `data:text/plain;charset=windows-1252,…`): the part names no other type.
 */
function partMediaType(
  named: string | undefined,
  inline: string | undefined,
  untypedAs: string | undefined,
): string {
  const full =
    named && subtypeOf(named) && named.toLowerCase() !== inline?.split(';')[0]?.toLowerCase();
  return (full ? named : inline) || named || untypedAs || 'application/octet-stream';
}

/**
 * The content part of an image, video, audio clip, text or other file, or undefined when it has
 * no wire form: audio given only by an http(s) URL (`input_audio` carries data), a file by neither data nor
 * id. Any media given only by a file id is a `file` part naming it (as openai-compatible sends it).
 * A video given as data with no type found (`typeField` names it) is refused: `invalid_request_error`.
 */
export function mediaPart(source: MediaSource): ChatContentPart | undefined {
  // A data URL, in `url` (else in `data`), is read as its base64, never prefixed twice: its own
  // type kept unless the part names a full one (`image/*` names none).
  const inUrl = readDataUrl(source.url ?? '');
  const inline = inUrl ?? readDataUrl(source.data ?? '');
  const mediaType = partMediaType(source.mediaType, inline?.mediaType, source.untypedAs);
  const data = inline ? inline.data : source.data;
  const url = inUrl ? undefined : source.url;
  const { fileId } = source;
  const kind = mediaType.split('/')[0]!.toLowerCase();
  if ((kind === 'image' || kind === 'video') && (url ?? data) !== undefined) {
    if (kind === 'video') {
      const link =
        url ?? `data:${videoMediaType(mediaType, source.typeField, data!)};base64,${data}`;
      return { type: 'video_url', video_url: { url: link } };
    }
    const link = url ?? `data:${imageMediaType(mediaType, data ?? '')};base64,${data}`;
    const detail = source.detail ? { detail: source.detail } : {};
    return { type: 'image_url', image_url: { url: link, ...detail } };
  }
  if (data === undefined) return fileId ? { type: 'file', file: { file_id: fileId } } : undefined;
  if (kind === 'audio') {
    return {
      type: 'input_audio',
      input_audio: { data, format: audioFormat(mediaType) },
    };
  }
  const text = kind === 'text' ? utf8Text(mediaType, data) : undefined;
  if (text !== undefined) return { type: 'text', text };
  const file = {
    file_data: `data:${mediaType};base64,${data}`,
    filename: source.filename || placeholderName(mediaType),
  };
  return { type: 'file', file };
}

/**
 * A text file's content when its bytes are UTF-8 (and no other charset is named), else undefined:
 * servers that take only text and image parts read it, as openai-compatible sends it. Its name is
 * left out (the model reads the text, not a header we would invent); other bytes stay a file.
 */
function utf8Text(mediaType: string, base64: string): string | undefined {
  if (/charset=(?!"?(utf-?8|us-ascii)\b)/i.test(mediaType)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(decodeBase64(base64));
  } catch {
    return undefined; // not base64, or not UTF-8
  }
}

/**
 * A name for a file given without one (OpenAI refuses an inline file without `filename`):
 * `file.<subtype>` when the subtype reads as an extension (`file.pdf`, `file.txt`), else `file`.
 */
function placeholderName(mediaType: string): string {
  const subtype = subtypeOf(mediaType)?.replace(/^x-/, '');
  if (subtype === 'plain') return 'file.txt';
  return subtype && /^[a-z0-9]{1,8}$/.test(subtype) ? `file.${subtype}` : 'file';
}

// docs/gateway-protocol.md §9 (transcription), §11 (its limits).
import { isString, mayBe } from '../call/field-checks';
import { refuseUnknownOptions } from '../call/option-groups';
import {
  AUDIO_MIME_TYPES,
  type AudioFormat,
  describeHead,
  detectAudioFormat,
  id3TagEnd,
} from '../encoding/audio-format';
import { type BinaryInput, toBinaryInput } from '../encoding/binary-input';
import { quoteValue } from '../encoding/json-body';
import { invalidRequest } from '../errors/errors';
import { LIMITS } from '../protocol/limits';
import type { TranscriptionRequest } from '../protocol/wire-types';

/** The fields of a `transcribe` request: any other key is refused, not dropped (it would not be sent). */
const TRANSCRIPTION_FIELDS: readonly (keyof TranscriptionRequest)[] = [
  'audio',
  'language',
  'translate',
  'response_format',
  'filename',
  'mime_type',
  'encoding',
  'model',
];

const RESPONSE_FORMATS: ReadonlySet<string> = new Set(['json', 'text']);
const ENCODINGS: ReadonlySet<string> = new Set(['multipart', 'json']);

export interface CheckedAudio {
  input: BinaryInput;
  format: AudioFormat;
  mimeType: string;
  filename: string;
}

/** docs/gateway-protocol.md §9, §11: WAV, MP3 or FLAC (by magic bytes), 1 byte .. 23 MiB; option values. */
export async function validateTranscriptionRequest(
  request: TranscriptionRequest,
): Promise<CheckedAudio> {
  if (typeof request !== 'object' || request === null)
    throw invalidRequest('request', 'must be an object');
  refuseUnknownOptions(request, TRANSCRIPTION_FIELDS, 'transcribe request', 'call option');
  if (request.audio === undefined || request.audio === null) {
    throw invalidRequest(
      'audio',
      'is required (Blob, File, Uint8Array, ArrayBuffer or base64 string)',
    );
  }
  // An optional field that is `null` is not given (not sent), as `model` is.
  if (request.response_format != null && !RESPONSE_FORMATS.has(request.response_format)) {
    throw invalidRequest(
      'response_format',
      `is ${quoteValue(request.response_format)}; allowed: "json", "text"`,
    );
  }
  if (request.encoding != null && !ENCODINGS.has(request.encoding)) {
    throw invalidRequest(
      'encoding',
      `is ${quoteValue(request.encoding)}; allowed: "multipart", "json"`,
    );
  }
  // (Sent as they are, in the body or as the file's name and type; `null`: not given.)
  for (const field of ['model', 'filename', 'mime_type'] as const) {
    if (request[field] !== null) mayBe(field, request[field], isString, 'a string');
  }
  if (request.translate != null && typeof request.translate !== 'boolean') {
    throw invalidRequest('translate', `must be a boolean, got ${typeof request.translate}`);
  }
  // A spoken language code, which the spec gives no pattern or length (unlike translation's): any
  // string but a blank one is sent as given. (The one rule: MCP's tool leaves it to this check.)
  const { language } = request;
  if (language != null && (typeof language !== 'string' || !language.trim())) {
    throw invalidRequest(
      'language',
      `is ${quoteValue(language)}; must be a non-blank language code`,
    );
  }
  const input = toBinaryInput('audio', request.audio);
  if (input.size < 1) throw invalidRequest('audio', 'is 0 bytes; the file must not be empty');
  if (input.size > LIMITS.audioMaxBytes) {
    throw invalidRequest(
      'audio',
      `is ${input.size} bytes; the limit is ${LIMITS.audioMaxBytes} bytes (23 MiB)`,
    );
  }
  const format = await audioFormat(input);
  return {
    input,
    format,
    mimeType: request.mime_type ?? input.type ?? AUDIO_MIME_TYPES[format],
    filename: request.filename ?? input.name ?? `audio.${format}`,
  };
}

/**
 * The format by the first bytes. Behind ID3 tags (MP3's, which taggers put in front of FLAC too,
 * and HLS tools in front of AAC; some stack two) the first frame tells: an MPEG audio frame is
 * MP3, `fLaC` FLAC, anything else is refused as it is without a tag. A file that ends inside a
 * tag's header or before 4 bytes after its tags stays MP3: nothing there to tell otherwise.
 */
async function audioFormat(input: BinaryInput): Promise<AudioFormat> {
  const head = await input.head(16);
  const format = detectAudioFormat(head);
  if (format === undefined) throw notWavMp3OrFlac(describeHead(head));
  if (!startsWithId3(head)) return format;
  const end = await id3TagsEnd(input);
  const audio = await input.slice(end, end + 10);
  const behind = detectAudioFormat(audio);
  // (Still a tag after MAX_ID3_TAGS, or a file cut inside one: MP3, as taggers write it.)
  if (behind === 'flac' || behind === 'mp3') return behind;
  if (audio.length < 4) return 'mp3';
  throw notWavMp3OrFlac(`${describeHead(head)}, an ID3 tag, then ${describeHead(audio)}`);
}

/** Taggers may stack tags; behind this many, what follows is not looked at (taken as MP3). */
const MAX_ID3_TAGS = 8;

/** Where the audio starts behind the ID3 tags in front of it. */
async function id3TagsEnd(input: BinaryInput): Promise<number> {
  let end = 0;
  for (let tags = 0; tags < MAX_ID3_TAGS; tags++) {
    const tag = await input.slice(end, end + 10);
    if (tag.length < 10 || !startsWithId3(tag)) break;
    end += id3TagEnd(tag);
  }
  return end;
}

function startsWithId3(bytes: Uint8Array): boolean {
  return bytes[0] === 0x49 && bytes[1] === 0x44 && bytes[2] === 0x33;
}

function notWavMp3OrFlac(firstBytes: string) {
  return invalidRequest(
    'audio',
    `is not WAV, MP3 or FLAC (first bytes: ${firstBytes}); the gateway accepts only these formats`,
  );
}

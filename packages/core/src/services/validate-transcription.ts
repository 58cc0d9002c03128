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
  if (request.response_format !== undefined && !RESPONSE_FORMATS.has(request.response_format)) {
    throw invalidRequest(
      'response_format',
      `is ${quoteValue(request.response_format)}; allowed: "json", "text"`,
    );
  }
  if (request.encoding !== undefined && !ENCODINGS.has(request.encoding)) {
    throw invalidRequest(
      'encoding',
      `is ${quoteValue(request.encoding)}; allowed: "multipart", "json"`,
    );
  }
  // (Sent as they are, in the body or as the file's name and type; `null`: not given.)
  for (const field of ['model', 'filename', 'mime_type'] as const) {
    if (request[field] !== null) mayBe(field, request[field], isString, 'a string');
  }
  if (request.translate !== undefined && typeof request.translate !== 'boolean') {
    throw invalidRequest('translate', `must be a boolean, got ${typeof request.translate}`);
  }
  if (
    request.language !== undefined &&
    (typeof request.language !== 'string' || request.language.trim() === '')
  ) {
    throw invalidRequest('language', 'must be a non-empty language code');
  }
  const input = toBinaryInput('audio', request.audio);
  if (input.size < 1) throw invalidRequest('audio', 'is 0 bytes; the file must not be empty');
  if (input.size > LIMITS.audioMaxBytes) {
    throw invalidRequest(
      'audio',
      `is ${input.size} bytes; the limit is ${LIMITS.audioMaxBytes} bytes (23 MiB)`,
    );
  }
  const head = await input.head(16);
  const format = await audioFormat(input, head);
  if (!format) {
    throw invalidRequest(
      'audio',
      `is not WAV, MP3 or FLAC (first bytes: ${describeHead(head)}); the gateway accepts only these formats`,
    );
  }
  return {
    input,
    format,
    mimeType: request.mime_type ?? input.type ?? AUDIO_MIME_TYPES[format],
    filename: request.filename ?? input.name ?? `audio.${format}`,
  };
}

/** The format by the first bytes; FLAC when `fLaC` follows an ID3 tag (else MP3, as before). */
async function audioFormat(input: BinaryInput, head: Uint8Array) {
  const format = detectAudioFormat(head);
  if (format !== 'mp3' || head[0] !== 0x49 /* the I of ID3 */) return format;
  const end = id3TagEnd(head);
  return detectAudioFormat((await input.head(end + 4)).subarray(end)) === 'flac' ? 'flac' : format;
}

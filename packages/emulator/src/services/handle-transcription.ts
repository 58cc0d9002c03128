// docs/gateway-protocol.md §9 (transcription).
import { isJsonObject } from '../chat/validate-chat-request';
import { invalidField, jsonResponse, shownValue } from '../gateway-error';
import { contentType, isJsonContent, type RequestContext, readJson } from '../request-context';
import { type AudioFormat, audioDuration, detectAudioFormat } from './audio-format';
import { checkBinarySize, decodeBase64Field, markerText } from './binary-input';
import { detectLanguage, occupyService } from './service-availability';

interface TranscriptionInput {
  audioField: 'file' | 'audio_base64';
  audio: Uint8Array;
  language?: string;
  responseFormat: 'json' | 'text';
  translate: boolean;
}

// The spec types each field (string, boolean): a JSON `null` is not an omission, and an empty
// `language` is no spoken language code. Omitted (a form field not sent: `null` from FormData)
// means detected / the default.

function responseFormat(value: unknown): 'json' | 'text' {
  if (value === undefined || value === 'json') return 'json';
  if (value === 'text') return 'text';
  throw invalidField(
    'response_format',
    `\`response_format\` must be 'json' or 'text', got ${shownValue(value)}`,
  );
}

function language(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') {
    throw invalidField(
      'language',
      `\`language\` must be a spoken language code (a non-empty string), got ${shownValue(value)}`,
    );
  }
  return value;
}

/** A multipart field: `FormData.get` gives `null` for one not sent (omitted), a `File` for a file. */
function formField(form: FormData, name: string): unknown {
  const value = form.get(name);
  return value === null ? undefined : value;
}

async function fromMultipart(ctx: RequestContext): Promise<TranscriptionInput> {
  let form: FormData;
  try {
    form = await new Response(ctx.bytes, {
      headers: { 'content-type': ctx.request.headers.get('content-type') ?? '' },
    }).formData();
  } catch {
    throw invalidField('body', 'The multipart/form-data body could not be parsed');
  }
  const file = form.get('file');
  if (file === null || typeof file === 'string') {
    throw invalidField('file', '`file` is required: the audio file (WAV, MP3 or FLAC)');
  }
  checkBinarySize('file', file.size);
  const translate = formField(form, 'translate');
  if (translate !== undefined && translate !== 'true' && translate !== 'false') {
    throw invalidField('translate', "`translate` must be the string 'true' or 'false'");
  }
  return {
    audioField: 'file',
    audio: new Uint8Array(await file.arrayBuffer()),
    language: language(formField(form, 'language')),
    responseFormat: responseFormat(formField(form, 'response_format')),
    translate: translate === 'true',
  };
}

function fromJson(ctx: RequestContext): TranscriptionInput {
  const body = readJson(ctx);
  if (!isJsonObject(body)) throw invalidField('body', 'The request body must be a JSON object');
  if (body.translate !== undefined && typeof body.translate !== 'boolean') {
    throw invalidField('translate', '`translate` must be a boolean');
  }
  for (const field of ['filename', 'mime_type'] as const) {
    if (body[field] !== undefined && typeof body[field] !== 'string') {
      throw invalidField(field, `\`${field}\` must be a string`);
    }
  }
  return {
    audioField: 'audio_base64',
    audio: decodeBase64Field('audio_base64', body.audio_base64),
    language: language(body.language),
    responseFormat: responseFormat(body.response_format),
    translate: body.translate === true,
  };
}

function describe(format: AudioFormat, duration: number): string {
  return `[${format.toUpperCase()} audio, ${duration} s]`;
}

/**
 * POST /audio/transcriptions (multipart or JSON). The text is what follows a `SPEECH:` marker in
 * the audio bytes, else a description (`[WAV audio, 1.5 s]`); `translate` prefixes `[en] `.
 */
export async function handleTranscription(ctx: RequestContext): Promise<Response> {
  const type = contentType(ctx.request);
  let input: TranscriptionInput;
  if (type === 'multipart/form-data') input = await fromMultipart(ctx);
  else if (isJsonContent(ctx.request)) input = fromJson(ctx);
  else {
    throw invalidField(
      'content-type',
      `Send multipart/form-data (field file) or application/json (field audio_base64); got '${type || 'none'}'`,
    );
  }
  const format = detectAudioFormat(input.audio);
  if (!format) {
    throw invalidField(input.audioField, `\`${input.audioField}\` is not WAV, MP3 or FLAC audio`);
  }
  occupyService(ctx, 'speech_to_text');
  const duration = audioDuration(format, input.audio);
  const spoken = markerText(input.audio, 'SPEECH:') ?? describe(format, duration);
  const detected = input.language ?? detectLanguage(spoken);
  const text =
    input.translate && detected.split('-')[0]!.toLowerCase() !== 'en' ? `[en] ${spoken}` : spoken;
  if (input.responseFormat === 'text') {
    return new Response(text, {
      status: 200,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    });
  }
  return jsonResponse({ text, language: detected, duration });
}

// docs/gateway-protocol.md §9 (multipart and JSON forms).
import { jsonBody } from '../encoding/json-body';
import type { TranscriptionRequest } from '../protocol/wire-types';
import type { CheckedAudio } from './validate-transcription';

/** The body of `POST /audio/transcriptions`: multipart by default, JSON with `audio_base64` on request. */
export async function buildTranscriptionBody(
  req: TranscriptionRequest,
  audio: CheckedAudio,
): Promise<string | FormData> {
  if (req.encoding === 'json') {
    return jsonBody({
      audio_base64: await audio.input.base64(),
      filename: audio.filename,
      mime_type: audio.mimeType,
      // (`null`: not given, not sent.)
      language: req.language ?? undefined,
      response_format: req.response_format ?? undefined,
      translate: req.translate ?? undefined,
      model: req.model ?? undefined,
    });
  }
  const form = new FormData();
  form.append('file', await audio.input.blob(audio.mimeType), audio.filename);
  if (req.language != null) form.append('language', req.language);
  if (req.response_format != null) form.append('response_format', req.response_format);
  if (req.translate != null) form.append('translate', req.translate ? 'true' : 'false');
  if (req.model != null) form.append('model', req.model);
  return form;
}

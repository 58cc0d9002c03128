// docs/gateway-protocol.md §9 (transcription).
import type { AudioLike, GatewayClient } from '@infergate/core';
import { BaseDocumentLoader } from '@langchain/core/document_loaders/base';
import { Document } from '@langchain/core/documents';
import { type ClientTuning, type GatewayConnectionFields, resolveClient } from '../utils/client';
import { withLangChainErrors } from '../utils/errors';
import { refuseUnknownFields } from '../utils/known-fields';
import { clientTuning, runnableCallOptions } from '../utils/runnable-call-options';

export interface GatewayAudioTranscriptLoaderFields extends GatewayConnectionFields, ClientTuning {
  /** The audio: a Blob/File, bytes, or base64. WAV, MP3 or FLAC, at most 23 MiB. */
  audio: AudioLike;
  /** Spoken language code; detected when omitted. */
  language?: string;
  /**
   * `true` transcribes the speech into English: the Document's `language` is then `en`, the
   * speech's `source_language`.
   */
  translate?: boolean;
  /** File name sent with the audio (a File's own name is used otherwise). */
  filename?: string;
  /** MIME type sent with the audio (detected from the bytes otherwise). */
  mimeType?: string;
  /** Metadata added to the document (e.g. `source`). */
  metadata?: Record<string, unknown>;
}

/**
 * Loads one Document with the transcript of an audio file (`POST /audio/transcriptions`).
 * Metadata: `language` (of the text: detected or given; `en` with `translate: true`, the speech's
 * then `source_language`, and `target_language: 'en'`), `duration` (seconds), `model` (the engine
 * that answered) and the engine's `segments` and `words` as the gateway sends them, plus your own.
 */
export class GatewayAudioTranscriptLoader extends BaseDocumentLoader {
  private readonly fields: GatewayAudioTranscriptLoaderFields;
  private readonly client: GatewayClient;
  /** `timeout` and `maxRetries`, handed to the call (`load()` takes no signal: the deadline is its bound). */
  private readonly tuning: ClientTuning;

  constructor(fields: GatewayAudioTranscriptLoaderFields) {
    super();
    refuseUnknownFields(
      fields,
      {
        audio: true,
        language: true,
        translate: true,
        filename: true,
        mimeType: true,
        metadata: true,
      },
      'new GatewayAudioTranscriptLoader',
    );
    // Only the request fields are kept: the connection fields (API key) stay inside the client.
    const { audio, language, translate, filename, mimeType, metadata } = fields;
    this.fields = { audio, language, translate, filename, mimeType, metadata };
    this.client = resolveClient(fields, 'new GatewayAudioTranscriptLoader');
    this.tuning = clientTuning(fields);
  }

  async load(): Promise<Document[]> {
    const { audio, language, translate, filename, mimeType, metadata } = this.fields;
    const result = await withLangChainErrors(() =>
      this.client.transcribe(
        {
          audio,
          language,
          translate,
          filename,
          mime_type: mimeType,
          response_format: 'json',
        },
        runnableCallOptions(undefined, this.tuning),
      ),
    );
    const name = filename ?? (audio as { name?: unknown }).name;
    // The speech's language, as the gateway detected it or as given.
    const spoken = result.language ?? (language || undefined);
    return [
      new Document({
        pageContent: result.text,
        metadata: {
          ...(typeof name === 'string' ? { source: name } : {}),
          // `language` is the language of the text: translated, English. The speech's is then
          // `source_language`, as GatewayTranslator labels its Documents.
          ...(translate === true
            ? {
                language: 'en',
                ...(spoken !== undefined ? { source_language: spoken } : {}),
                target_language: 'en',
              }
            : spoken !== undefined
              ? { language: spoken }
              : {}),
          ...(result.duration !== undefined ? { duration: result.duration } : {}),
          ...(typeof result.model === 'string' ? { model: result.model } : {}),
          // An engine's timings (extra answer fields, §9) are passed on as sent: not reshaped.
          ...(result.segments !== undefined ? { segments: result.segments } : {}),
          ...(result.words !== undefined ? { words: result.words } : {}),
          ...metadata,
        },
      }),
    ];
  }
}

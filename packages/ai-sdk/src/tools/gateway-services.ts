import type { AudioLike } from '@infergate/core';
import { ENDPOINTS } from '@infergate/core/internal';
import {
  definedHeaders,
  endpointURL,
  type GatewayModelConfig,
} from '../shared/gateway-model-config';
import { mapGatewayError } from '../shared/map-gateway-error';

/** Options of every service helper call. */
export interface GatewayServiceCallOptions {
  abortSignal?: AbortSignal;
  headers?: Record<string, string | undefined>;
}

export interface GatewayTranslateInput {
  /** 1 character to 4096 bytes (UTF-8). */
  text: string;
  /** Language code such as `de` or `pt-BR`. */
  targetLanguage: string;
  /** Detected when omitted. */
  sourceLanguage?: string;
}

export interface GatewayTranslateResult {
  text: string;
  /** The given source language, or the detected one. */
  sourceLanguage?: string;
  targetLanguage: string;
}

/** Bytes, a Blob, or base64 (a `data:...;base64,` URL is accepted). */
export type GatewayBinaryInput = AudioLike;

export interface GatewayOcrInput {
  /** The image (photo, scan, screenshot), decoded 1 byte to 23 MiB. Ukrainian and English text. */
  image: GatewayBinaryInput;
}

export interface GatewayOcrResult {
  text: string;
  /** 0 to 1, when the engine reports it. */
  confidence?: number;
  model?: string;
}

export interface GatewayTranscribeInput {
  /** WAV, MP3 or FLAC, at most 23 MiB. */
  audio: GatewayBinaryInput;
  /** The audio's media type; detected from the bytes when omitted. */
  mediaType?: string;
  /** Spoken language code; detected when omitted. */
  language?: string;
  /** `true` returns the speech translated into English. */
  translate?: boolean;
}

export interface GatewayTranscribeResult {
  text: string;
  language?: string;
  durationInSeconds?: number;
}

export interface GatewayServices {
  /** Translates text (`POST /translations`). */
  translate(
    input: GatewayTranslateInput,
    options?: GatewayServiceCallOptions,
  ): Promise<GatewayTranslateResult>;
  /** Reads the text in an image (`POST /ocr`). */
  ocr(input: GatewayOcrInput, options?: GatewayServiceCallOptions): Promise<GatewayOcrResult>;
  /** Speech to text (`POST /audio/transcriptions`). */
  transcribe(
    input: GatewayTranscribeInput,
    options?: GatewayServiceCallOptions,
  ): Promise<GatewayTranscribeResult>;
}

/** The gateway's services as typed helpers; core validates every limit before the network. */
export function createGatewayServices(config: GatewayModelConfig): GatewayServices {
  async function call<T>(path: string, body: unknown, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw mapGatewayError(error, {
        url: endpointURL(config, path),
        requestBodyValues: body,
        maxRetryAfterMs: config.maxRetryAfterMs,
      });
    }
  }

  return {
    async translate(input, options = {}) {
      const request = {
        input: input.text,
        target_language: input.targetLanguage,
        source_language: input.sourceLanguage,
      };
      const response = await call(ENDPOINTS.translation, request, () =>
        config.client().translate(request, callOptions(options)),
      );
      return {
        text: response.text,
        ...(response.source_language !== undefined
          ? { sourceLanguage: response.source_language }
          : {}),
        targetLanguage: response.target_language,
      };
    },

    async ocr(input, options = {}) {
      const response = await call(ENDPOINTS.ocr, { image_base64: '<image>' }, () =>
        config.client().ocr({ image: input.image }, callOptions(options)),
      );
      return {
        text: response.text,
        ...(typeof response.confidence === 'number' ? { confidence: response.confidence } : {}),
        ...(typeof response.model === 'string' ? { model: response.model } : {}),
      };
    },

    async transcribe(input, options = {}) {
      const request = {
        audio: input.audio,
        response_format: 'json' as const,
        mime_type: input.mediaType,
        language: input.language,
        translate: input.translate,
      };
      const response = await call(ENDPOINTS.transcription, { ...request, audio: '<audio>' }, () =>
        config.client().transcribe(request, callOptions(options)),
      );
      return {
        text: response.text,
        ...(typeof response.language === 'string' ? { language: response.language } : {}),
        ...(typeof response.duration === 'number' ? { durationInSeconds: response.duration } : {}),
      };
    },
  };
}

function callOptions(options: GatewayServiceCallOptions) {
  return { signal: options.abortSignal, headers: definedHeaders(options.headers) };
}

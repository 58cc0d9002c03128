// docs/gateway-protocol.md §7 (translation), §8 (OCR), §9 (transcription).
import type { AudioLike } from '@infergate/core';

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

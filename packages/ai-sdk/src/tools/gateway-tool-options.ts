// docs/gateway-protocol.md §7, §8, §9 (the services the tools call).
import type {
  OcrToolArguments,
  TranscribeToolArguments,
  TranslateToolArguments,
} from '@infergate/core/internal';
import type { GatewayBinaryInput } from './gateway-service-types';

/** The model's arguments of the `translate` tool (snake_case, as the gateway's fields). */
export type TranslateToolInput = TranslateToolArguments;

export interface TranslateToolOptions {
  /** Always translate into this language; the model then only supplies the text. */
  targetLanguage?: string;
  /** Replaces the tool description the model sees. */
  description?: string;
}

export type OcrToolInput = OcrToolArguments;

export interface OcrToolOptions {
  /**
   * Turns what the model passes (a file name, URL or id from the conversation) into the image.
   * Without it the model must pass base64 image data, which models rarely can.
   */
  resolveImage?: (
    image: string,
    options: { abortSignal?: AbortSignal },
  ) => Promise<GatewayBinaryInput>;
  description?: string;
}

export type TranscribeToolInput = TranscribeToolArguments;

export interface TranscribeToolOptions {
  /** Turns what the model passes (a file name, URL or id) into the audio. Without it: base64. */
  resolveAudio?: (
    audio: string,
    options: { abortSignal?: AbortSignal },
  ) => Promise<GatewayBinaryInput>;
  description?: string;
}

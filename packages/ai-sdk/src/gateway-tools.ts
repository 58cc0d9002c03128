import { type Tool, tool } from '@ai-sdk/provider-utils';
import { LANGUAGE_CODE, LIMITS } from '@infergate/core';
import { utf8ByteLength } from '@infergate/core/internal';
import { z } from 'zod/v4';
import type {
  GatewayBinaryInput,
  GatewayOcrResult,
  GatewayServices,
  GatewayTranscribeResult,
  GatewayTranslateResult,
} from './gateway-services';

/** docs/gateway-protocol.md §7: translation input is at most 4096 bytes of UTF-8 (core checks it again). */
const MAX_TRANSLATION_BYTES = LIMITS.translationMaxInputBytes;

const languageCode = z
  .string()
  .regex(LANGUAGE_CODE, 'a language code such as "de", "uk" or "pt-BR"')
  .describe('Language code, e.g. "de", "uk" or "pt-BR"');

export interface TranslateToolInput {
  text: string;
  targetLanguage?: string;
  sourceLanguage?: string;
}

export interface TranslateToolOptions {
  /** Always translate into this language; the model then only supplies the text. */
  targetLanguage?: string;
  /** Replaces the tool description the model sees. */
  description?: string;
}

export interface OcrToolInput {
  image: string;
}

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

export interface TranscribeToolInput {
  audio: string;
  language?: string;
  translate?: boolean;
}

export interface TranscribeToolOptions {
  /** Turns what the model passes (a file name, URL or id) into the audio. Without it: base64. */
  resolveAudio?: (
    audio: string,
    options: { abortSignal?: AbortSignal },
  ) => Promise<GatewayBinaryInput>;
  description?: string;
}

export interface GatewayTools {
  /** A tool that translates text with the gateway's translation service. */
  translate(options?: TranslateToolOptions): Tool<TranslateToolInput, GatewayTranslateResult>;
  /** A tool that reads the text in an image with the gateway's OCR service. */
  ocr(options?: OcrToolOptions): Tool<OcrToolInput, GatewayOcrResult>;
  /** A tool that transcribes speech with the gateway's speech-to-text service. */
  transcribe(options?: TranscribeToolOptions): Tool<TranscribeToolInput, GatewayTranscribeResult>;
}

/** The gateway's services as AI SDK tools, for agents (`generateText` with `stopWhen`). */
export function createGatewayTools(services: GatewayServices): GatewayTools {
  return {
    translate(options = {}) {
      const text = z
        .string()
        .min(1)
        .refine((value) => utf8ByteLength(value) <= MAX_TRANSLATION_BYTES, {
          message: `text must be at most ${MAX_TRANSLATION_BYTES} bytes of UTF-8`,
        })
        .describe(`The text to translate (at most ${MAX_TRANSLATION_BYTES} bytes of UTF-8)`);
      const fixedTarget = options.targetLanguage;
      const inputSchema =
        fixedTarget === undefined
          ? z.object({
              text,
              targetLanguage: languageCode.describe(
                'Language to translate into, e.g. "de" or "pt-BR"',
              ),
              sourceLanguage: languageCode
                .optional()
                .describe('Language of the text; detected when omitted'),
            })
          : z.object({
              text,
              sourceLanguage: languageCode
                .optional()
                .describe('Language of the text; detected when omitted'),
            });

      return tool({
        description:
          options.description ??
          (fixedTarget === undefined
            ? 'Translate text into another language (about 60 languages).'
            : `Translate text into the language "${fixedTarget}".`),
        inputSchema: inputSchema as z.ZodType<TranslateToolInput>,
        execute: (input, { abortSignal }) =>
          services.translate(
            {
              text: input.text,
              targetLanguage: fixedTarget ?? (input.targetLanguage as string),
              ...(input.sourceLanguage !== undefined
                ? { sourceLanguage: input.sourceLanguage }
                : {}),
            },
            { abortSignal },
          ),
      });
    },

    ocr(options = {}) {
      const { resolveImage } = options;
      return tool({
        description:
          options.description ??
          'Read the text (Ukrainian or English) in a photo, scan or screenshot.',
        inputSchema: z.object({
          image: z
            .string()
            .min(1)
            .describe(
              resolveImage === undefined
                ? 'The image as base64 data'
                : 'The image: its name, URL or id as given in the conversation',
            ),
        }),
        execute: async (input, { abortSignal }) => {
          const image =
            resolveImage === undefined
              ? input.image
              : await resolveImage(input.image, { abortSignal });
          return services.ocr({ image }, { abortSignal });
        },
      });
    },

    transcribe(options = {}) {
      const { resolveAudio } = options;
      return tool({
        description:
          options.description ?? 'Transcribe speech (WAV, MP3 or FLAC; 99 languages) to text.',
        inputSchema: z.object({
          audio: z
            .string()
            .min(1)
            .describe(
              resolveAudio === undefined
                ? 'The audio as base64 data'
                : 'The audio: its name, URL or id as given in the conversation',
            ),
          language: languageCode.optional().describe('Spoken language code; detected when omitted'),
          translate: z
            .boolean()
            .optional()
            .describe('true to get the speech translated into English'),
        }),
        execute: async (input, { abortSignal }) => {
          const audio =
            resolveAudio === undefined
              ? input.audio
              : await resolveAudio(input.audio, { abortSignal });
          return services.transcribe(
            {
              audio,
              ...(input.language !== undefined ? { language: input.language } : {}),
              ...(input.translate !== undefined ? { translate: input.translate } : {}),
            },
            { abortSignal },
          );
        },
      });
    },
  };
}

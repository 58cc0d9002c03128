import type { AudioLike, ServiceId } from '@infergate/core';
import { utf8ByteLength } from '@infergate/core/internal';
import { type ToolRunnableConfig, tool } from '@langchain/core/tools';
import { z } from 'zod/v4';
import { type ClientTuning, type GatewayConnectionFields, resolveClient } from '../utils/client';
import { LANGUAGE_CODE, MEDIA_MAX_BASE64_CHARS, TRANSLATION_MAX_BYTES } from './service-limits';

/**
 * Turns what a model passes for an image or audio file into bytes. Models cannot carry large
 * files in a tool call, so apps usually pass a reference (a file id, a URL) and resolve it here.
 * Without a resolver the tool input is read as base64.
 */
export type MediaResolver = (reference: string) => Promise<AudioLike> | AudioLike;

export interface GatewayToolOptions extends GatewayConnectionFields, ClientTuning {
  /** Resolves `image` / `audio` tool arguments to bytes (default: they are base64). */
  resolveMedia?: MediaResolver;
}

function mediaDescription(kind: string, options: GatewayToolOptions): string {
  return options.resolveMedia
    ? `Reference to the ${kind} (an id or URL the application knows)`
    : `The ${kind} file as base64 (decoded at most 23 MiB)`;
}

function mediaSchema(kind: string, options: GatewayToolOptions) {
  const base = z.string().min(1).describe(mediaDescription(kind, options));
  return options.resolveMedia ? base : base.max(MEDIA_MAX_BASE64_CHARS);
}

async function resolveMedia(value: string, options: GatewayToolOptions): Promise<AudioLike> {
  return options.resolveMedia ? options.resolveMedia(value) : value;
}

/**
 * The tool call's signal (the caller's `signal` and LangChain's `timeout`, which LangChain folds
 * into it) handed to core: an aborted call then frees its concurrency slot at once instead of
 * holding it until the gateway answers.
 */
function callOptions(config: ToolRunnableConfig | undefined): { signal?: AbortSignal } {
  return config?.signal ? { signal: config.signal } : {};
}

const languageCode = z
  .string()
  .regex(LANGUAGE_CODE, 'must be a language code such as "en", "uk" or "pt-BR"');

/** `translate`: text → text in another language (about 60 languages, ≤ 4096 bytes per call). */
export function createTranslateTool(options: GatewayToolOptions = {}) {
  const gateway = resolveClient(options);
  return tool(
    async ({ text, target_language, source_language }, config) => {
      const result = await gateway.translate(
        {
          input: text,
          target_language,
          ...(source_language ? { source_language } : {}),
        },
        callOptions(config),
      );
      return result.text;
    },
    {
      name: 'translate',
      description:
        'Translate text into another language (about 60 languages). Input up to 4096 bytes of UTF-8; ' +
        'split longer text. Returns only the translated text.',
      schema: z.object({
        text: z
          .string()
          .min(1)
          .refine((value) => utf8ByteLength(value) <= TRANSLATION_MAX_BYTES, {
            message: `text must be at most ${TRANSLATION_MAX_BYTES} bytes of UTF-8`,
          })
          .describe('The text to translate, at most 4096 bytes of UTF-8'),
        target_language: languageCode.describe('Language to translate into, e.g. "en", "uk", "de"'),
        source_language: languageCode
          .optional()
          .describe('Language of the text; detected when omitted'),
      }),
    },
  );
}

/** `ocr`: image → the text in it (Ukrainian and English; photo, scan or screenshot). */
export function createOcrTool(options: GatewayToolOptions = {}) {
  const gateway = resolveClient(options);
  return tool(
    async ({ image }, config) => {
      const result = await gateway.ocr(
        { image: await resolveMedia(image, options) },
        callOptions(config),
      );
      return result.text;
    },
    {
      name: 'ocr',
      description:
        'Read the text in an image (photo, scan or screenshot; Ukrainian and English). ' +
        'Returns the recognised text.',
      schema: z.object({ image: mediaSchema('image', options) }),
    },
  );
}

/** `transcribe`: speech (WAV, MP3, FLAC) → text, 99 languages, optionally translated to English. */
export function createTranscribeTool(options: GatewayToolOptions = {}) {
  const gateway = resolveClient(options);
  return tool(
    async ({ audio, language, translate }, config) => {
      const result = await gateway.transcribe(
        {
          audio: await resolveMedia(audio, options),
          ...(language ? { language } : {}),
          ...(translate !== undefined ? { translate } : {}),
        },
        callOptions(config),
      );
      return result.text;
    },
    {
      name: 'transcribe',
      description:
        'Transcribe speech from an audio file (WAV, MP3 or FLAC, at most 23 MiB; 99 languages). ' +
        'Set translate to true to get the speech in English. Returns the transcript.',
      schema: z.object({
        audio: mediaSchema('audio', options),
        language: languageCode.optional().describe('Spoken language; detected when omitted'),
        translate: z
          .boolean()
          .optional()
          .describe('true returns the speech translated into English'),
      }),
    },
  );
}

export type GatewayTool =
  | ReturnType<typeof createTranslateTool>
  | ReturnType<typeof createOcrTool>
  | ReturnType<typeof createTranscribeTool>;

const SERVICE_TOOLS: [
  ServiceId,
  typeof createTranslateTool | typeof createOcrTool | typeof createTranscribeTool,
][] = [
  ['translation', createTranslateTool],
  ['ocr', createOcrTool],
  ['speech_to_text', createTranscribeTool],
];

/**
 * The service tools whose service is available now (`GET /capabilities`, `available_nodes` ≥ 1),
 * sharing one client: `translate`, `ocr`, `transcribe`.
 */
export async function createGatewayTools(
  options: GatewayToolOptions & { include?: ('translate' | 'ocr' | 'transcribe')[] } = {},
): Promise<GatewayTool[]> {
  const client = resolveClient(options);
  const services = await client.services();
  const available = new Set(
    services.filter((service) => service.available_nodes > 0).map((service) => service.id),
  );
  const tools: GatewayTool[] = [];
  for (const [service, create] of SERVICE_TOOLS) {
    if (!available.has(service)) continue;
    const made = create({ ...options, client });
    if (options.include && !options.include.includes(made.name as 'translate')) continue;
    tools.push(made);
  }
  return tools;
}

// docs/gateway-protocol.md §7 (translation), §8 (OCR), §9 (transcription): the services as tools.
import { quoteValue } from '../encoding/json-body';
import { invalidRequest } from '../errors/errors';
import { SERVICE_OF_TOOL, type ServiceToolName } from '../protocol/endpoints';
import { LANGUAGE_CODE, LIMITS } from '../protocol/limits';
import type { ServiceId, TranslationRequest } from '../protocol/wire-types';

/**
 * The gateway's services as tools a model can call, defined once for every framework: name,
 * description, JSON-schema parameters (snake_case, as the gateway's own fields) and the mapping of
 * the model's arguments to core's request. The adapters only wrap these in their framework's tool
 * type and run the request through their client.
 */
export type { ServiceToolName };

/** Arguments of the `translate` tool, as the model sends them. */
export interface TranslateToolArguments {
  text: string;
  /** Absent when the tool was made with a fixed target language. */
  target_language?: string;
  source_language?: string;
}

/** Arguments of the `ocr` tool: base64 data, or a reference the application resolves. */
export interface OcrToolArguments {
  image: string;
}

/** Arguments of the `transcribe` tool: base64 data, or a reference the application resolves. */
export interface TranscribeToolArguments {
  audio: string;
  language?: string;
  translate?: boolean;
}

export interface ServiceToolOptions {
  /** The application resolves `image` / `audio` references: the model passes a name, URL or id. */
  resolvesMedia?: boolean;
  /** `translate` only: always translate into this language; the model supplies only the text. */
  targetLanguage?: string;
  /** Replaces the description the model sees. */
  description?: string;
}

/** A JSON schema of an object (what both frameworks accept as a tool's parameters). */
export interface ToolParametersSchema {
  type: 'object';
  properties: Record<string, Record<string, unknown>>;
  required: string[];
  additionalProperties: false;
}

export interface ServiceToolDefinition {
  name: ServiceToolName;
  /** The gateway service it calls (`GET /capabilities` id). */
  service: ServiceId;
  description: string;
  parameters: ToolParametersSchema;
}

function languageCode(description: string): Record<string, unknown> {
  return { type: 'string', pattern: LANGUAGE_CODE.source, description };
}

function media(kind: 'image' | 'audio', resolves: boolean | undefined): Record<string, unknown> {
  return resolves
    ? {
        type: 'string',
        minLength: 1,
        description: `The ${kind}: its name, URL or id as given in the conversation`,
      }
    : // No maxLength: the limit is on the decoded bytes, after a `data:` prefix and line breaks
      // are removed (core's check, naming the size and the limit); the text's length is no bound.
      {
        type: 'string',
        minLength: 1,
        description: `The ${kind} file as base64 data (decoded at most 23 MiB)`,
      };
}

function objectSchema(
  properties: Record<string, Record<string, unknown>>,
  required: string[],
): ToolParametersSchema {
  return { type: 'object', properties, required, additionalProperties: false };
}

/** The definition of one service tool, for the given options. */
export function serviceToolDefinition(
  name: ServiceToolName,
  options: ServiceToolOptions = {},
): ServiceToolDefinition {
  const service = SERVICE_OF_TOOL[name];
  switch (name) {
    case 'translate':
      return translateTool(options);
    case 'ocr':
      return {
        name,
        service,
        description:
          options.description ??
          'Read the text in an image (photo, scan or screenshot; Ukrainian and English). Returns the recognised text.',
        parameters: objectSchema({ image: media('image', options.resolvesMedia) }, ['image']),
      };
    case 'transcribe':
      return {
        name,
        service,
        description:
          options.description ??
          'Transcribe speech from an audio file (WAV, MP3 or FLAC, at most 23 MiB; 99 languages). Set translate to true to get the speech in English. Returns the transcript.',
        parameters: objectSchema(
          {
            audio: media('audio', options.resolvesMedia),
            // No pattern: the spec asks only for a spoken language code here.
            language: {
              type: 'string',
              minLength: 1,
              description: 'Spoken language code, e.g. "en" or "uk"; detected when omitted',
            },
            translate: {
              type: 'boolean',
              description: 'true returns the speech translated into English',
            },
          },
          ['audio'],
        ),
      };
  }
}

/**
 * The translate tool's definition: the target language a parameter unless fixed by `options`. A
 * fixed one that is no language code is refused here, as the tool is made (`targetLanguage`), not
 * by every call it would fail.
 */
function translateTool(options: ServiceToolOptions): ServiceToolDefinition {
  const fixed = options.targetLanguage;
  if (fixed !== undefined && !LANGUAGE_CODE.test(fixed)) {
    const value = JSON.stringify(String(fixed));
    throw invalidRequest(
      'targetLanguage',
      `${value} is not a language code such as "de" or "pt-BR"`,
    );
  }
  const bytes = LIMITS.translationMaxInputBytes;
  const properties: Record<string, Record<string, unknown>> = {
    text: {
      type: 'string',
      minLength: 1,
      description: `The text to translate (at most ${bytes} bytes of UTF-8; split longer text)`,
    },
  };
  if (fixed === undefined) {
    properties.target_language = languageCode('Language to translate into, e.g. "de" or "pt-BR"');
  }
  properties.source_language = languageCode('Language of the text; detected when omitted');
  return {
    name: 'translate',
    service: SERVICE_OF_TOOL.translate,
    description:
      options.description ??
      (fixed === undefined
        ? 'Translate text into another language (about 60 languages). Returns the translated text.'
        : `Translate text into the language "${fixed}". Returns the translated text.`),
    parameters: objectSchema(
      properties,
      fixed === undefined ? ['text', 'target_language'] : ['text'],
    ),
  };
}

function checkLanguageCode(field: string, value: unknown): void {
  if (value === undefined) {
    throw invalidRequest(field, 'is required: a language code such as "de", "uk" or "pt-BR"');
  }
  if (typeof value !== 'string' || !LANGUAGE_CODE.test(value)) {
    throw invalidRequest(
      field,
      `${quoteValue(value)} is not a language code matching ${LANGUAGE_CODE.source} (e.g. "en", "uk", "pt-BR")`,
    );
  }
}

/**
 * docs/gateway-protocol.md §7: the language codes of a translation request (target required,
 * source optional), as every translation call checks them (validate-translation.ts). Here, with
 * the tools' definitions, for a caller that fixes the languages as it is made (LangChain's
 * `GatewayTranslator`): this module loads at start, the request's other checks on the first call.
 */
export function validateTranslationLanguages(
  request: Pick<TranslationRequest, 'target_language' | 'source_language'>,
): void {
  checkLanguageCode('target_language', request.target_language);
  // `null`: not given, as `model` (left out of the body).
  if (request.source_language != null) {
    checkLanguageCode('source_language', request.source_language);
  }
}

// docs/gateway-protocol.md §7 (translation), §8 (OCR), §9 (transcription): the services as tools.
import { utf8ByteLength } from '../encoding/utf8';
import { SERVICE_OF_TOOL, type ServiceToolName } from '../protocol/endpoints';
import { LANGUAGE_CODE, LIMITS } from '../protocol/limits';
import type {
  AudioLike,
  OcrRequest,
  ServiceId,
  TranscriptionRequest,
  TranslationRequest,
} from '../protocol/wire-types';

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

interface ServiceToolArguments {
  translate: TranslateToolArguments;
  ocr: OcrToolArguments;
  transcribe: TranscribeToolArguments;
}

interface ServiceToolRequests {
  translate: TranslationRequest;
  ocr: OcrRequest;
  transcribe: TranscriptionRequest & { response_format: 'json' };
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

interface ServiceToolDefinition {
  name: ServiceToolName;
  /** The gateway service it calls (`GET /capabilities` id). */
  service: ServiceId;
  description: string;
  parameters: ToolParametersSchema;
}

/** Longest base64 text whose decoded size can be 23 MiB. */
const MEDIA_MAX_BASE64_CHARS = Math.ceil(LIMITS.ocrMaxImageBytes / 3) * 4;

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
    : {
        type: 'string',
        minLength: 1,
        maxLength: MEDIA_MAX_BASE64_CHARS,
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
    case 'translate': {
      const fixed = options.targetLanguage;
      const bytes = LIMITS.translationMaxInputBytes;
      const properties: Record<string, Record<string, unknown>> = {
        text: {
          type: 'string',
          minLength: 1,
          description: `The text to translate (at most ${bytes} bytes of UTF-8; split longer text)`,
        },
      };
      if (fixed === undefined) {
        properties.target_language = languageCode(
          'Language to translate into, e.g. "de" or "pt-BR"',
        );
      }
      properties.source_language = languageCode('Language of the text; detected when omitted');
      return {
        name,
        service,
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
 * The model's arguments as core's request (`media`: the resolved image or audio, when the
 * application resolves references). Core's own checks run when the request is sent.
 */
export function serviceToolRequest<Name extends ServiceToolName>(
  name: Name,
  args: ServiceToolArguments[Name],
  options: { targetLanguage?: string; media?: AudioLike } = {},
): ServiceToolRequests[Name] {
  switch (name) {
    case 'translate': {
      const input = args as TranslateToolArguments;
      const request: TranslationRequest = {
        input: input.text,
        target_language: options.targetLanguage ?? input.target_language ?? '',
      };
      if (input.source_language !== undefined) request.source_language = input.source_language;
      return request as ServiceToolRequests[Name];
    }
    case 'ocr':
      return {
        image: options.media ?? (args as OcrToolArguments).image,
      } as ServiceToolRequests[Name];
    default: {
      const input = args as TranscribeToolArguments;
      const request: TranscriptionRequest & { response_format: 'json' } = {
        audio: options.media ?? input.audio,
        response_format: 'json',
      };
      if (input.language !== undefined) request.language = input.language;
      if (input.translate !== undefined) request.translate = input.translate;
      return request as ServiceToolRequests[Name];
    }
  }
}

/** What an empty value of a field should have been. */
const EMPTY_RULE: Record<string, string> = {
  image: 'at least 1 byte of image data is required',
  audio: 'at least 1 byte of audio is required',
  language: 'a language code such as "en" or "uk" is required',
  target_language: 'a language code such as "de" or "pt-BR" is required',
  source_language: 'a language code such as "en" is required (or leave it out)',
};

/**
 * What is wrong with a model's arguments for a service tool, or undefined when they are usable:
 * the schema's rules plus the byte limit of `text` a JSON schema cannot state. For frameworks that
 * check a tool's input before running it (the AI SDK sends the problem back to the model).
 */
export function serviceToolArgumentsProblem(
  name: ServiceToolName,
  args: unknown,
  options: Pick<ServiceToolOptions, 'targetLanguage'> = {},
): string | undefined {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return 'the arguments must be an object';
  }
  const values = args as Record<string, unknown>;
  const { properties, required } = serviceToolDefinition(name, options).parameters;
  for (const key of Object.keys(values)) {
    if (!(key in properties)) return `unknown argument "${key}"`;
  }
  for (const key of required) {
    if (values[key] === undefined) return `"${key}" is required`;
  }
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const expected = properties[key]?.type;
    if (typeof value !== expected) return `"${key}" must be a ${String(expected)}`;
    if (typeof value !== 'string') continue;
    if (value === '')
      return `"${key}" is empty; ${EMPTY_RULE[key] ?? 'at least 1 character is required'}`;
    const maxLength = properties[key]?.maxLength;
    if (typeof maxLength === 'number' && value.length > maxLength) {
      return `"${key}" is ${value.length} characters; at most ${maxLength} are allowed`;
    }
    if (properties[key]?.pattern !== undefined && !LANGUAGE_CODE.test(value)) {
      return `"${key}" is ${JSON.stringify(value.slice(0, 40))}, not a language code such as "de", "uk" or "pt-BR"`;
    }
  }
  if (name === 'translate' && typeof values.text === 'string') {
    const bytes = utf8ByteLength(values.text);
    if (bytes > LIMITS.translationMaxInputBytes) {
      return `"text" is ${bytes} bytes of UTF-8; the limit is ${LIMITS.translationMaxInputBytes} bytes (split it)`;
    }
  }
  return undefined;
}

// docs/gateway-protocol.md §7 (translation), §8 (OCR), §9 (transcription): a service tool's
// arguments checked and mapped to the service's request.
import { utf8ByteLength } from '../encoding/utf8';
import { isGatewayError } from '../errors/errors';
import { LANGUAGE_CODE, LIMITS } from '../protocol/limits';
import type {
  AudioLike,
  OcrRequest,
  TranscriptionRequest,
  TranslationRequest,
} from '../protocol/wire-types';
import { withCallerFieldNames } from './caller-field-names';
import {
  type OcrToolArguments,
  type ServiceToolName,
  type ServiceToolOptions,
  serviceToolDefinition,
  type TranscribeToolArguments,
  type TranslateToolArguments,
} from './service-tools';
import { validateOcrRequest } from './validate-ocr';
import { validateTranscriptionRequest } from './validate-transcription';
import { validateTranslationRequest } from './validate-translation';

/**
 * What a service tool does with the model's arguments when it runs (service-tools.ts defines the
 * tool). Apart from the definitions, in `@infergate/core/internal/service-tools`: an adapter makes
 * its tools at start, and runs them (loading this) only when a model calls one.
 */

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
  options: Pick<ServiceToolOptions, 'targetLanguage' | 'resolvesMedia'> = {},
): string | undefined {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return 'the arguments must be an object';
  }
  const values = args as Record<string, unknown>;
  const { properties, required } = serviceToolDefinition(name, options).parameters;
  for (const key of Object.keys(values)) {
    // Own keys only: a model's `toString` or `constructor` is as unknown as any other.
    if (!Object.hasOwn(properties, key)) return `unknown argument "${key}"`;
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

/** The tool's argument each translation request field comes from (the others keep their names). */
const TOOL_ARGUMENT_OF_FIELD: Readonly<Record<string, string>> = { input: 'text' };

/**
 * What is wrong with a service tool call before anything is sent, or undefined when the request
 * may go: the arguments by `serviceToolArgumentsProblem`, then the request they make by the very
 * checks the service call runs before the network (the media's kind, its base64, its size, a URL
 * where bytes belong, …), a refused field named as the tool's argument. `media`: the image or
 * audio the application resolved; without it, `image` / `audio` are read as the data itself.
 * `resolvesMedia` without `media`: the application resolves the media later, so its reference is
 * no data to check and only the arguments are (the tool passes the media here once resolved).
 * Any error other than such a refusal is thrown.
 */
export async function serviceToolCallProblem(
  name: ServiceToolName,
  args: unknown,
  options: { targetLanguage?: string; media?: AudioLike; resolvesMedia?: boolean } = {},
): Promise<string | undefined> {
  const resolvesMedia = options.resolvesMedia === true || options.media !== undefined;
  const problem = serviceToolArgumentsProblem(name, args, {
    targetLanguage: options.targetLanguage,
    resolvesMedia,
  });
  if (problem !== undefined) return problem;
  if (resolvesMedia && options.media === undefined) return undefined;
  try {
    await validateServiceRequest(name, serviceToolRequest(name, args as never, options));
    return undefined;
  } catch (error) {
    if (!isGatewayError(error) || error.status !== undefined || error.field === undefined) {
      throw error;
    }
    return (withCallerFieldNames(error, TOOL_ARGUMENT_OF_FIELD) as Error).message;
  }
}

/** The service call's own checks of a request before the network (service-calls.ts runs them). */
async function validateServiceRequest(
  name: ServiceToolName,
  request: ServiceToolRequests[ServiceToolName],
): Promise<void> {
  if (name === 'translate') validateTranslationRequest(request as TranslationRequest);
  else if (name === 'ocr') await validateOcrRequest(request as OcrRequest);
  else await validateTranscriptionRequest(request as TranscriptionRequest);
}

// docs/gateway-protocol.md §7 (translation), §8 (OCR), §9 (transcription).
import { TypeValidationError } from '@ai-sdk/provider';
import type { ValidationResult } from '@ai-sdk/provider-utils';
import {
  ENDPOINTS,
  type EveryKey,
  refuseUnknownOptions,
  type ServiceToolName,
  type ServiceToolOptions,
} from '@infergate/core/internal';
import {
  serviceToolCallProblem,
  serviceToolRequest,
  withCallerFieldNames,
} from '@infergate/core/internal/service-tools';
import type { GatewayModelConfig } from '../shared/gateway-model-config';
import { mapGatewayError, withMappedErrors } from '../shared/map-gateway-error';
import { withUserAgent } from '../shared/user-agent';
import type {
  GatewayOcrInput,
  GatewayOcrResult,
  GatewayServiceCallOptions,
  GatewayServices,
  GatewayTranscribeInput,
  GatewayTranscribeResult,
  GatewayTranslateInput,
  GatewayTranslateResult,
} from './gateway-service-types';
import type { ServiceToolTypes } from './gateway-tools';

/**
 * What the service helpers and the service tools run, loaded on the first service call or tool
 * use (a chat-only app never makes one): each helper's input as core's request and the answer as
 * its result (core validates every limit before the network); each tool's check of the model's
 * arguments, and its arguments as a helper's input.
 */

/** Each helper's input keys, every one (else this fails to compile). */
const INPUT_KEYS = {
  translate: keysOf<GatewayTranslateInput>({ text: 1, targetLanguage: 1, sourceLanguage: 1 }),
  ocr: keysOf<GatewayOcrInput>({ image: 1 }),
  transcribe: keysOf<GatewayTranscribeInput>({ audio: 1, mediaType: 1, language: 1, translate: 1 }),
};
const OPTION_KEYS = keysOf<GatewayServiceCallOptions>({ abortSignal: 1, headers: 1 });

/** Core's names of the translation request's fields, as the `translate` helper takes them. */
const TRANSLATE_FIELDS = {
  input: 'text',
  target_language: 'targetLanguage',
  source_language: 'sourceLanguage',
};

/** Wire names no edit distance leads back to ours (`target_language` and the like do). */
const WIRE_NAMES = { input: 'the text goes in `text`', mime_type: 'use `mediaType`' };

function keysOf<T>(keys: EveryKey<T, 1>): string[] {
  return Object.keys(keys);
}

/**
 * A helper's input and options hold only its keys: a typo or a wire name (`sourcelanguage`,
 * `target_language`, `prompt`) would be dropped, so it is refused, naming the right one
 * (`InvalidArgumentError`, nothing sent).
 */
function refuseUnknownKeys(name: keyof typeof INPUT_KEYS, input: unknown, options: object): void {
  try {
    if (typeof input === 'object' && input !== null) {
      refuseUnknownOptions(input, INPUT_KEYS[name], `${name} input`, 'call option', WIRE_NAMES);
    }
    refuseUnknownOptions(options, OPTION_KEYS, `${name} options`, 'call option');
  } catch (error) {
    throw mapGatewayError(error, { url: '', requestBodyValues: undefined, maxRetryAfterMs: 0 });
  }
}

export async function translate(
  config: GatewayModelConfig,
  input: GatewayTranslateInput,
  options: GatewayServiceCallOptions = {},
): Promise<GatewayTranslateResult> {
  refuseUnknownKeys('translate', input, options);
  const request = {
    input: input.text,
    target_language: input.targetLanguage,
    source_language: input.sourceLanguage,
  };
  // A refusal names the field as given here (`targetLanguage`), not core's (`target_language`).
  const response = await withMappedErrors(config, ENDPOINTS.translation, request, () =>
    config
      .client()
      .translate(request, callOptions(options))
      .catch((error: unknown) => Promise.reject(withCallerFieldNames(error, TRANSLATE_FIELDS))),
  );
  return {
    text: response.text,
    ...(response.source_language !== undefined ? { sourceLanguage: response.source_language } : {}),
    targetLanguage: response.target_language,
  };
}

export async function ocr(
  config: GatewayModelConfig,
  input: GatewayOcrInput,
  options: GatewayServiceCallOptions = {},
): Promise<GatewayOcrResult> {
  refuseUnknownKeys('ocr', input, options);
  const response = await withMappedErrors(config, ENDPOINTS.ocr, { image_base64: '<image>' }, () =>
    config.client().ocr({ image: input.image }, callOptions(options)),
  );
  return {
    text: response.text,
    ...(typeof response.confidence === 'number' ? { confidence: response.confidence } : {}),
    ...(typeof response.model === 'string' ? { model: response.model } : {}),
  };
}

export async function transcribe(
  config: GatewayModelConfig,
  input: GatewayTranscribeInput,
  options: GatewayServiceCallOptions = {},
): Promise<GatewayTranscribeResult> {
  refuseUnknownKeys('transcribe', input, options);
  const request = {
    audio: input.audio,
    response_format: 'json' as const,
    mime_type: input.mediaType,
    language: input.language,
    translate: input.translate,
  };
  const response = await withMappedErrors(
    config,
    ENDPOINTS.transcription,
    { ...request, audio: '<audio>' },
    () => config.client().transcribe(request, callOptions(options)),
  );
  return {
    text: response.text,
    ...(typeof response.language === 'string' ? { language: response.language } : {}),
    ...(typeof response.duration === 'number' ? { durationInSeconds: response.duration } : {}),
  };
}

function callOptions(options: GatewayServiceCallOptions) {
  return { signal: options.abortSignal, headers: withUserAgent(options.headers, false) };
}

/**
 * A tool's check of the model's arguments, core's rules: the schema's, the byte limit of `text`
 * and, unless the application resolves the media, every check core runs on the request before the
 * network (`serviceToolCallProblem`: the media's kind, its base64, its size, a URL where data
 * belongs). A problem is a `TypeValidationError`, which `ai` hands back to the model to repair,
 * nothing sent. Resolved media is checked by the helper the tool runs (its error is the tool's).
 */
export async function checkToolInput<Name extends ServiceToolName>(
  name: Name,
  value: unknown,
  options: Pick<ServiceToolOptions, 'targetLanguage' | 'resolvesMedia'>,
): Promise<ValidationResult<ServiceToolTypes[Name]['input']>> {
  const problem = await serviceToolCallProblem(name, value, options);
  return problem === undefined
    ? { success: true, value: value as ServiceToolTypes[Name]['input'] }
    : {
        success: false,
        error: new TypeValidationError({ value, cause: new Error(`${name}: ${problem}`) }),
      };
}

/** Each tool's run: the model's arguments (and the resolved media) as core's request, sent through `services`. */
type ToolRuns = {
  [Name in ServiceToolName]: (
    services: GatewayServices,
    input: ServiceToolTypes[Name]['input'],
    options: ServiceToolTypes[Name]['options'],
    abortSignal: AbortSignal | undefined,
  ) => Promise<ServiceToolTypes[Name]['result']>;
};

export const TOOL_RUNS: ToolRuns = {
  translate(services, input, options, abortSignal) {
    const request = serviceToolRequest('translate', input, options);
    return services.translate(
      {
        text: request.input,
        targetLanguage: request.target_language,
        sourceLanguage: request.source_language,
      },
      { abortSignal },
    );
  },
  async ocr(services, input, { resolveImage }, abortSignal) {
    const media = resolveImage ? await resolveImage(input.image, { abortSignal }) : undefined;
    return services.ocr(serviceToolRequest('ocr', input, { media }), { abortSignal });
  },
  async transcribe(services, input, { resolveAudio }, abortSignal) {
    const media = resolveAudio ? await resolveAudio(input.audio, { abortSignal }) : undefined;
    // The helper's input, not core's request (`response_format` is no key of it).
    const { audio, language, translate } = serviceToolRequest('transcribe', input, { media });
    return services.transcribe({ audio, language, translate }, { abortSignal });
  },
};

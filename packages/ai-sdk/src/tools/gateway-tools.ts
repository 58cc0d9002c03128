// docs/gateway-protocol.md §7, §8, §9 (the services the tools call).
import { TypeValidationError } from '@ai-sdk/provider';
import { jsonSchema, type Schema, type Tool, tool } from '@ai-sdk/provider-utils';
import {
  type ServiceToolName,
  type ServiceToolOptions,
  serviceToolArgumentsProblem,
  serviceToolDefinition,
  serviceToolRequest,
} from '@infergate/core/internal';
import type {
  GatewayOcrResult,
  GatewayServices,
  GatewayTranscribeResult,
  GatewayTranslateResult,
} from './gateway-service-types';
import type {
  OcrToolInput,
  OcrToolOptions,
  TranscribeToolInput,
  TranscribeToolOptions,
  TranslateToolInput,
  TranslateToolOptions,
} from './gateway-tool-options';

export interface GatewayTools {
  /** A tool that translates text with the gateway's translation service. */
  translate(options?: TranslateToolOptions): Tool<TranslateToolInput, GatewayTranslateResult>;
  /** A tool that reads the text in an image with the gateway's OCR service. */
  ocr(options?: OcrToolOptions): Tool<OcrToolInput, GatewayOcrResult>;
  /** A tool that transcribes speech with the gateway's speech-to-text service. */
  transcribe(options?: TranscribeToolOptions): Tool<TranscribeToolInput, GatewayTranscribeResult>;
}

/**
 * The gateway's services as AI SDK tools, for agents (`generateText` with `stopWhen`). Names,
 * descriptions and parameters are core's service-tool definitions, shared with the LangChain
 * adapter; the tools run through `services` (their errors are the AI SDK's).
 */
export function createGatewayTools(services: GatewayServices): GatewayTools {
  return {
    translate(options = {}) {
      const { description, parameters } = serviceToolDefinition('translate', options);
      return tool({
        description,
        inputSchema: inputSchema<TranslateToolInput>('translate', parameters, options),
        execute: (input, { abortSignal }) => {
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
      });
    },

    ocr(options = {}) {
      const { resolveImage } = options;
      const { description, parameters } = serviceToolDefinition('ocr', {
        resolvesMedia: resolveImage !== undefined,
        description: options.description,
      });
      return tool({
        description,
        inputSchema: inputSchema<OcrToolInput>('ocr', parameters),
        execute: async (input, { abortSignal }) => {
          const media = resolveImage ? await resolveImage(input.image, { abortSignal }) : undefined;
          return services.ocr(serviceToolRequest('ocr', input, { media }), { abortSignal });
        },
      });
    },

    transcribe(options = {}) {
      const { resolveAudio } = options;
      const { description, parameters } = serviceToolDefinition('transcribe', {
        resolvesMedia: resolveAudio !== undefined,
        description: options.description,
      });
      return tool({
        description,
        inputSchema: inputSchema<TranscribeToolInput>('transcribe', parameters),
        execute: async (input, { abortSignal }) => {
          const media = resolveAudio ? await resolveAudio(input.audio, { abortSignal }) : undefined;
          return services.transcribe(serviceToolRequest('transcribe', input, { media }), {
            abortSignal,
          });
        },
      });
    },
  };
}

/**
 * Core's JSON schema, checked by core's rules before the tool runs: `ai` then hands a bad input
 * back to the model as a tool error it can repair, without a request.
 */
function inputSchema<Input>(
  name: ServiceToolName,
  parameters: Parameters<typeof jsonSchema>[0],
  options: Pick<ServiceToolOptions, 'targetLanguage'> = {},
): Schema<Input> {
  return jsonSchema<Input>(parameters, {
    validate: (value) => {
      const problem = serviceToolArgumentsProblem(name, value, options);
      return problem === undefined
        ? { success: true, value: value as Input }
        : {
            success: false,
            error: new TypeValidationError({ value, cause: new Error(`${name}: ${problem}`) }),
          };
    },
  });
}

// docs/gateway-protocol.md §7, §8, §9 (the services the tools call).
import {
  type Context,
  jsonSchema,
  type Tool,
  type ToolExecuteFunction,
  tool,
} from '@ai-sdk/provider-utils';
import {
  ENDPOINTS,
  type EveryKey,
  refuseUnknownOptions,
  type ServiceToolName,
  type ServiceToolOptions,
  serviceToolDefinition,
} from '@infergate/core/internal';
import { loadServiceParts } from '../shared/load-lazily';
import { mapGatewayError, SETTINGS_CONTEXT } from '../shared/map-gateway-error';
import { optionRefusal } from '../shared/option-refusal';
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

/** Each service tool's options, the model's arguments and its result. */
export interface ServiceToolTypes {
  translate: {
    options: TranslateToolOptions;
    input: TranslateToolInput;
    result: GatewayTranslateResult;
  };
  ocr: { options: OcrToolOptions; input: OcrToolInput; result: GatewayOcrResult };
  transcribe: {
    options: TranscribeToolOptions;
    input: TranscribeToolInput;
    result: GatewayTranscribeResult;
  };
}

/**
 * The gateway's services as AI SDK tools, for agents (`generateText` with `stopWhen`). Names,
 * descriptions and parameters are core's service-tool definitions, shared with the LangChain
 * adapter, known at once; the check of the model's arguments and the run are loaded on a tool's
 * first use (service-calls.ts). The tools run through `services` (their errors are the AI SDK's).
 */
export function createGatewayTools(services: GatewayServices): GatewayTools {
  return {
    translate: (options = {}) => serviceTool('translate', services, options, options),
    ocr: (options = {}) =>
      serviceTool('ocr', services, options, {
        resolvesMedia: options.resolveImage !== undefined,
        description: options.description,
      }),
    transcribe: (options = {}) =>
      serviceTool('transcribe', services, options, {
        resolvesMedia: options.resolveAudio !== undefined,
        description: options.description,
      }),
  };
}

/**
 * One service tool: core's description and JSON schema, its input checked by core's rules before
 * the tool runs (`ai` then hands a bad input back to the model as a tool error it can repair,
 * without a request), its run through `services`.
 */
function serviceTool<Name extends ServiceToolName>(
  name: Name,
  services: GatewayServices,
  options: ServiceToolTypes[Name]['options'],
  definition: ServiceToolOptions,
): Tool<ServiceToolTypes[Name]['input'], ServiceToolTypes[Name]['result']> {
  type Input = ServiceToolTypes[Name]['input'];
  type Result = ServiceToolTypes[Name]['result'];
  const { description, parameters } = toolDefinition(name, options, definition);
  const inputSchema = jsonSchema<Input>(parameters, {
    validate: async (value) => (await toolCalls(name)).checkToolInput(name, value, definition),
  });
  const execute: ToolExecuteFunction<Input, Result, Context> = async (input, { abortSignal }) =>
    (await toolCalls(name)).TOOL_RUNS[name](services, input, options, abortSignal);
  // `Tool` picks its members by a conditional type on the result, which stays open for a generic
  // `Result`: the parts are typed above, the whole is cast.
  return tool({ description, inputSchema, execute } as unknown as Tool<Input, Result>);
}

/** Each tool's options, every key: a typo (`descripton`) would do nothing, so it is refused. */
const TOOL_OPTION_KEYS = {
  translate: { targetLanguage: true, description: true } satisfies EveryKey<TranslateToolOptions>,
  ocr: { resolveImage: true, description: true } satisfies EveryKey<OcrToolOptions>,
  transcribe: { resolveAudio: true, description: true } satisfies EveryKey<TranscribeToolOptions>,
};

/**
 * Core's definition of a tool; an option it refuses (a fixed `targetLanguage` that is no language
 * code) fails the tool's making as an `InvalidArgumentError`, rather than every call of the tool.
 * An unknown key of the tool's options (`descripton`), which would do nothing, fails it as a
 * model's unknown setting does (`LoadSettingError`, core's refusal its `cause`), naming the
 * closest known one. Either names the option by its path as the tool's options are given
 * (`tools.translate({ … })`): `tools.translate.descripton`, `tools.translate.targetLanguage`.
 */
function toolDefinition(name: ServiceToolName, given: object, options: ServiceToolOptions) {
  const path = `tools.${name}.`;
  try {
    const known = Object.keys(TOOL_OPTION_KEYS[name]);
    refuseUnknownOptions(given, known, `tools.${name} options`, 'model setting', undefined, path);
  } catch (error) {
    const setting = mapGatewayError(error, SETTINGS_CONTEXT);
    // (`LoadSettingError` takes a message only: core's refusal, with its field, is kept as cause.)
    if (setting instanceof Error && setting !== error) {
      Object.defineProperty(setting, 'cause', { value: error, configurable: true, writable: true });
    }
    throw setting;
  }
  try {
    return serviceToolDefinition(name, options);
  } catch (error) {
    throw optionRefusal(error, (field) => `${path}${field}`);
  }
}

/** The endpoint each tool's service calls, for the error of a failed load. */
const TOOL_ENDPOINTS: Record<ServiceToolName, string> = {
  translate: ENDPOINTS.translation,
  ocr: ENDPOINTS.ocr,
  transcribe: ENDPOINTS.transcription,
};

/**
 * The tools' code; a failed load (`client_code_unavailable`, nothing sent) is mapped as the
 * service helpers' errors are: an `APICallError` whose `data.code` names it. Thrown by `execute`,
 * `ai` reports it as the tool's error; thrown by the check, as the cause of its invalid input.
 */
async function toolCalls(name: ServiceToolName) {
  try {
    return await loadServiceParts();
  } catch (error) {
    throw mapGatewayError(error, {
      url: TOOL_ENDPOINTS[name],
      requestBodyValues: undefined,
      maxRetryAfterMs: 0,
    });
  }
}

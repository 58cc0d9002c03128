// docs/gateway-protocol.md §4 (chat completions: the request §4.1, the capability gate §4.2, the answer §4.3, fallback §4.6,
// failover and stall timeouts §4.7).
import {
  InvalidArgumentError,
  type JSONObject,
  type LanguageModelV4,
  type LanguageModelV4CallOptions,
  type LanguageModelV4Content,
  type LanguageModelV4GenerateResult,
  type LanguageModelV4StreamResult,
  type SharedV4ProviderMetadata,
  type SharedV4Warning,
} from '@ai-sdk/provider';
import { injectJsonInstructionIntoMessages } from '@ai-sdk/provider-utils';
import {
  type ChatCallOptions,
  type ChatMessage,
  type ChatRequest,
  type ChatRoute,
  isGatewayError,
  type ModelCapability,
  type ResponseFormat,
  requiredCapabilities,
  type Usage,
} from '@infergate/core';
import { buildChatRequest, ENDPOINTS, streamedChatRequest } from '@infergate/core/internal';
import {
  AI_RETRIES,
  definedHeaders,
  endpointURL,
  type GatewayModelConfig,
  headersToRecord,
} from '../shared/gateway-model-config';
import { mapGatewayError } from '../shared/map-gateway-error';
import { PROVIDER_OPTIONS_KEY } from '../shared/parse-infergate-options';
import { type GatewayChatOptions, readChatProviderOptions } from './chat-provider-options';
import { convertGatewayChatStream } from './convert-gateway-chat-stream';
import { convertGatewayUsage } from './convert-gateway-usage';
import { convertToGatewayChatMessages } from './convert-to-gateway-chat-messages';
import type { GatewayChatModelId, GatewayChatModelSettings } from './gateway-chat-options';
import { type ChatSteering, chatSteering } from './gateway-chat-steering';
import { mapGatewayFinishReason } from './map-gateway-finish-reason';
import { type PreparedTools, prepareTools } from './prepare-tools';
import { UnsupportedModelCapabilityError } from './unsupported-model-capability-error';

/** Call options the gateway has no field for: warned about and not sent. */
const UNSUPPORTED_SETTINGS = ['topK'] as const;

interface PreparedChatRequest {
  body: ChatRequest;
  warnings: SharedV4Warning[];
  /** Core's steering options of the call (fallback list, stall timeouts). */
  steering: ChatSteering['options'];
  /** What `providerOptions.infergate` set for this call besides request fields. */
  settings: GatewayChatOptions;
}

/** A gateway chat model as an AI SDK `LanguageModelV4`. */
export class GatewayChatLanguageModel implements LanguageModelV4 {
  readonly specificationVersion = 'v4';
  readonly modelId: GatewayChatModelId;
  /** Image URLs are passed to the gateway as they are instead of being downloaded first. */
  readonly supportedUrls: Record<string, RegExp[]> = { 'image/*': [/^https?:\/\/.+$/] };

  private readonly settings: GatewayChatModelSettings;
  private readonly config: GatewayModelConfig;

  constructor(
    modelId: GatewayChatModelId,
    settings: GatewayChatModelSettings,
    config: GatewayModelConfig,
  ) {
    this.modelId = modelId;
    this.settings = settings;
    this.config = config;
  }

  get provider(): string {
    return this.config.provider;
  }

  async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    const { body, warnings, steering } = await this.prepareRequest(options, { stream: false });
    const client = this.config.client();

    let result: Awaited<ReturnType<typeof client.chat>>;
    try {
      result = await client.chat(body, this.callOptions(options, steering));
    } catch (error) {
      throw this.mapError(error, body);
    }

    const { response, answer } = result;
    // Core read choice 0 tolerantly (content parts, reasoning fields, tool-call ids).
    const content: LanguageModelV4Content[] = [];
    if (answer.reasoning !== undefined) content.push({ type: 'reasoning', text: answer.reasoning });
    if (answer.text.length > 0) content.push({ type: 'text', text: answer.text });
    for (const toolCall of answer.toolCalls) {
      content.push({
        type: 'tool-call',
        toolCallId: toolCall.id,
        toolName: toolCall.name,
        input: toolCall.arguments,
      });
    }

    return {
      content,
      finishReason: mapGatewayFinishReason(answer.finishReason),
      usage: convertGatewayUsage(response.usage),
      providerMetadata: providerMetadata(result, response.usage),
      request: { body },
      response: {
        ...(answer.id !== undefined ? { id: answer.id } : {}),
        modelId: result.servedModel,
        ...(answer.created !== undefined ? { timestamp: new Date(answer.created * 1000) } : {}),
        headers: headersToRecord(result.headers),
        body: response,
      },
      warnings,
    };
  }

  async doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    const { body, warnings, steering, settings } = await this.prepareRequest(options, {
      stream: true,
    });
    const client = this.config.client();
    const { streamUsage } = settings;
    // The body as core sends it (stream_options by the same rule), for `request.body`.
    const sent = streamedChatRequest(body, streamUsage ?? this.config.streamUsage);

    let stream: Awaited<ReturnType<typeof client.chatStream>>;
    try {
      stream = await client.chatStream(body, {
        ...this.callOptions(options, steering),
        streamUsage,
      });
    } catch (error) {
      throw this.mapError(error, sent);
    }

    return {
      stream: convertGatewayChatStream(stream, {
        warnings,
        includeRawChunks: options.includeRawChunks,
        mapError: (error) => this.mapError(error, sent),
        providerMetadata: (usage) => providerMetadata(stream, usage),
      }),
      request: { body: sent },
      response: { headers: headersToRecord(stream.headers) },
    };
  }

  /**
   * Builds the gateway request and refuses it, before any chat request, when the model lacks a
   * capability. With a fallback list, core gates every listed model itself (this one included).
   */
  private async prepareRequest(
    options: LanguageModelV4CallOptions,
    { stream }: { stream: boolean },
  ): Promise<PreparedChatRequest> {
    const { settings, extraFields } = readChatProviderOptions(options.providerOptions);
    const steering = chatSteering(this.settings, settings);
    const warnings = unsupportedSettingWarnings(options);
    const tools = prepareTools(options);
    warnings.push(...tools.warnings);
    const reasoningEffort = reasoningEffortOf(options.reasoning, settings, warnings);

    const conversion = { sendReasoning: this.settings.sendReasoning === true };
    const messages = convertToGatewayChatMessages(options.prompt, conversion);
    const responseFormat = mapResponseFormat(options.responseFormat);
    const build = (chatMessages: ChatMessage[], format: ResponseFormat | undefined) =>
      buildChatRequest({
        ...requestFields(this.modelId, options, tools),
        messages: chatMessages,
        responseFormat: format,
        reasoningEffort,
        extraFields,
      });
    const body = build(messages, responseFormat);
    const prepared = { body, warnings, steering: steering.options, settings };
    // Core's gate over the whole list replaces this model's gate, and the json_object downgrade
    // (a property of one model's capabilities) is not made: models without json_schema are skipped.
    if (steering.hasFallbacks) return prepared;

    // Core's gate for every call, plain chat too: an id the catalog does not list is refused
    // here with close matches (one cached GET /models per catalogTtlMs), as in LangChain. One
    // look-up and check, unless the opt-in json_schema downgrade must see the capabilities first.
    if (responseFormat?.type !== 'json_schema' || this.settings.fallbackToJsonObject !== true) {
      const needs = requiredCapabilities(body, stream);
      await this.checkModel(needs, options.abortSignal, undefined, describeCall(stream, body));
      return prepared;
    }
    const capabilities = await this.checkModel([], options.abortSignal);
    if (capabilities === undefined) return prepared;
    let downgraded = body;
    if (!capabilities.includes('json_schema') && capabilities.includes('json_object')) {
      // Opt-in downgrade: the schema goes into the system message; `ai` validates the answer.
      const schema =
        options.responseFormat?.type === 'json' ? options.responseFormat.schema : undefined;
      const withSchema = injectJsonInstructionIntoMessages({ messages: options.prompt, schema });
      downgraded = build(convertToGatewayChatMessages(withSchema, conversion), {
        type: 'json_object',
      });
      warnings.push({
        type: 'unsupported',
        feature: 'responseFormat.schema',
        details: `Model "${this.modelId}" has json_object but not json_schema: sent as json_object with the schema in the system message (fallbackToJsonObject). The answer is validated client-side.`,
      });
    }
    // Core's gate: refuses (naming the models that would do) before any chat request.
    const needs = requiredCapabilities(downgraded, stream);
    await this.checkModel(
      needs,
      options.abortSignal,
      capabilities,
      describeCall(stream, downgraded),
    );
    return { ...prepared, body: downgraded };
  }

  /**
   * Core's capability gate for this model: its capabilities from the settings (`known`), else
   * from core's cached catalog. Core's rule decides unlisted ids: an own model (`my/...`, offline
   * yet still answering) is undefined, so the gateway decides; any other is refused with
   * `model_not_found` (`NoSuchModelError`). A refusal becomes `UnsupportedModelCapabilityError`.
   */
  private async checkModel(
    needs: readonly ModelCapability[],
    signal: AbortSignal | undefined,
    known: readonly string[] | undefined = this.settings.capabilities,
    purpose?: string,
  ): Promise<readonly string[] | undefined> {
    try {
      return await this.config
        .client()
        .checkModel(this.modelId, needs, { signal, maxRetries: AI_RETRIES, known, purpose });
    } catch (error) {
      if (isGatewayError(error) && error.code === 'unsupported_model_capability') {
        throw new UnsupportedModelCapabilityError(error);
      }
      throw this.mapError(error, undefined, ENDPOINTS.models);
    }
  }

  /**
   * Core's options for one call: the abort signal, headers and steering. One round (`ai`
   * retries): a fallback list is walked once per `doGenerate` / `doStream`.
   */
  private callOptions(
    options: LanguageModelV4CallOptions,
    steering: ChatSteering['options'],
  ): ChatCallOptions {
    return {
      signal: options.abortSignal,
      headers: definedHeaders(options.headers),
      maxRetries: AI_RETRIES,
      ...steering,
    };
  }

  private mapError(error: unknown, body: unknown, path: string = ENDPOINTS.chat): unknown {
    return mapGatewayError(error, {
      url: endpointURL(this.config, path),
      requestBodyValues: body,
      maxRetryAfterMs: this.config.maxRetryAfterMs,
    });
  }
}

/** The request fields of a call, for core's `buildChatRequest` (which also takes messages and format). */
function requestFields(modelId: string, options: LanguageModelV4CallOptions, tools: PreparedTools) {
  return {
    model: modelId,
    temperature: options.temperature,
    maxTokens: options.maxOutputTokens,
    topP: options.topP,
    stop: options.stopSequences,
    seed: options.seed,
    presencePenalty: options.presencePenalty,
    frequencyPenalty: options.frequencyPenalty,
    tools: tools.tools,
    toolChoice: tools.toolChoice,
  };
}

/** Warnings for the call options the gateway has no field for (they are not sent). */
function unsupportedSettingWarnings(options: LanguageModelV4CallOptions): SharedV4Warning[] {
  const warnings: SharedV4Warning[] = [];
  for (const setting of UNSUPPORTED_SETTINGS) {
    if (options[setting] != null) {
      warnings.push({
        type: 'unsupported',
        feature: setting,
        details:
          'The gateway API has no field for it. If your model server understands one, send it through providerOptions.infergate.',
      });
    }
  }
  return warnings;
}

/**
 * The `reasoning_effort` to send: `providerOptions.infergate.reasoningEffort` as given, else ai's
 * `reasoning` call option as OpenAI-compatible servers read it — each level as itself, except
 * `'max'`, which OpenAI's `reasoning_effort` has no word for: sent as the next lower, `'xhigh'`,
 * with a `compatibility` warning (as ai maps a level a provider lacks). `'provider-default'`
 * sends nothing.
 */
function reasoningEffortOf(
  reasoning: LanguageModelV4CallOptions['reasoning'],
  settings: GatewayChatOptions,
  warnings: SharedV4Warning[],
): string | undefined {
  if (reasoning !== undefined && typeof reasoning !== 'string') {
    throw new InvalidArgumentError({
      argument: 'reasoning',
      message: `reasoning is a ${typeof reasoning}; allowed: 'provider-default', 'none', 'minimal', 'low', 'medium', 'high', 'xhigh' or 'max'`,
    });
  }
  if (settings.reasoningEffort !== undefined) return settings.reasoningEffort;
  if (reasoning === undefined || reasoning === 'provider-default') return undefined;
  if (reasoning !== 'max') return reasoning;
  warnings.push({
    type: 'compatibility',
    feature: 'reasoning',
    details:
      'reasoning "max" has no reasoning_effort value: sent as "xhigh". Send another value as providerOptions.infergate.reasoningEffort.',
  });
  return 'xhigh';
}

/** What a refused call was, for the refusal's message: `streamText with tools`. */
function describeCall(stream: boolean, body: ChatRequest): string {
  const parts: string[] = [];
  if (body.tools !== undefined) parts.push('tools');
  if (body.response_format?.type === 'json_schema') parts.push('a JSON schema');
  if (body.response_format?.type === 'json_object') parts.push('JSON output');
  const call = stream ? 'streamText' : 'generateText';
  return parts.length > 0 ? `${call} with ${parts.join(' and ')}` : call;
}

function mapResponseFormat(
  responseFormat: LanguageModelV4CallOptions['responseFormat'],
): ResponseFormat | undefined {
  if (responseFormat?.type !== 'json') return undefined;
  if (responseFormat.schema === undefined) return { type: 'json_object' };
  return {
    type: 'json_schema',
    json_schema: {
      name: responseFormat.name ?? 'response',
      schema: responseFormat.schema as Record<string, unknown>,
      ...(responseFormat.description !== undefined
        ? { description: responseFormat.description }
        : {}),
    },
  };
}

function providerMetadata(
  answer: { requestedModel: string; servedModel: string; fallback: boolean; route: ChatRoute },
  usage: Usage | null | undefined,
): SharedV4ProviderMetadata {
  const { requested, hops, answeredBy } = answer.route;
  return {
    [PROVIDER_OPTIONS_KEY]: {
      requestedModel: answer.requestedModel,
      servedModel: answer.servedModel,
      fallback: answer.fallback,
      // Core's route as plain JSON: the models skipped, tried and left, and the answering one.
      route: { requested, hops: hops.map((hop) => ({ ...hop })), answeredBy },
      ...(usage != null ? { usage: usage as JSONObject } : {}),
    },
  };
}

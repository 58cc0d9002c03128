import { NoSuchModelError, type ProviderV4 } from '@ai-sdk/provider';
import {
  type CallOptions,
  createGatewayClient,
  type GatewayClient,
  type GatewayEventHandler,
  type GatewayModel,
  type GatewayService,
  type KeyBudget,
} from '@infergate/core';
import { ENDPOINTS, RETRY_DEFAULTS } from '@infergate/core/internal';
import { GatewayChatLanguageModel } from '../chat/gateway-chat-language-model';
import type { GatewayChatModelId, GatewayChatModelSettings } from '../chat/gateway-chat-options';
import { GatewayEmbeddingModel } from '../embedding/gateway-embedding-model';
import { endpointURL, type GatewayModelConfig } from '../shared/gateway-model-config';
import { mapGatewayError } from '../shared/map-gateway-error';
import { createGatewayServices, type GatewayServices } from '../tools/gateway-services';
import { createGatewayTools, type GatewayTools } from '../tools/gateway-tools';
import { GatewayTranscriptionModel } from '../transcription/gateway-transcription-model';

export interface GatewayProviderSettings {
  /** Gateway base URL, ending in `/v1`. Default: the `INFERGATE_BASE_URL` environment variable. */
  baseURL?: string;
  /** API key. Default: the `INFERGATE_API_KEY` environment variable. Never logged. */
  apiKey?: string;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** A WHATWG fetch, e.g. for tests or proxies. Default: the global `fetch`. */
  fetch?: typeof fetch;
  /**
   * Requests this provider has in flight at once (its own queue, before the key's budget).
   * Default 4. Never lets the key exceed `maxConcurrencyPerKey`.
   */
  maxConcurrency?: number;
  /** Requests in flight per (gateway origin, API key) over every client sharing `budget`. Default 4. */
  maxConcurrencyPerKey?: number;
  /**
   * Where the key's slots are counted (core's `KeyBudget`, e.g. `@infergate/redis` across
   * processes). Default: the in-process budget.
   */
  budget?: KeyBudget;
  /** Deadline of one call, queue and retries included. Default 300 000 ms (the gateway's limit). */
  timeoutMs?: number;
  /** How long the model and service catalog is cached. Default 60 000 ms. */
  catalogTtlMs?: number;
  /**
   * Longest `Retry-After` worth waiting for: a 429 asking for longer is not retryable
   * (`APICallError.isRetryable: false`), so `ai` fails at once instead of waiting. Default 60 000 ms.
   */
  maxRetryAfterMs?: number;
  /** Core's per-call events (queue wait, attempts, served model, usage); see core's Observability. */
  onEvent?: GatewayEventHandler;
  /** Let `onEvent` events carry request and answer bodies. Default `false`. */
  recordContent?: boolean;
}

export interface GatewayProvider extends ProviderV4, GatewayServices {
  /** A chat model: `gateway('community/general')`. */
  (modelId: GatewayChatModelId, settings?: GatewayChatModelSettings): GatewayChatLanguageModel;
  languageModel(
    modelId: GatewayChatModelId,
    settings?: GatewayChatModelSettings,
  ): GatewayChatLanguageModel;
  chat(modelId: GatewayChatModelId, settings?: GatewayChatModelSettings): GatewayChatLanguageModel;
  /** An embedding engine; the id may be left out when the gateway has exactly one engine. */
  embeddingModel(engineId?: string): GatewayEmbeddingModel;
  /** The speech-to-text service (it needs no model id). */
  transcriptionModel(modelId?: string): GatewayTranscriptionModel;
  /** The gateway has no image models: always throws `NoSuchModelError`. */
  imageModel(modelId: string): never;
  /** The chat models this key may use (cached briefly). */
  models(options?: CallOptions): Promise<GatewayModel[]>;
  /** The services (translation, ocr, speech_to_text, embeddings with its engines). */
  services(options?: CallOptions): Promise<GatewayService[]>;
  /** The services as AI SDK tools. */
  readonly tools: GatewayTools;
}

/** Creates an infergate provider for the AI SDK. The gateway client is made on first use. */
export function createGateway(settings: GatewayProviderSettings = {}): GatewayProvider {
  let client: GatewayClient | undefined;

  const getClient = (): GatewayClient => {
    if (client !== undefined) return client;
    // Core reads INFERGATE_BASE_URL / INFERGATE_API_KEY when a setting is not given, never
    // throwing (no `process` on Workers, Deno without --allow-env): a missing one fails the call
    // with configuration_error, mapped to LoadSettingError / LoadAPIKeyError.
    const { baseURL, apiKey } = settings;
    try {
      // Undefined settings mean core's defaults.
      client = createGatewayClient({
        baseURL,
        apiKey,
        fetch: settings.fetch,
        headers: settings.headers,
        maxConcurrency: settings.maxConcurrency,
        maxConcurrencyPerKey: settings.maxConcurrencyPerKey,
        budget: settings.budget,
        timeoutMs: settings.timeoutMs,
        catalogTtlMs: settings.catalogTtlMs,
        maxRetryAfterMs: settings.maxRetryAfterMs,
        onEvent: settings.onEvent,
        recordContent: settings.recordContent,
      });
    } catch (error) {
      throw mapGatewayError(error, {
        url: baseURL ?? '',
        requestBodyValues: undefined,
        maxRetryAfterMs: 0,
      });
    }
    return client;
  };

  const configFor = (kind: string): GatewayModelConfig => ({
    provider: `infergate.${kind}`,
    client: getClient,
    maxRetryAfterMs: settings.maxRetryAfterMs ?? RETRY_DEFAULTS.maxRetryAfterMs,
  });
  const chatConfig = configFor('chat');
  const serviceConfig = configFor('services');

  const createChatModel = (
    modelId: GatewayChatModelId,
    modelSettings: GatewayChatModelSettings = {},
  ) => new GatewayChatLanguageModel(modelId, modelSettings, chatConfig);

  const catalog = async <T>(
    path: string,
    read: (client: GatewayClient) => Promise<T>,
  ): Promise<T> => {
    try {
      return await read(getClient());
    } catch (error) {
      throw mapGatewayError(error, {
        url: endpointURL(serviceConfig, path),
        requestBodyValues: undefined,
        maxRetryAfterMs: serviceConfig.maxRetryAfterMs,
      });
    }
  };

  const services = createGatewayServices(serviceConfig);

  // An arrow function: calling the provider with `new` fails, as it should.
  const provider = ((modelId: GatewayChatModelId, modelSettings?: GatewayChatModelSettings) =>
    createChatModel(modelId, modelSettings)) as GatewayProvider;

  Object.assign(provider, {
    specificationVersion: 'v4' as const,
    languageModel: createChatModel,
    chat: createChatModel,
    embeddingModel: (engineId?: string) =>
      new GatewayEmbeddingModel(engineId, configFor('embedding')),
    transcriptionModel: (modelId?: string) =>
      new GatewayTranscriptionModel(modelId, configFor('transcription')),
    imageModel: (modelId: string): never => {
      throw new NoSuchModelError({
        modelId,
        modelType: 'imageModel',
        message: `The infergate gateway has no image models (asked for "${modelId}").`,
      });
    },
    speechModel: (modelId: string): never => {
      throw new NoSuchModelError({
        modelId,
        modelType: 'speechModel',
        message: `The infergate gateway has no speech models (asked for "${modelId}"); it offers transcriptionModel().`,
      });
    },
    rerankingModel: (modelId: string): never => {
      throw new NoSuchModelError({
        modelId,
        modelType: 'rerankingModel',
        message: `The infergate gateway has no reranking models (asked for "${modelId}").`,
      });
    },
    models: (options?: CallOptions) => catalog(ENDPOINTS.models, (c) => c.models(options)),
    services: (options?: CallOptions) =>
      catalog(ENDPOINTS.capabilities, (c) => c.services(options)),
    translate: services.translate,
    ocr: services.ocr,
    transcribe: services.transcribe,
    tools: createGatewayTools(services),
  });

  return provider;
}

/**
 * The default provider: reads `INFERGATE_BASE_URL` and `INFERGATE_API_KEY` on first use.
 * Not to be confused with the `gateway` export of the `ai` package (Vercel's AI Gateway).
 */
export const gateway: GatewayProvider = createGateway();

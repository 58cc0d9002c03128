import type { ProviderV3 } from '@ai-sdk/provider-v3';
import type { CallOptions, GatewayModel, GatewayService } from '@infergate/core';
import type { GatewayChatModelId, GatewayChatModelSettings } from '../chat/gateway-chat-options';
import {
  createGateway as createGatewayV4,
  type GatewayProviderSettings,
} from '../provider/gateway-provider';
import type { GatewayServices } from '../tools/gateway-services';
import { GatewayChatLanguageModelV3 } from './gateway-chat-language-model-v3';
import { GatewayEmbeddingModelV3 } from './gateway-embedding-model-v3';
import { type GatewayToolsV3, toV3Tools } from './gateway-tools-v3';
import { GatewayTranscriptionModelV3 } from './gateway-transcription-model-v3';

/** The infergate provider for AI SDK 6: the same settings, models and services as the main entry's, as V3. */
export interface GatewayProviderV3 extends ProviderV3, GatewayServices {
  /** A chat model: `gateway('community/general')`. */
  (modelId: GatewayChatModelId, settings?: GatewayChatModelSettings): GatewayChatLanguageModelV3;
  languageModel(
    modelId: GatewayChatModelId,
    settings?: GatewayChatModelSettings,
  ): GatewayChatLanguageModelV3;
  chat(
    modelId: GatewayChatModelId,
    settings?: GatewayChatModelSettings,
  ): GatewayChatLanguageModelV3;
  /** An embedding engine; the id may be left out when the gateway has exactly one engine. */
  embeddingModel(engineId?: string): GatewayEmbeddingModelV3;
  /** The same as `embeddingModel` (AI SDK 6 still calls it by this name in places). */
  textEmbeddingModel(engineId?: string): GatewayEmbeddingModelV3;
  /** The speech-to-text service (it needs no model id). */
  transcriptionModel(modelId?: string): GatewayTranscriptionModelV3;
  /** The gateway has no image models: always throws `NoSuchModelError`. */
  imageModel(modelId: string): never;
  /** The gateway has no speech models: always throws `NoSuchModelError`. */
  speechModel(modelId: string): never;
  /** The gateway has no reranking models: always throws `NoSuchModelError`. */
  rerankingModel(modelId: string): never;
  /** The chat models this key may use (cached briefly). */
  models(options?: CallOptions): Promise<GatewayModel[]>;
  /** The services (translation, ocr, speech_to_text, embeddings with its engines). */
  services(options?: CallOptions): Promise<GatewayService[]>;
  /** The services as AI SDK 6 tools. */
  readonly tools: GatewayToolsV3;
}

/**
 * Creates an infergate provider for AI SDK 6 (`ai@6`, `ProviderV3`). It wraps the main entry's
 * provider: one client, one catalog cache and one concurrency budget serve its models.
 */
export function createGateway(settings: GatewayProviderSettings = {}): GatewayProviderV3 {
  const v4 = createGatewayV4(settings);

  const chat = (modelId: GatewayChatModelId, modelSettings?: GatewayChatModelSettings) =>
    new GatewayChatLanguageModelV3(v4.chat(modelId, modelSettings));
  const embedding = (engineId?: string) => new GatewayEmbeddingModelV3(v4.embeddingModel(engineId));

  // An arrow function: calling the provider with `new` fails, as it should.
  const provider = ((modelId: GatewayChatModelId, modelSettings?: GatewayChatModelSettings) =>
    chat(modelId, modelSettings)) as GatewayProviderV3;

  // Own, plain properties: registries read `specificationVersion` to decide whether to wrap a
  // provider (a V3 provider taken for V2 gets its usage converted twice).
  Object.assign(provider, {
    specificationVersion: 'v3' as const,
    languageModel: chat,
    chat,
    embeddingModel: embedding,
    textEmbeddingModel: embedding,
    transcriptionModel: (modelId?: string) =>
      new GatewayTranscriptionModelV3(v4.transcriptionModel(modelId)),
    imageModel: v4.imageModel,
    speechModel: (modelId: string): never => v4.speechModel?.(modelId) as never,
    rerankingModel: (modelId: string): never => v4.rerankingModel?.(modelId) as never,
    models: v4.models,
    services: v4.services,
    translate: v4.translate,
    ocr: v4.ocr,
    transcribe: v4.transcribe,
    tools: toV3Tools(v4.tools),
  });

  return provider;
}

/**
 * The default AI SDK 6 provider: reads `INFERGATE_BASE_URL` and `INFERGATE_API_KEY` on first use.
 * Not to be confused with the `gateway` export of the `ai` package (Vercel's AI Gateway).
 */
export const gateway: GatewayProviderV3 = createGateway();

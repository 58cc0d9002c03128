// docs/gateway-protocol.md §1 (one base URL and key for every kind), §2.1, §2.2; AI SDK 6.
import type { ProviderV3 } from '@ai-sdk/provider-v3';
import type { GatewayChatModelId, GatewayChatModelSettings } from '../chat/gateway-chat-options';
import { refuseFactorySettings } from '../provider/factory-takes-no-settings';
import { createGateway as createGatewayV4 } from '../provider/gateway-provider';
import {
  assembleGatewayProvider,
  type GatewayProviderBase,
} from '../provider/gateway-provider-base';
import type { GatewayProviderSettings } from '../provider/gateway-provider-settings';
import { GatewayChatLanguageModelV3 } from './gateway-chat-language-model-v3';
import { GatewayEmbeddingModelV3 } from './gateway-embedding-model-v3';
import { type GatewayToolsV3, toV3Tools } from './gateway-tools-v3';
import { GatewayTranscriptionModelV3 } from './gateway-transcription-model-v3';

/** The infergate provider for AI SDK 6: the same settings, models and services as the main entry's, as V3. */
export interface GatewayProviderV3
  extends ProviderV3,
    GatewayProviderBase<GatewayChatLanguageModelV3, GatewayToolsV3> {
  languageModel(
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
}

/**
 * Creates an infergate provider for AI SDK 6 (`ai@6`, `ProviderV3`). It wraps the main entry's
 * provider: one client, one catalog cache and one concurrency budget serve its models.
 */
export function createGateway(settings: GatewayProviderSettings = {}): GatewayProviderV3 {
  const v4 = createGatewayV4(settings);
  const embeddingModel = (engineId?: string, ...extra: unknown[]) => {
    refuseFactorySettings('embeddingModel', extra);
    return new GatewayEmbeddingModelV3(v4.embeddingModel(engineId));
  };
  const provider = assembleGatewayProvider<GatewayProviderV3>(
    {
      specificationVersion: 'v3',
      chat: (modelId, modelSettings) =>
        new GatewayChatLanguageModelV3(v4.chat(modelId, modelSettings)),
      embeddingModel,
      transcriptionModel: (modelId?: string, ...extra: unknown[]) => {
        refuseFactorySettings('transcriptionModel', extra);
        return new GatewayTranscriptionModelV3(v4.transcriptionModel(modelId));
      },
      tools: toV3Tools(v4.tools),
    },
    v4,
  );
  return Object.assign(provider, { textEmbeddingModel: embeddingModel });
}

/**
 * The default AI SDK 6 provider: reads `INFERGATE_BASE_URL` and `INFERGATE_API_KEY` on first use.
 * Not to be confused with the `gateway` export of the `ai` package (Vercel's AI Gateway).
 */
export const gateway: GatewayProviderV3 = createGateway();

// docs/gateway-protocol.md §1 (one base URL and key for every kind), §2.1, §2.2.
import type { ProviderV4 } from '@ai-sdk/provider';
import { GatewayChatLanguageModel } from '../chat/gateway-chat-language-model';
import type { GatewayChatModelId, GatewayChatModelSettings } from '../chat/gateway-chat-options';
import { GatewayEmbeddingModel } from '../embedding/gateway-embedding-model';
import { createGatewayServices } from '../tools/gateway-services';
import { createGatewayTools, type GatewayTools } from '../tools/gateway-tools';
import { GatewayTranscriptionModel } from '../transcription/gateway-transcription-model';
import { refuseFactorySettings } from './factory-takes-no-settings';
import { createGatewayCatalog } from './gateway-catalog';
import { assembleGatewayProvider, type GatewayProviderBase } from './gateway-provider-base';
import { type GatewayProviderSettings, resolveGatewaySettings } from './gateway-provider-settings';

/** The infergate provider for AI SDK 7 (`ProviderV4`). */
export interface GatewayProvider
  extends ProviderV4,
    GatewayProviderBase<GatewayChatLanguageModel, GatewayTools> {
  languageModel(
    modelId: GatewayChatModelId,
    settings?: GatewayChatModelSettings,
  ): GatewayChatLanguageModel;
  /** An embedding engine; the id may be left out when the gateway has exactly one engine. */
  embeddingModel(engineId?: string): GatewayEmbeddingModel;
  /** The speech-to-text service (it needs no model id). */
  transcriptionModel(modelId?: string): GatewayTranscriptionModel;
  /** The gateway has no image models: always throws `NoSuchModelError`. */
  imageModel(modelId: string): never;
}

/** Creates an infergate provider for the AI SDK. The gateway client is made on first use. */
export function createGateway(settings: GatewayProviderSettings = {}): GatewayProvider {
  const configFor = resolveGatewaySettings(settings);
  const chatConfig = configFor('chat');
  const services = createGatewayServices(configFor('services'));
  return assembleGatewayProvider<GatewayProvider>(
    {
      specificationVersion: 'v4',
      chat: (modelId, modelSettings = {}) =>
        new GatewayChatLanguageModel(modelId, modelSettings, chatConfig),
      embeddingModel: (engineId?: string, ...extra: unknown[]) => {
        refuseFactorySettings('embeddingModel', extra);
        return new GatewayEmbeddingModel(engineId, configFor('embedding'));
      },
      transcriptionModel: (modelId?: string, ...extra: unknown[]) => {
        refuseFactorySettings('transcriptionModel', extra);
        return new GatewayTranscriptionModel(modelId, configFor('transcription'));
      },
      tools: createGatewayTools(services),
    },
    { ...createGatewayCatalog(configFor('services')), ...services },
  );
}

/**
 * The default provider: reads `INFERGATE_BASE_URL` and `INFERGATE_API_KEY` on first use.
 * Not to be confused with the `gateway` export of the `ai` package (Vercel's AI Gateway).
 */
export const gateway: GatewayProvider = createGateway();

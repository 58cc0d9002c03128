// docs/gateway-protocol.md §1 (chat models, embeddings, services), §3 (the catalog).
import type { GatewayChatModelId, GatewayChatModelSettings } from '../chat/gateway-chat-options';
import type { GatewayServices } from '../tools/gateway-service-types';
import type { GatewayCatalog } from './gateway-catalog';
import { UNAVAILABLE_MODELS } from './unavailable-models';

/**
 * What the providers of both entries have in common beyond the AI SDK's provider interface,
 * by the kind of chat model and tools they make: the main entry's (`ProviderV4`) and `/v6`'s
 * (`ProviderV3`). Each adds the interface's own model factories, typed by its models.
 */
export interface GatewayProviderBase<ChatModel, Tools> extends GatewayServices, GatewayCatalog {
  /** A chat model: `gateway('community/general')`. */
  (modelId: GatewayChatModelId, settings?: GatewayChatModelSettings): ChatModel;
  chat(modelId: GatewayChatModelId, settings?: GatewayChatModelSettings): ChatModel;
  /** The services as AI SDK tools. */
  readonly tools: Tools;
}

/** The provider members the assembly needs to know, whatever the models' specification. */
interface AssembledProvider extends GatewayProviderBase<unknown, unknown> {
  readonly specificationVersion: string;
  embeddingModel(engineId?: string): unknown;
  transcriptionModel(modelId?: string): unknown;
}

/** What is the provider's own: its specification, model factories and tools. */
type GatewayProviderParts<Provider extends AssembledProvider> = Pick<
  Provider,
  'specificationVersion' | 'chat' | 'embeddingModel' | 'transcriptionModel' | 'tools'
>;

/**
 * A provider, callable for a chat model, from its own parts and the catalog and service helpers it
 * shares. Its members are own, plain properties: registries read `specificationVersion` to decide
 * whether to wrap a provider (a V3 provider taken for V2 gets its usage converted twice). The
 * model kinds the gateway lacks throw `NoSuchModelError`.
 */
export function assembleGatewayProvider<Provider extends AssembledProvider>(
  parts: GatewayProviderParts<Provider>,
  shared: GatewayCatalog & GatewayServices,
): Provider {
  const { chat } = parts;
  // An arrow function: calling the provider with `new` fails, as it should.
  const provider = ((modelId: GatewayChatModelId, settings?: GatewayChatModelSettings) =>
    chat(modelId, settings)) as Provider;
  return Object.assign(provider, parts, UNAVAILABLE_MODELS, {
    languageModel: chat,
    models: shared.models,
    services: shared.services,
    translate: shared.translate,
    ocr: shared.ocr,
    transcribe: shared.transcribe,
  });
}

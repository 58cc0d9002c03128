// docs/gateway-protocol.md §6 (embeddings: limits, engines, batching by core).
import type {
  EmbeddingModelV4,
  EmbeddingModelV4CallOptions,
  EmbeddingModelV4Result,
} from '@ai-sdk/provider';
import { EXPERIMENTAL_EMBEDDING_MODEL_MAX_INPUT_BYTES_PER_CALL } from '@ai-sdk/provider-utils';
import { LIMITS } from '@infergate/core';
import { ENDPOINTS } from '@infergate/core/internal';
import type { GatewayModelConfig } from '../shared/gateway-model-config';
import { loadServiceParts } from '../shared/load-lazily';
import { withMappedErrors } from '../shared/map-gateway-error';

/** docs/gateway-protocol.md §6: 1 to 64 strings per request (core's `LIMITS`). */
export const MAX_EMBEDDINGS_PER_CALL: number = LIMITS.embeddingsMaxInputs;
/** docs/gateway-protocol.md §6: at most 65 536 bytes (UTF-8) of input per request (core's `LIMITS`). */
export const MAX_EMBEDDING_INPUT_BYTES_PER_CALL: number = LIMITS.embeddingsMaxTotalBytes;

/**
 * A gateway embedding engine as an AI SDK `EmbeddingModelV4`. Without an engine id the only
 * available engine is used; with several available the id is required (the error lists them).
 * Keep one engine for documents and queries: changing it means reindexing. Its call is loaded on
 * the first `doEmbed` (embed-values.ts), out of a chat-only app's start-up chunk.
 */
export class GatewayEmbeddingModel implements EmbeddingModelV4 {
  readonly specificationVersion = 'v4';
  readonly modelId: string;
  readonly maxEmbeddingsPerCall = MAX_EMBEDDINGS_PER_CALL;
  readonly supportsParallelCalls = true;
  /** Lets `embedMany` cut batches by bytes too; `doEmbed` splits again when called directly. */
  readonly [EXPERIMENTAL_EMBEDDING_MODEL_MAX_INPUT_BYTES_PER_CALL] =
    MAX_EMBEDDING_INPUT_BYTES_PER_CALL;

  private readonly engineId: string | undefined;
  private readonly config: GatewayModelConfig;

  constructor(engineId: string | undefined, config: GatewayModelConfig) {
    this.engineId = engineId;
    this.modelId = engineId ?? 'default';
    this.config = config;
  }

  get provider(): string {
    return this.config.provider;
  }

  async doEmbed(options: EmbeddingModelV4CallOptions): Promise<EmbeddingModelV4Result> {
    const { config, engineId } = this;
    // Nothing is built or sent when the call's code cannot be loaded.
    const { embedValues } = await withMappedErrors(
      config,
      ENDPOINTS.embeddings,
      undefined,
      loadServiceParts,
    );
    return embedValues(
      { provider: this.provider, modelId: this.modelId, engineId, config },
      options,
    );
  }
}

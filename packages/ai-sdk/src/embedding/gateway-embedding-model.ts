// docs/gateway-protocol.md §6 (embeddings: limits, engines, batching by core).
import type {
  EmbeddingModelV4,
  EmbeddingModelV4CallOptions,
  EmbeddingModelV4Result,
  SharedV4ProviderOptions,
} from '@ai-sdk/provider';
import {
  type EmbeddingModelProviderOptionsTransformer,
  EXPERIMENTAL_EMBEDDING_MODEL_MAX_INPUT_BYTES_PER_CALL,
  EXPERIMENTAL_EMBEDDING_MODEL_PROVIDER_OPTIONS_TRANSFORMER,
} from '@ai-sdk/provider-utils';
import { LIMITS } from '@infergate/core';
import { ENDPOINTS } from '@infergate/core/internal';
import type { GatewayModelConfig } from '../shared/gateway-model-config';
import { loadServiceParts } from '../shared/load-lazily';
import { withMappedErrors } from '../shared/map-gateway-error';
import { BYTES_PER_DO_EMBED, VALUES_PER_DO_EMBED } from './do-embed-limits';
import type { EmbedManyBatch } from './embed-values';

/**
 * docs/gateway-protocol.md §6: 1 to 64 strings per gateway request (core's `LIMITS`). Not the
 * model's `maxEmbeddingsPerCall`: one `doEmbed` takes up to 2 048 values, which core splits into
 * requests of at most 64.
 */
export const MAX_EMBEDDINGS_PER_CALL: number = LIMITS.embeddingsMaxInputs;
/**
 * docs/gateway-protocol.md §6: at most 65 536 bytes (UTF-8) of input per gateway request (core's
 * `LIMITS`); one `doEmbed` takes up to 8 × 4 times as much, split into requests by core.
 */
export const MAX_EMBEDDING_INPUT_BYTES_PER_CALL: number = LIMITS.embeddingsMaxTotalBytes;

/**
 * Each batch `embedMany` cut, by the batch's `providerOptions` (a copy made per batch, which `ai`
 * passes to every try of its `doEmbed` as it is): where it starts in `embedMany`'s values, so a
 * refusal names the caller's index, those values, so the first batch checks them all before
 * anything is sent, and its tries' kept vectors. Kept outside the object, where no user code sees
 * it: a mark inside it (even a symbol key) breaks a middleware that checks `providerOptions` as a
 * record of string keys (rv-6embed F2). A middleware that passes a copy or rebuild of
 * `providerOptions` loses the mark: its batches are embedded as single calls (README, Embeddings).
 */
const BATCHES = new WeakMap<SharedV4ProviderOptions, EmbedManyBatch>();

/** `embedMany`'s hook for each batch: its own `providerOptions`, its start and the values kept. */
export const markBatchStart: EmbeddingModelProviderOptionsTransformer = (batch) => {
  const providerOptions = { ...batch.providerOptions };
  BATCHES.set(providerOptions, { start: batch.startIndex, all: batch.values });
  return providerOptions;
};

/** The batch `providerOptions` belong to (see `BATCHES`), when `embedMany` cut it. */
function batchOf(providerOptions: SharedV4ProviderOptions | undefined): EmbedManyBatch | undefined {
  return providerOptions && BATCHES.get(providerOptions);
}

/**
 * A gateway embedding engine as an AI SDK `EmbeddingModelV4`. Without an engine id the first call
 * takes the only available engine and the model keeps it (a later call is refused when it is gone,
 * never served by another); with several available the id is required (the error lists them).
 * Keep one engine for documents and queries: changing it means reindexing. Its call is loaded on
 * the first `doEmbed` (embed-values.ts), out of a chat-only app's start-up chunk.
 */
export class GatewayEmbeddingModel implements EmbeddingModelV4 {
  readonly specificationVersion = 'v4';
  readonly modelId: string;
  /** `embedMany`'s calls: one at a time, each 8 rounds of the key's 4 requests (`VALUES_PER_DO_EMBED`). */
  readonly maxEmbeddingsPerCall = VALUES_PER_DO_EMBED;
  readonly supportsParallelCalls = false;
  /** Lets `embedMany` cut batches by bytes too; `doEmbed` splits again when called directly. */
  readonly [EXPERIMENTAL_EMBEDDING_MODEL_MAX_INPUT_BYTES_PER_CALL] = BYTES_PER_DO_EMBED;
  readonly [EXPERIMENTAL_EMBEDDING_MODEL_PROVIDER_OPTIONS_TRANSFORMER] = markBatchStart;

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
    const { providerOptions } = options;
    return embedValues(
      { provider: this.provider, modelId: this.modelId, engineId, config, owner: this },
      options,
      batchOf(providerOptions),
    );
  }
}

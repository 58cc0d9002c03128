// docs/gateway-protocol.md §6 (embeddings, for AI SDK 6).
import {
  EXPERIMENTAL_EMBEDDING_MODEL_MAX_INPUT_BYTES_PER_CALL,
  EXPERIMENTAL_EMBEDDING_MODEL_PROVIDER_OPTIONS_TRANSFORMER,
} from '@ai-sdk/provider-utils';
import type {
  EmbeddingModelV3,
  EmbeddingModelV3CallOptions,
  EmbeddingModelV3Result,
} from '@ai-sdk/provider-v3';
import { BYTES_PER_DO_EMBED, VALUES_PER_DO_EMBED } from '../embedding/do-embed-limits';
import { type GatewayEmbeddingModel, markBatchStart } from '../embedding/gateway-embedding-model';
import { toV3ProviderMetadata, toV3Warnings } from './convert-to-v3-result';

/**
 * A gateway embedding engine for AI SDK 6 (`EmbeddingModelV3`), running the V4 model of the main
 * entry. V3 calls have no `dimensions`: `providerOptions.infergate.dimensions` sets it.
 */
export class GatewayEmbeddingModelV3 implements EmbeddingModelV3 {
  readonly specificationVersion = 'v3';
  readonly modelId: string;
  /** As the V4 model: `embedMany`'s calls one at a time, each 8 rounds of the key's 4 requests. */
  readonly maxEmbeddingsPerCall = VALUES_PER_DO_EMBED;
  readonly supportsParallelCalls = false;
  /** Read by ai@7 and later ai@6 releases (an older ai@6 batches by count; `doEmbed` splits by bytes). */
  readonly [EXPERIMENTAL_EMBEDDING_MODEL_MAX_INPUT_BYTES_PER_CALL] = BYTES_PER_DO_EMBED;
  /** The same: `doEmbed` hands the batch's options to the V4 model, which reads its start. */
  readonly [EXPERIMENTAL_EMBEDDING_MODEL_PROVIDER_OPTIONS_TRANSFORMER] = markBatchStart;

  private readonly model: GatewayEmbeddingModel;

  constructor(model: GatewayEmbeddingModel) {
    this.model = model;
    this.modelId = model.modelId;
  }

  get provider(): string {
    return this.model.provider;
  }

  async doEmbed(options: EmbeddingModelV3CallOptions): Promise<EmbeddingModelV3Result> {
    const result = await this.model.doEmbed(options);
    return {
      ...result,
      providerMetadata: toV3ProviderMetadata(result.providerMetadata),
      warnings: toV3Warnings(result.warnings),
    };
  }
}

// docs/gateway-protocol.md §6 (embeddings: limits, engines, batching by core).
import {
  type EmbeddingModelV4,
  type EmbeddingModelV4CallOptions,
  type EmbeddingModelV4Result,
  TooManyEmbeddingValuesForCallError,
} from '@ai-sdk/provider';
import { EXPERIMENTAL_EMBEDDING_MODEL_MAX_INPUT_BYTES_PER_CALL } from '@ai-sdk/provider-utils';
import { type GatewayResponseInfo, LIMITS } from '@infergate/core';
import { ENDPOINTS } from '@infergate/core/internal';
import {
  AI_RETRIES,
  definedHeaders,
  endpointURL,
  type GatewayModelConfig,
  headersToRecord,
} from '../shared/gateway-model-config';
import { mapGatewayError } from '../shared/map-gateway-error';
import { PROVIDER_OPTIONS_KEY } from '../shared/parse-infergate-options';
import { parseGatewayEmbeddingOptions } from './gateway-embedding-options';

/** docs/gateway-protocol.md §6: 1 to 64 strings per request (core's `LIMITS`). */
export const MAX_EMBEDDINGS_PER_CALL: number = LIMITS.embeddingsMaxInputs;
/** docs/gateway-protocol.md §6: at most 65 536 bytes (UTF-8) of input per request (core's `LIMITS`). */
export const MAX_EMBEDDING_INPUT_BYTES_PER_CALL: number = LIMITS.embeddingsMaxTotalBytes;

/**
 * A gateway embedding engine as an AI SDK `EmbeddingModelV4`. Without an engine id the only
 * available engine is used; with several available the id is required (the error lists them).
 * Keep one engine for documents and queries: changing it means reindexing.
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
    const { values, abortSignal } = options;
    if (values.length > MAX_EMBEDDINGS_PER_CALL) {
      throw new TooManyEmbeddingValuesForCallError({
        provider: this.provider,
        modelId: this.modelId,
        maxEmbeddingsPerCall: MAX_EMBEDDINGS_PER_CALL,
        values,
      });
    }

    const infergateOptions = parseGatewayEmbeddingOptions(options.providerOptions);
    const dimensions = options.dimensions ?? infergateOptions?.dimensions;
    const client = this.config.client();
    // Usage summed over the requests core sends (one, unless the batch had to be split); the
    // headers and body of the last answer, as the AI SDK keeps one response per call.
    let tokens: number | undefined;
    let response: GatewayResponseInfo | undefined;
    const callOptions = {
      signal: abortSignal,
      headers: definedHeaders(options.headers),
      maxRetries: AI_RETRIES,
      onResponse: (info: GatewayResponseInfo) => {
        response = info;
        const used = promptTokens(info.body);
        if (used !== undefined) tokens = (tokens ?? 0) + used;
      },
    };

    try {
      const engine = await client.resolveEmbeddingEngine(this.engineId, callOptions);
      // Core cuts the batch by the 64-item and 65 536-byte limits, runs the parts within the
      // key's concurrency budget and returns the vectors in input order.
      const embeddings = await client.embedMany(values, {
        ...callOptions,
        model: engine.id,
        inputType: infergateOptions?.inputType,
        dimensions,
      });
      return {
        embeddings,
        ...(tokens !== undefined ? { usage: { tokens } } : {}),
        ...(response !== undefined
          ? { response: { headers: headersToRecord(response.headers), body: response.body } }
          : {}),
        providerMetadata: { [PROVIDER_OPTIONS_KEY]: { engine: engine.id } },
        warnings: [],
      };
    } catch (error) {
      throw mapGatewayError(error, {
        url: endpointURL(this.config, ENDPOINTS.embeddings),
        requestBodyValues: { model: this.engineId, input: values, dimensions },
        maxRetryAfterMs: this.config.maxRetryAfterMs,
        modelType: 'embeddingModel',
      });
    }
  }
}

/** `usage.prompt_tokens` of an embeddings answer (docs/gateway-protocol.md §6 shows no usage; servers send it). */
function promptTokens(body: unknown): number | undefined {
  const usage = (body as { usage?: { prompt_tokens?: unknown; total_tokens?: unknown } } | null)
    ?.usage;
  const tokens = usage?.prompt_tokens ?? usage?.total_tokens;
  return typeof tokens === 'number' && Number.isFinite(tokens) ? tokens : undefined;
}

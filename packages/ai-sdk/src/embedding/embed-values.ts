// docs/gateway-protocol.md §6 (embeddings: limits, engines, batching by core).
import {
  type EmbeddingModelV4CallOptions,
  type EmbeddingModelV4Result,
  TooManyEmbeddingValuesForCallError,
} from '@ai-sdk/provider';
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

/** The embedding model a call runs for: what `GatewayEmbeddingModel` holds. */
export interface EmbeddingModelParts {
  provider: string;
  modelId: string;
  /** As given: undefined lets core pick the only available engine. */
  engineId: string | undefined;
  config: GatewayModelConfig;
}

/**
 * `doEmbed` of `GatewayEmbeddingModel`, loaded on its first call (a chat-only app never runs it):
 * the count check, `providerOptions.infergate`, the engine, core's batching, usage and response.
 */
export async function embedValues(
  model: EmbeddingModelParts,
  options: EmbeddingModelV4CallOptions,
): Promise<EmbeddingModelV4Result> {
  const { values, abortSignal } = options;
  if (values.length > LIMITS.embeddingsMaxInputs) {
    throw new TooManyEmbeddingValuesForCallError({
      provider: model.provider,
      modelId: model.modelId,
      maxEmbeddingsPerCall: LIMITS.embeddingsMaxInputs,
      values,
    });
  }

  const infergateOptions = parseGatewayEmbeddingOptions(options.providerOptions);
  const dimensions = options.dimensions ?? infergateOptions?.dimensions;
  const { config } = model;
  const client = config.client();
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
    const engine = await client.resolveEmbeddingEngine(model.engineId, callOptions);
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
      url: endpointURL(config, ENDPOINTS.embeddings),
      requestBodyValues: { model: model.engineId, input: values, dimensions },
      maxRetryAfterMs: config.maxRetryAfterMs,
      modelType: 'embeddingModel',
    });
  }
}

/** `usage.prompt_tokens` of an embeddings answer (docs/gateway-protocol.md §6 shows no usage; servers send it). */
function promptTokens(body: unknown): number | undefined {
  const usage = (body as { usage?: { prompt_tokens?: unknown; total_tokens?: unknown } } | null)
    ?.usage;
  const tokens = usage?.prompt_tokens ?? usage?.total_tokens;
  return typeof tokens === 'number' && Number.isFinite(tokens) ? tokens : undefined;
}

// docs/gateway-protocol.md §6 (embeddings: limits, engines, batching by core).
import {
  type EmbeddingModelV4CallOptions,
  type EmbeddingModelV4Result,
  TooManyEmbeddingValuesForCallError,
} from '@ai-sdk/provider';
import { GatewayError, type GatewayResponseInfo, isGatewayError, LIMITS } from '@infergate/core';
import { ENDPOINTS } from '@infergate/core/internal';
import {
  AI_RETRIES,
  coreHeaders,
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
 * `start`: where these values begin in the caller's `embedMany` values, when `embedMany` cut them.
 */
export async function embedValues(
  model: EmbeddingModelParts,
  options: EmbeddingModelV4CallOptions,
  start?: number,
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
    headers: coreHeaders(options.headers),
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
    throw mapGatewayError(asCallersValue(error, values.length, start), {
      url: endpointURL(config, ENDPOINTS.embeddings),
      requestBodyValues: { model: model.engineId, input: values, dimensions },
      maxRetryAfterMs: config.maxRetryAfterMs,
      modelType: 'embeddingModel',
    });
  }
}

/**
 * Core's refusal of one text (`texts[i]`, or `text` for a list of one) named as the AI SDK caller
 * gave it: `values[i]` of `embedMany` (`i` counted from the batch's `start`), else `value` of
 * `embed` (which passes one value and no batch start). Without a start for several values (a
 * middleware that copied `providerOptions`, or a direct `doEmbed`) the caller's index is unknown,
 * so core's own name, counted within the batch, is kept.
 */
function asCallersValue(error: unknown, count: number, start: number | undefined): unknown {
  if (!isGatewayError(error) || error.status !== undefined || error.field === undefined) {
    return error;
  }
  const index = /^text(?:s\[(\d+)\])?$/.exec(error.field);
  if (index === null || !error.message.startsWith(error.field)) return error;
  if (start === undefined && count !== 1) return error;
  const field = start === undefined ? 'value' : `values[${start + Number(index[1] ?? 0)}]`;
  return new GatewayError({
    code: error.code,
    message: `${field}${error.message.slice(error.field.length)}`,
    field,
  });
}

/** `usage.prompt_tokens` of an embeddings answer (docs/gateway-protocol.md §6 shows no usage; servers send it). */
function promptTokens(body: unknown): number | undefined {
  const usage = (body as { usage?: { prompt_tokens?: unknown; total_tokens?: unknown } } | null)
    ?.usage;
  const tokens = usage?.prompt_tokens ?? usage?.total_tokens;
  return typeof tokens === 'number' && Number.isFinite(tokens) ? tokens : undefined;
}

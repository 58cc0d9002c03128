// docs/gateway-protocol.md §2 (base URL, key, headers, concurrency and duration), §3.3 (catalog TTL),
// §4.7 (stall timeouts).
import {
  type CircuitBreakerOptions,
  createGatewayClient,
  type GatewayClient,
  type GatewayEventHandler,
  type HedgeOptions,
  type KeyBudget,
} from '@infergate/core';
import { RETRY_DEFAULTS, withSettingNames } from '@infergate/core/internal';
import type { GatewayModelConfig } from '../shared/gateway-model-config';
import { mapGatewayError } from '../shared/map-gateway-error';

export interface GatewayProviderSettings {
  /** Gateway base URL, ending in `/v1`. Default (also when `undefined`): the `INFERGATE_BASE_URL` environment variable. */
  baseURL?: string | undefined;
  /** API key. Default (also when `undefined`): the `INFERGATE_API_KEY` environment variable. Never logged. */
  apiKey?: string | undefined;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** A WHATWG fetch, e.g. for tests or proxies. Default: the global `fetch`. */
  fetch?: typeof fetch;
  /**
   * Requests this provider has in flight at once (its own queue, before the key's budget).
   * Default 4. Never lets the key exceed `maxConcurrencyPerKey`.
   */
  maxConcurrency?: number;
  /** Requests in flight per (gateway origin, API key) over every client sharing `budget`. Default 4. */
  maxConcurrencyPerKey?: number;
  /**
   * Where the key's slots are counted (core's `KeyBudget`, e.g. `@infergate/redis` across
   * processes). Default: the in-process budget.
   */
  budget?: KeyBudget;
  /** Deadline of one call, queue and retries included. Default 300 000 ms (the gateway's limit). */
  timeoutMs?: number;
  /**
   * Chat calls: longest wait from sending a request to the first content of its answer, in ms
   * (SSE comments and empty chunks do not count). Off by default. A stall frees the slot and moves
   * to the next `fallbackModels` entry. A model's setting or a call's provider option wins.
   */
  firstChunkTimeoutMs?: number;
  /**
   * Chat streams: longest silence between two pieces of content, in ms. Off by default. A stall
   * frees the slot and fails the stream with `timeout`.
   */
  chunkTimeoutMs?: number;
  /** Chat calls: a second attempt when the first is slow to its first content (core's `hedge`). */
  hedge?: HedgeOptions | false;
  /** Per-model circuit breakers of calls with `fallbackModels` (core's `circuitBreaker`); default on. */
  circuitBreaker?: CircuitBreakerOptions | false;
  /** How long the model and service catalog is cached. Default 60 000 ms. */
  catalogTtlMs?: number;
  /**
   * Longest `Retry-After` worth waiting for: a 429 asking for longer is not retryable
   * (`APICallError.isRetryable: false`), so `ai` fails at once instead of waiting. Default 60 000 ms.
   */
  maxRetryAfterMs?: number;
  /**
   * Largest answer read, in bytes (core's `maxResponseBytes`; a stream's total size too): larger
   * fails with `response_too_large`. Default 32 MiB; raise it for longer streamed answers.
   */
  maxResponseBytes?: number;
  /** Core's per-call events (queue wait, attempts, served model, usage); see core's Observability. */
  onEvent?: GatewayEventHandler;
  /** Let `onEvent` events carry request and answer bodies. Default `false`. */
  recordContent?: boolean;
  /**
   * `streamText` asks for usage with `stream_options: { include_usage: true }` (model servers
   * such as vLLM or llama.cpp send usage in a stream only when asked). `false` for a model server
   * that refuses unknown fields; `providerOptions.infergate.streamUsage` overrides it per call.
   * Default `true`.
   */
  streamUsage?: boolean;
}

/** The kinds of object a provider makes, each named in its `provider` (`infergate.chat`, …). */
type GatewayModelKind = 'chat' | 'embedding' | 'transcription' | 'services';

/**
 * A provider's settings resolved into what its model objects share: one core client, created on
 * first use, and the `Retry-After` limit. Returns the config of each kind of object.
 */
export function resolveGatewaySettings(
  settings: GatewayProviderSettings,
): (kind: GatewayModelKind) => GatewayModelConfig {
  const client = lazyGatewayClient(settings);
  const maxRetryAfterMs = settings.maxRetryAfterMs ?? RETRY_DEFAULTS.maxRetryAfterMs;
  const streamUsage = settings.streamUsage !== false;
  return (kind) => ({ provider: `infergate.${kind}`, client, maxRetryAfterMs, streamUsage });
}

function lazyGatewayClient(settings: GatewayProviderSettings): () => GatewayClient {
  let client: GatewayClient | undefined;
  return () => {
    if (client !== undefined) return client;
    // Core reads INFERGATE_BASE_URL / INFERGATE_API_KEY when a setting is not given, never
    // throwing (no `process` on Workers, Deno without --allow-env): a missing one fails the call
    // with configuration_error, mapped to LoadSettingError / LoadAPIKeyError.
    const { baseURL, apiKey } = settings;
    try {
      // Undefined settings mean core's defaults. Messages about the base URL and key name them
      // as this provider's settings (`createGateway({ baseURL })`), not core's.
      client = createGatewayClient(
        withSettingNames(
          {
            baseURL,
            apiKey,
            fetch: settings.fetch,
            headers: settings.headers,
            maxConcurrency: settings.maxConcurrency,
            maxConcurrencyPerKey: settings.maxConcurrencyPerKey,
            budget: settings.budget,
            timeoutMs: settings.timeoutMs,
            maxResponseBytes: settings.maxResponseBytes,
            firstChunkTimeoutMs: settings.firstChunkTimeoutMs,
            chunkTimeoutMs: settings.chunkTimeoutMs,
            hedge: settings.hedge,
            circuitBreaker: settings.circuitBreaker,
            catalogTtlMs: settings.catalogTtlMs,
            maxRetryAfterMs: settings.maxRetryAfterMs,
            onEvent: settings.onEvent,
            recordContent: settings.recordContent,
            streamUsage: settings.streamUsage,
          },
          { where: 'createGateway', baseURL: 'baseURL', apiKey: 'apiKey' },
        ),
      );
    } catch (error) {
      throw mapGatewayError(error, {
        url: baseURL ?? '',
        requestBodyValues: undefined,
        maxRetryAfterMs: 0,
      });
    }
    return client;
  };
}

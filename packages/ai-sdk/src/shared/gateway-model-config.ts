// docs/gateway-protocol.md §10.5 (one attempt per model call: `ai` owns the retries).
import type { GatewayClient } from '@infergate/core';

/** What every model object of one provider shares. Holds no secret as a value (`sentKey` reads it). */
export interface GatewayModelConfig {
  /** `infergate.chat`, `infergate.embedding`, ... */
  provider: string;
  /** The provider's core client, created on first use. */
  client: () => GatewayClient;
  /** A 429 whose `Retry-After` is longer than this is reported as not retryable. */
  maxRetryAfterMs: number;
  /** The provider's `streamUsage` (its client's), for reporting a streamed request as sent. */
  streamUsage: boolean;
  /** The key the client will send (the `apiKey` given, else `INFERGATE_API_KEY`): never quoted. Absent: the settings' own `apiKey`. */
  sentKey?: () => string | undefined;
}

export function headersToRecord(headers: Headers): Record<string, string> {
  return Object.fromEntries(headers.entries());
}

/** The endpoint URL for error reports; empty when the client has no base URL yet. */
export function endpointURL(config: GatewayModelConfig, path: string): string {
  try {
    return `${config.client().baseURL ?? ''}${path}`;
  } catch {
    return path;
  }
}

/**
 * Core's `maxRetries` for model calls (doGenerate, doStream, doEmbed, doGenerate of
 * transcription): one attempt, because `ai`'s own retry loop (`maxRetries` of `generateText`,
 * `embedMany`, …) is the one owner of retries. Direct service calls keep core's retries.
 */
export const AI_RETRIES = 0;

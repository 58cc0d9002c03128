// docs/gateway-protocol.md §4.2 (a call's deadline and retries), for the runnables other than the
// chat model. A file of its own: the chat model's start path does not carry it.
import type { CallOptions } from '@infergate/core';
import { type ClientTuning, callOptions, shorterTimeout } from './client';

/**
 * Core's call options for one call of a runnable other than the chat model (a tool, the
 * translator, a loader, the embeddings): the call's signal and its `timeout` (LangChain folds it
 * into the signal and keeps the number in `metadata.timeoutMs`, read by `callOptions` as the chat
 * model's is), and the object's own `timeout` and `maxRetries`. Those are handed per call, so they
 * hold with a shared client too (over the client's), as a chat model's do.
 */
export function runnableCallOptions(
  config:
    | { signal?: AbortSignal; metadata?: Record<string, unknown>; timeout?: number }
    | undefined,
  tuning: ClientTuning,
): CallOptions {
  const options = callOptions({
    signal: config?.signal,
    metadata: config?.metadata,
    timeout: shorterTimeout(tuning.timeout, config?.timeout),
    maxRetries: tuning.maxRetries,
  });
  // Only what is set: an explicit `undefined` would stand for nothing in core anyway.
  return Object.fromEntries(
    Object.entries(options).filter(([, value]) => value !== undefined),
  ) as CallOptions;
}

/** The object's `timeout` and `maxRetries`, kept to be handed to each call. */
export function clientTuning(fields: ClientTuning): ClientTuning {
  return { timeout: fields.timeout, maxRetries: fields.maxRetries };
}

// docs/gateway-protocol.md §10 (errors: codes and statuses, retryability §10.5).
import {
  APICallError,
  InvalidArgumentError,
  type JSONObject,
  LoadAPIKeyError,
  LoadSettingError,
  NoSuchModelError,
} from '@ai-sdk/provider';
import { type GatewayError, isGatewayError } from '@infergate/core';
import {
  CALL_OPTIONS,
  errorFacts,
  isRetryableWithin,
  redactKey,
  redactValue,
} from '@infergate/core/internal';
import { endpointURL, type GatewayModelConfig } from './gateway-model-config';

interface GatewayErrorContext {
  /** The endpoint that was called. */
  url: string;
  /** The request body as sent (never the API key: it travels in a header). */
  requestBodyValues: unknown;
  /** This provider's key, redacted from `requestBodyValues` (a key pasted as the model id). */
  sentKey?: () => string | undefined;
  /**
   * The longest `Retry-After` worth waiting for: a 429 asking for longer (or for 60 s or more,
   * which `ai` would not wait) is not retryable, so `ai`'s retry loop (the only one: core makes one
   * attempt per call here) fails at once.
   */
  maxRetryAfterMs: number;
  /** The kind of model that made the call, for `NoSuchModelError`. Default `languageModel`. */
  modelType?: 'languageModel' | 'embeddingModel';
  /**
   * Whose values were checked: the provider's or a model's settings, when made (`settings`), or
   * a call's (default). Core names a refused call option by its field alone, and the provider
   * takes `headers` and the timeouts too: only here is it known which was given.
   */
  place?: 'settings' | 'call';
}

/** The context of a refusal of the provider's or a model's settings (nothing was sent). */
export const SETTINGS_CONTEXT: GatewayErrorContext = {
  url: '',
  requestBodyValues: undefined,
  maxRetryAfterMs: 0,
  place: 'settings',
};

/**
 * Maps an error from `@infergate/core` to the error type the AI SDK expects:
 * - HTTP and protocol failures → `APICallError` (status, headers incl. `retry-after`, raw body,
 *   `isRetryable`, and the gateway `code` in `data`);
 * - request refused by core's validation before the network → `InvalidArgumentError`;
 * - configuration errors → `LoadAPIKeyError` (field `apiKey`) / `LoadSettingError` (any other),
 *   but one of a call's own options (core's `CALL_OPTIONS`: an `Authorization` header in a call's
 *   `headers`) → `InvalidArgumentError` naming it: no setting failed to load;
 * - an id the catalog does not list, refused before any request → `NoSuchModelError`;
 * - a call ended by the caller's signal → that signal's reason itself, as `fetch` rejects (core
 *   keeps it as the cause): its default `AbortError`, the `TimeoutError` of `AbortSignal.timeout()`
 *   (ai@7's `timeout` builds one; `ai` reads both as an abort), or the caller's own value. Another
 *   abort (none of the caller's) → a DOMException named `AbortError`. Core's own deadline
 *   (`timeoutMs`) and stall timeouts stay `APICallError`s with `data.code: 'timeout'`.
 * Anything else is returned unchanged.
 */
export function mapGatewayError(error: unknown, context: GatewayErrorContext): unknown {
  if (!isGatewayError(error)) return error;

  switch (error.code) {
    case 'aborted':
      // (A signal's reason is never undefined: an abort without one has none of the caller's.)
      return error.cause !== undefined ? error.cause : abortError(error);
    case 'timeout':
      if (isCallerTimeout(error)) return error.cause;
      break;
    case 'configuration_error':
      if (error.field === 'apiKey') return new LoadAPIKeyError({ message: error.message });
      if (context.place !== 'settings' && isCallOption(error.field)) {
        return new InvalidArgumentError({
          argument: error.field,
          message: error.message,
          cause: error,
        });
      }
      return new LoadSettingError({ message: error.message });
    case 'model_not_found':
      // Refused by core's catalog look-up before any request: the id is not listed.
      if (error.status === undefined) return noSuchModel(error, context, error);
      // The gateway's own answer for an embedding engine the cached list still had (a kept
      // engine the gateway has dropped): the same error as the list's refusal, the answer kept
      // as its cause (status, headers, `data.code`).
      if (context.modelType === 'embeddingModel') {
        return noSuchModel(error, context, apiCallError(error, context));
      }
      break;
    case 'invalid_request_error':
      if (error.status === undefined) {
        return new InvalidArgumentError({
          argument: error.field ?? 'request',
          message: error.message,
          cause: error,
        });
      }
      break;
  }

  return apiCallError(error, context);
}

/** The gateway's answer (or a failure to get one) as the AI SDK's `APICallError`. */
function apiCallError(error: GatewayError, context: GatewayErrorContext): APICallError {
  return new APICallError({
    message: error.message,
    // A key can also sit in the base URL's path (a proxy that routes by key): the URL leaves the
    // process in the error's JSON and logs, as core's own messages do, redacted.
    url: redactKey(context.url),
    requestBodyValues: sentBody(context),
    statusCode: error.status,
    // Core keeps the error response's headers (retry-after, x-service-model, …) as they came.
    responseHeaders: error.responseHeaders,
    responseBody: error.body,
    cause: error,
    // Core's retry policy decides; only the wait limit is this provider's, capped below 60 s:
    // `ai` (6 and 7, `getRetryDelayInMs`) waits a `Retry-After` only under 60 s and retries a
    // longer one after its own backoff (2 s first), long before the gateway asked.
    isRetryable: isRetryableWithin(error, Math.min(context.maxRetryAfterMs, 59_999)),
    data: gatewayErrorData(error),
  });
}

/**
 * The body as sent, with this provider's key redacted where a caller pasted it (the model id, a
 * fallback's, any string or name): one substring check per string, no other client's key looked
 * for (a body of megabytes in a process of many tenants: a tenant's key in the user's text is the
 * user's content), the rest copied as it is.
 */
function sentBody({ requestBodyValues: body, sentKey }: GatewayErrorContext): unknown {
  const key = sentKey?.();
  if (body === undefined || key === undefined || key.length < 4) return body;
  // (`redactKey` only on a string that holds the key: rare, the registry's scan paid there alone.)
  return redactValue(body, (text) => (text.includes(key) ? redactKey(text, key) : text), true);
}

/** A field core checks as a call's option (`headers`, `timeoutMs`, …): the call gave it. */
function isCallOption(field: string | undefined): field is string {
  return field !== undefined && Object.hasOwn(CALL_OPTIONS.fields, field);
}

/**
 * Runs a call the provider makes outside its models (the catalog, the service helpers), a failure
 * mapped by `mapGatewayError` and reported against `path`.
 */
export async function withMappedErrors<T>(
  config: GatewayModelConfig,
  path: string,
  requestBodyValues: unknown,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw mapGatewayError(error, {
      url: endpointURL(config, path),
      requestBodyValues,
      sentKey: config.sentKey,
      maxRetryAfterMs: config.maxRetryAfterMs,
    });
  }
}

/**
 * The gateway-specific facts of an error (core's `errorFacts`: its code and every field it sets),
 * with the parsed body as `body`, as JSON for `APICallError.data` and stream errors. A body's
 * `error` object (`{error: {message, code, type, param}}`, the gateway's or a model server's) is
 * `error` too, where `@ai-sdk/openai-compatible` puts it (its `data` is the parsed body): code
 * reading `data.error.code` finds the server's own code (`context_length_exceeded`), `data.code`
 * staying ours. Both are core's parsed body, the key already redacted from it.
 */
function gatewayErrorData(error: GatewayError): JSONObject {
  const data = errorFacts(error);
  if (error.data !== undefined) data.body = error.data;
  const server = isObject(error.data) ? error.data.error : undefined;
  if (isObject(server)) data.error = server;
  return data as JSONObject;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Sets `cause` as an own property (`NoSuchModelError` and `DOMException` take no `cause` option). */
/** A `NoSuchModelError` for the engine or model `error` names (else the one sent), with `cause`. */
function noSuchModel(
  error: GatewayError,
  context: GatewayErrorContext,
  cause: Error,
): NoSuchModelError {
  const sent = (context.requestBodyValues as { model?: unknown } | undefined)?.model;
  const modelId = error.model ?? error.requestedModel ?? (typeof sent === 'string' ? sent : '');
  return withCause(
    new NoSuchModelError({
      modelId,
      modelType: context.modelType ?? 'languageModel',
      message: error.message,
    }),
    cause,
  );
}

function withCause<T extends Error>(error: T, cause: Error): T {
  Object.defineProperty(error, 'cause', { value: cause, configurable: true, writable: true });
  return error;
}

/**
 * A `timeout` that the caller's signal ended: core keeps that signal's reason as the cause, a
 * `TimeoutError` (its own deadline keeps the failed attempt or nothing, a stall sets `stall`).
 */
function isCallerTimeout(error: GatewayError): boolean {
  const { cause } = error as { cause?: unknown };
  return (
    error.stall === undefined &&
    typeof cause === 'object' &&
    cause !== null &&
    (cause as { name?: unknown }).name === 'TimeoutError'
  );
}

function abortError(cause: GatewayError): Error {
  return withCause(
    new DOMException(cause.message || 'The operation was aborted.', 'AbortError'),
    cause,
  );
}

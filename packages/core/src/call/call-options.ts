// docs/gateway-protocol.md §2.3 (headers a call adds), §2.5 (its deadline), §10.5 (its retries),
// §4.7 (its stall timeouts).
import { GatewayError } from '../errors/errors';
import { MAX_TIMEOUT_MS } from './call-scope';

export interface CallOptions {
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** Overrides the client's `timeoutMs` for this call (a finite number > 0; clamped to 2^31 − 1). */
  timeoutMs?: number;
  /** Overrides the client's `maxRetries` for this call (an integer ≥ 0; `0`: one attempt). */
  maxRetries?: number;
  /**
   * Service calls (embeddings, translation, OCR, transcription): called with the status and
   * headers of each successful answer, once its body was read (a batch of `embedMany` calls it
   * once per request). Chat results carry their headers themselves.
   */
  onResponse?: (response: GatewayResponseInfo) => void;
}

/**
 * Stall timeouts of a chat call (client options, overridden per call). Off unless set; a finite
 * number of ms > 0, clamped to 2^31 − 1. A stall aborts the request, gives its slot back at once
 * and fails with `timeout` and `stall` (its phase, the wait, the limit).
 */
export interface StallTimeoutOptions {
  /**
   * Longest wait from sending a request to the first byte of its answer (a stream's first chunk;
   * a non-streamed answer's headers). A stall here counts like a busy model: the call moves to
   * its next `fallbackModels` entry at once, or is retried.
   */
  firstChunkTimeoutMs?: number;
  /**
   * Longest silence between two chunks of a stream, once it has begun. A stall here is final:
   * part of the answer has reached the caller, so nothing is retried.
   */
  chunkTimeoutMs?: number;
}

/** What `CallOptions.onResponse` is told about one successful answer. */
export interface GatewayResponseInfo {
  status: number;
  headers: Headers;
  /** The parsed body (a service's JSON answer) or the text of a `text` answer. */
  body: unknown;
}

/** Per-call options are checked like the client's, before anything is queued. */
export function checkCallOptions(options: CallOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw new GatewayError({
      code: 'invalid_request_error',
      message: `call options must be an object, got ${options === null ? 'null' : typeof options}`,
      field: 'options',
    });
  }
  const { maxRetries, timeoutMs, signal } = options;
  if (
    timeoutMs !== undefined &&
    !(typeof timeoutMs === 'number' && Number.isFinite(timeoutMs) && timeoutMs > 0)
  ) {
    throw new GatewayError({
      code: 'configuration_error',
      message: `timeoutMs (call option) must be a finite number > 0, got ${typeof timeoutMs === 'number' ? String(timeoutMs) : `a ${typeof timeoutMs}`}`,
      field: 'timeoutMs',
    });
  }
  if (signal !== undefined && !isAbortSignal(signal)) {
    throw new GatewayError({
      code: 'invalid_request_error',
      message: `signal (call option) must be an AbortSignal, got ${signal === null ? 'null' : typeof signal}`,
      field: 'signal',
    });
  }
  if (maxRetries !== undefined && !(Number.isInteger(maxRetries) && maxRetries >= 0)) {
    throw new GatewayError({
      code: 'configuration_error',
      message: `maxRetries (call option) must be an integer ≥ 0, got ${String(maxRetries)}`,
      field: 'maxRetries',
    });
  }
}

/** An AbortSignal, also one from another realm (checked by shape, not by `instanceof`). */
function isAbortSignal(value: unknown): value is AbortSignal {
  const signal = value as Partial<AbortSignal> | null;
  return (
    typeof signal === 'object' &&
    signal !== null &&
    typeof signal.aborted === 'boolean' &&
    typeof signal.addEventListener === 'function' &&
    typeof signal.removeEventListener === 'function'
  );
}

/**
 * A chat call's stall timeouts, checked like its `timeoutMs` (a finite number > 0, else
 * `configuration_error` naming the field, before anything is queued) and clamped to the longest
 * timer. Undefined: the client's.
 */
export function readStallTimeouts(options: StallTimeoutOptions | undefined): {
  firstChunkMs?: number;
  chunkMs?: number;
} {
  const read = (field: 'firstChunkTimeoutMs' | 'chunkTimeoutMs'): number | undefined => {
    const value: unknown = options?.[field];
    if (value === undefined) return undefined;
    if (typeof value === 'number' && Number.isFinite(value) && value > 0) {
      return Math.min(MAX_TIMEOUT_MS, value);
    }
    throw new GatewayError({
      code: 'configuration_error',
      message: `${field} (call option) must be a finite number > 0, got ${typeof value === 'number' ? String(value) : `a ${typeof value}`}`,
      field,
    });
  };
  const firstChunkMs = read('firstChunkTimeoutMs');
  const chunkMs = read('chunkTimeoutMs');
  return { firstChunkMs, chunkMs };
}

import type { CallOptions } from '../client/client-types';
import { GatewayError } from '../errors/errors';

/** Per-call options are checked like the client's, before anything is queued. */
export function checkCallOptions(options: CallOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw new GatewayError({
      code: 'invalid_request_error',
      message: `call options must be an object, got ${options === null ? 'null' : typeof options}`,
      field: 'options',
      isRetryable: false,
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
      isRetryable: false,
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

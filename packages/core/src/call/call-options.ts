// docs/gateway-protocol.md §2.3 (headers a call adds), §2.5 (its deadline), §10.5 (its retries).
import { GatewayError } from '../errors/errors';
import { optionKeys, refuseUnknownOptions, STEERING_OPTIONS } from './option-groups';

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
  // A key no call reads is a typo that would do nothing: refused, naming the closest one.
  refuseUnknownOptions(options, ANY_CALL_OPTION_KEYS, 'call options', 'call option');
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

/** The keys every call takes (`CallOptions`). */
const CALL_OPTION_KEYS = [
  'signal',
  'headers',
  'timeoutMs',
  'maxRetries',
  'onResponse',
] as const satisfies readonly (keyof CallOptions)[];
true satisfies Exclude<keyof CallOptions, (typeof CALL_OPTION_KEYS)[number]> extends never
  ? true
  : false;

/**
 * Every key some call reads (a chat call's, a stream's `assemble` and `streamUsage`,
 * `CheckModelOptions`' `known`, `purpose`, `anyOf`; `EmbedManyOptions`' `model`, `inputType`,
 * `dimensions`): any call refuses a key none reads, before anything is sent.
 */
const ANY_CALL_OPTION_KEYS = [
  ...CALL_OPTION_KEYS,
  ...optionKeys(STEERING_OPTIONS),
  'capabilities',
  'assemble',
  'streamUsage',
  'known',
  'purpose',
  'anyOf',
  'model',
  'inputType',
  'dimensions',
];

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

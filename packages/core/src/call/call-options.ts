// docs/gateway-protocol.md §2.3 (headers a call adds), §2.5 (its deadline), §10.5 (its retries).
import { GatewayError } from '../errors/errors';
import {
  checkGroup,
  type GatewayHeaders,
  kindOf,
  type OptionGroup,
  type OptionPlace,
  optionKeys,
  refusal,
  refuseUnknownOptions,
  STEERING_OPTIONS,
  TIMEOUT_OPTIONS,
} from './option-groups';

export interface CallOptions {
  signal?: AbortSignal;
  /** Headers of this call's requests, over the client's (see `GatewayHeaders`). */
  headers?: GatewayHeaders;
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

/** Every call's options; `maxRetries` takes the client's default, so it has none here. */
export const CALL_OPTIONS: OptionGroup<CallOptions> = {
  name: 'call options',
  fields: {
    signal: {},
    headers: { kind: 'headers' },
    timeoutMs: TIMEOUT_OPTIONS.fields.timeoutMs,
    maxRetries: { kind: 'integer', min: 0 },
    onResponse: { kind: 'function' },
  },
};

/**
 * Per-call options are checked like the client's, before anything is queued: once per public
 * call, where it begins (the client's `#run`, the chat entries); what it calls trusts them.
 */
export function checkCallOptions(options: CallOptions | undefined): void {
  // (None given, `null` too: nothing to check.)
  if (options == null) return;
  if (typeof options !== 'object') {
    throw new GatewayError({
      code: 'invalid_request_error',
      message: `call options must be an object, got ${typeof options}`,
      field: 'options',
    });
  }
  // A key no call reads is a typo that would do nothing: refused, naming the closest one.
  refuseUnknownOptions(options, ANY_CALL_OPTION_KEYS, 'call options', 'call option');
  // Every option of a kind by its rule (`onResponse` that is no function was dropped unseen); a
  // bad one is a `configuration_error`, as from the client (fixed when the code is).
  checkGroup(CALL_OPTIONS, options, 'call option', '', 'configuration_error');
  const { signal, capabilities } = options as CallOptions & { capabilities?: unknown };
  readCapabilityList(capabilities, 'call option');
  if (signal !== undefined && !isAbortSignal(signal)) {
    throw refusal('call option', 'signal', `must be an AbortSignal, got ${kindOf(signal)}`);
  }
}

/**
 * Known capabilities as given (a chat call's, an adapter's model setting): a list, else refused
 * naming `capabilities` and the place (`'chat'` would pass the gate as a string's letters).
 */
export function readCapabilityList(
  capabilities: unknown,
  place: OptionPlace,
): readonly string[] | undefined {
  if (capabilities !== undefined && !Array.isArray(capabilities)) {
    throw refusal(place, 'capabilities', `must be a list, got ${kindOf(capabilities)}`);
  }
  return capabilities;
}

/**
 * Every key some call reads (a chat call's, a stream's `assemble` and `streamUsage`,
 * `CheckModelOptions`' `known`, `purpose`, `anyOf`; `EmbedManyOptions`' `model`, `inputType`,
 * `dimensions`, `maxConcurrency`): any call refuses a key none reads, before anything is sent.
 */
const ANY_CALL_OPTION_KEYS = [
  ...optionKeys(CALL_OPTIONS),
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
  'maxConcurrency',
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

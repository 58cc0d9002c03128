// docs/gateway-protocol.md §10.2 (gateway codes), §10.4 (client codes), §10.5 (`isRetryable`,
// decided by the retry policy).
import type {
  FailedChatRoute,
  InvalidStructuredOutput,
  SkippedModel,
} from '../protocol/chat-route';
import {
  GATEWAY_ERROR_CODES,
  type GatewayErrorCode,
  type GatewayServerErrorCode,
} from '../protocol/error-codes';
import type { ModelCapability, Usage } from '../protocol/wire-types';
import { clip, escapeControl } from './escape-control';
import { redactedCause } from './redact-cause';
import { ownRedaction, redactSecret, redactValue } from './redact-secret';
import { type FailureContext, isRetryableFailure } from './retryable-failure';

export {
  CLIENT_ERROR_CODES,
  GATEWAY_ERROR_CODES,
  type GatewayClientErrorCode,
  type GatewayErrorCode,
  type GatewayServerErrorCode,
} from '../protocol/error-codes';

const serverCodes: ReadonlySet<string> = new Set(GATEWAY_ERROR_CODES);

export function isGatewayServerErrorCode(code: unknown): code is GatewayServerErrorCode {
  return typeof code === 'string' && serverCodes.has(code);
}

export interface GatewayErrorOptions {
  code: GatewayErrorCode;
  message: string;
  status?: number;
  type?: string;
  retryAfterMs?: number;
  /** Raw response body (text). */
  body?: string;
  /** Parsed JSON body, when the body was JSON. */
  data?: unknown;
  /** The headers of the error response (names in lower case; never `set-cookie`). */
  responseHeaders?: Record<string, string>;
  requestedModel?: string;
  servedModel?: string;
  model?: string;
  missing?: ModelCapability[];
  capabilities?: readonly string[];
  alternatives?: string[];
  field?: string;
  /** A stall timeout (`timeout`): which phase stalled, how long it waited, the limit. */
  stall?: GatewayStall;
  /** `no_model_can_serve`: every listed model, and why it was left out. */
  skipped?: SkippedModel[];
  /** An error of a steered call: the models it skipped and tried, and how each failed. */
  route?: FailedChatRoute;
  /** `invalid_structured_output`: the method, the answer's text and how it breaks the schema. */
  invalidOutput?: InvalidStructuredOutput;
  /** `invalid_structured_output`: the refused answer's token usage (its tokens were spent). */
  usage?: Usage;
  cause?: unknown;
}

/** Where a stream stalled: before its first chunk, or in the silence between two chunks. */
export type StallPhase = 'first-chunk' | 'between-chunks';

/**
 * A stall timeout (`firstChunkTimeoutMs`, `chunkTimeoutMs`): the phase, how long nothing came
 * (`waitedMs`), and the limit that was passed (`limitMs`).
 */
export interface GatewayStall {
  phase: StallPhase;
  waitedMs: number;
  limitMs: number;
}

const BRAND = Symbol.for('@infergate/core.GatewayError');

/** The optional fields copied from the options (only when given, so errors stay small in logs). */
const OPTIONAL_FIELDS = [
  'status',
  'type',
  'retryAfterMs',
  'body',
  'data',
  'responseHeaders',
  'requestedModel',
  'servedModel',
  'model',
  'missing',
  'capabilities',
  'alternatives',
  'field',
  'stall',
  'skipped',
  'route',
  'invalidOutput',
  'usage',
] as const;

/** The fields that are the HTTP response itself: an adapter carries them in its own error's fields. */
const RESPONSE_FIELDS: ReadonlySet<string> = new Set(['body', 'data', 'responseHeaders']);

/**
 * What an error tells beyond its message and its HTTP response: `code` and each optional field set
 * (`status`, `model`, `route`, `usage`, …), for an adapter's error data (the AI SDK's
 * `APICallError.data`). The body and headers are left out: adapters carry them in fields of their
 * own. Redacted as the error is (`redactOwnKey`): the values are the error's own.
 */
export function errorFacts(error: GatewayError): Record<string, unknown> {
  const facts: Record<string, unknown> = { code: error.code };
  for (const key of OPTIONAL_FIELDS) {
    if (!RESPONSE_FIELDS.has(key) && error[key] !== undefined) facts[key] = error[key];
  }
  return facts;
}

/** The one error type of infergate; branch on `code`. */
export class GatewayError extends Error {
  override readonly name = 'GatewayError';
  readonly code: GatewayErrorCode;
  /** Whether core's retry policy retries this failure (errors/retryable-failure.ts). */
  readonly isRetryable: boolean;
  declare readonly status?: number;
  declare readonly type?: string;
  declare readonly retryAfterMs?: number;
  /** The raw response body (text), whatever its shape. */
  declare readonly body?: string;
  /** The parsed JSON body, when the body was JSON. */
  declare readonly data?: unknown;
  /**
   * The headers of the HTTP error response it came with (`retry-after`, `x-service-model`, …),
   * names in lower case. `set-cookie` is left out, and the API key is redacted from any value.
   */
  declare readonly responseHeaders?: Record<string, string>;
  declare readonly requestedModel?: string;
  declare readonly servedModel?: string;
  /** Capability / not-found errors: the model (or engine) in question. */
  declare readonly model?: string;
  /** Capability errors: what the model lacks. */
  declare readonly missing?: ModelCapability[];
  /**
   * Capability errors: the capabilities the model was checked against (listed, or as the caller
   * knew them), so a caller learns them from the refusal without reading the catalog again.
   */
  declare readonly capabilities?: readonly string[];
  /** Capability / not-found errors: listed models (or engines) that would do. */
  declare readonly alternatives?: string[];
  /** Validation errors: the offending field, as a path (`messages`, `input[3]`). */
  declare readonly field?: string;
  /** Stall timeouts (`timeout`): the phase that stalled, how long it waited, the limit. */
  declare readonly stall?: GatewayStall;
  /** `no_model_can_serve`: every listed model and why it was left out, before any request. */
  declare readonly skipped?: SkippedModel[];
  /**
   * Every error of a steered call (`fallbackModels`, stall timeouts, hedge): its route, the models
   * it skipped and tried and how each failed, the last hop the failure that ended the call.
   */
  declare readonly route?: FailedChatRoute;
  /**
   * `invalid_structured_output`: how the hop asked for the schema (`method`), the answer's text
   * and the validation issues (the text kept whole here; `toJSON` cuts it like `body`).
   */
  declare readonly invalidOutput?: InvalidStructuredOutput;
  /**
   * `invalid_structured_output`: the token usage of the answer the check refused, when the
   * gateway reported it (the tokens were spent, and billed, though no answer is returned).
   */
  declare readonly usage?: Usage;

  /**
   * `instanceof GatewayError` holds for an error made by any copy of core: the CJS build loads the
   * main entry and `@infergate/core/internal` as separate copies. (Not meant to be subclassed: one
   * error type, branch on `code`.)
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isGatewayError(value);
  }

  constructor(given: GatewayErrorOptions) {
    const cause = safeCause(given.cause);
    const options = cause === given.cause ? given : { ...given, cause };
    // Messages quote model ids and the gateway's words: printed, they stay one line.
    super(
      escapeControl(options.message),
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.code = options.code;
    // The retry policy alone decides, from the error's own fields.
    this.isRetryable = isRetryableFailure(options);
    const self = this as unknown as Record<string, unknown>;
    for (const key of OPTIONAL_FIELDS) if (options[key] !== undefined) self[key] = options[key];
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** A plain, log-friendly object (no stack, no parsed `data`; the body cut to 2000 characters). */
  toJSON(): Record<string, unknown> {
    const json: Record<string, unknown> = {
      name: this.name,
      code: this.code,
      message: this.message,
      isRetryable: this.isRetryable,
    };
    for (const key of OPTIONAL_FIELDS) {
      const value = this[key];
      if (value !== undefined && key !== 'data') json[key] = value;
    }
    if (this.body !== undefined) json.body = clip(this.body, 2000);
    if (this.invalidOutput !== undefined) {
      const { text, toolCall, sentToolCalls } = this.invalidOutput;
      const output: InvalidStructuredOutput = { ...this.invalidOutput, text: clip(text, 2000) };
      if (toolCall) output.toolCall = clippedCall(toolCall);
      if (sentToolCalls) output.sentToolCalls = sentToolCalls.map(clippedCall);
      json.invalidOutput = output;
    }
    const cause = causeAsJSON(this.cause);
    if (cause !== undefined) json.cause = cause;
    return json;
  }
}

/** A tool call of `invalidOutput` as `toJSON` gives it: its arguments cut to 2000 characters. */
function clippedCall<Call extends { arguments: string }>(call: Call): Call {
  return { ...call, arguments: clip(call.arguments, 2000) };
}

/**
 * A GatewayError judged by the retry policy with what only its maker knows beyond the error's
 * fields: the client's `maxRetryAfterMs`, a stream lost before its first bytes.
 */
export function gatewayFailure(
  options: GatewayErrorOptions,
  context: FailureContext,
): GatewayError {
  const error = new GatewayError(options);
  (error as { isRetryable: boolean }).isRetryable = isRetryableFailure(options, context);
  return error;
}

/**
 * `error`, its `isRetryable` read again with what only its reader knows (`context`: a 2xx body that
 * reported it instead of any content). Returns `error`.
 */
export function withFailureContext(error: GatewayError, context: FailureContext): GatewayError {
  (error as { isRetryable: boolean }).isRetryable = isRetryableFailure(error, context);
  return error;
}

/**
 * Every string an error carries leaves the client: the API key of the client whose call made it
 * (`owner`: that client's transport, errors/redact-secret.ts) is redacted, in place, from its
 * message, stack, body, data (after JSON decoding, so escaped echoes are caught), headers, other
 * text fields and cause (a GatewayError cause likewise; any other cause holding the key at any
 * depth is rebuilt, errors/redact-cause.ts). Only that key: what reaches an error reaches it
 * through its own client's call, and the cost does not grow with the number of other clients
 * alive. Returns `error`; anything that is not a GatewayError, or an owner without a key, is left
 * as it is.
 */
export function redactOwnKey<T>(error: T, owner: object | undefined): T {
  const redact = owner === undefined ? undefined : ownRedaction(owner);
  if (redact !== undefined && isGatewayError(error)) redactInPlace(error, redact, 0);
  return error;
}

/** The API key a refusal must not show: given, or read only when a refusal is built (the environment's). */
export type SecretSource = string | undefined | (() => string | undefined);

/**
 * `read()`, with a GatewayError it throws redacted in place of `secret` (as `redactOwnKey` redacts a
 * call's): the one guard of a reading of options given by a user, around all of it, so that every
 * group read inside (a `hedge`, a `circuitBreaker`, one added later) keeps the key out of the key
 * names it quotes — a key pasted as an option's name, at any depth. The secret is read only then.
 */
export function keyKeptOut<T>(secret: SecretSource, read: () => T): T {
  try {
    return read();
  } catch (error) {
    const key = typeof secret === 'function' ? secret() : secret;
    if (key !== undefined && isGatewayError(error)) {
      redactInPlace(error, (text) => redactSecret(text, key), 0);
    }
    throw error;
  }
}

function redactInPlace(error: GatewayError, redact: (text: string) => string, depth: number): void {
  const self = error as unknown as Record<string, unknown>;
  self.message = redact(error.message);
  if (typeof error.stack === 'string') self.stack = redact(error.stack);
  // Every field, lists and objects too: a key pasted into `fallbackModels` comes back in the
  // skips and the route, and `data` is walked decoded, so an escaped echo is caught.
  for (const key of OPTIONAL_FIELDS) {
    const value = self[key];
    if (typeof value === 'string') self[key] = redact(value);
    else if (typeof value === 'object' && value !== null) self[key] = redactValue(value, redact);
  }
  const cause: unknown = error.cause;
  if (isGatewayError(cause)) {
    if (depth < 8) redactInPlace(cause, redact, depth + 1);
  } else if (cause !== undefined) {
    const safe = redactedCause(cause, redact);
    if (safe !== cause) self.cause = safe;
  }
}

/**
 * A cause safe to keep: a `SyntaxError` from `JSON.parse` quotes the start of the text it could not
 * read (which may be anything the gateway sent), so it is replaced by one that does not.
 */
function safeCause(cause: unknown): unknown {
  if (!(cause instanceof SyntaxError)) return cause;
  const position = /at position \d+/.exec(cause.message)?.[0];
  const safe = new SyntaxError(`The text is not valid JSON${position ? ` (${position})` : ''}`);
  safe.stack = `SyntaxError: ${safe.message}`;
  return safe;
}

/** A cause as plain JSON for `toJSON` (a GatewayError as its own JSON). */
function causeAsJSON(cause: unknown): unknown {
  if (cause === undefined) return undefined;
  if (cause instanceof GatewayError) return cause.toJSON();
  if (cause instanceof Error) return { name: cause.name, message: cause.message };
  if (typeof cause === 'string' || typeof cause === 'number' || typeof cause === 'boolean')
    return cause;
  return String(cause);
}

/** A thrown value's message for an error message, with its cause's (fetch hides the reason in `cause`). */
export function describeCause(cause: unknown): string {
  if (cause instanceof Error) {
    const inner = cause.cause instanceof Error ? ` (${cause.cause.message})` : '';
    return `${cause.message}${inner}`;
  }
  return String(cause);
}

/** True for a GatewayError, also one made by another copy of this package (ESM + CJS). */
export function isGatewayError(error: unknown): error is GatewayError {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as Record<symbol, unknown>)[BRAND] === true
  );
}

/**
 * A validation refusal (`invalid_request_error`, nothing sent): the message is `<field>: <what is
 * wrong>`, naming the actual value or size and the limit; `field` is set.
 */
export function invalidRequest(field: string, message: string): GatewayError {
  return new GatewayError({
    code: 'invalid_request_error',
    message: `${field}: ${message}`,
    field,
  });
}

// docs/gateway-protocol.md §2.5 (a call's deadline), §4.7 (a chat call's steering): each option
// group declared once — its type, and a descriptor the adapters build their settings, schemas and
// flags from — and the one check that refuses a key no group knows.
import { closeMatches } from '../errors/close-names';
import { GatewayError, type GatewayErrorCode } from '../errors/errors';
import { clip } from '../errors/escape-control';
import type { StandardSchemaLike, StructuredOutputMethod } from '../protocol/chat-route';

/** One option of a group: its key is the name; `flag: 'ms'` when a command line may set it. */
export interface OptionField {
  /** A number of ms a command line may set (MCP's `--kebab-case-name N`). */
  readonly flag?: 'ms';
}

/** A group's descriptor: its name and every field of its type, each once. */
export interface OptionGroup<T> {
  readonly name: string;
  readonly fields: { readonly [K in keyof Required<T>]: OptionField };
}

/** The keys of a group, as given to the unknown-key check. */
export function optionKeys<T>(group: OptionGroup<T>): (keyof T & string)[] {
  return Object.keys(group.fields) as (keyof T & string)[];
}

/** A call's deadline and its stall timeouts (`timeouts`). */
export interface TimeoutOptions {
  /** Deadline of one call: queue + retries + body or stream. Default 300 000 ms (clamped to 2^31 − 1). */
  timeoutMs?: number;
  /**
   * Chat calls: longest wait from sending a request to the first content of its answer (a streamed
   * text, reasoning or tool-call piece, or its finish; SSE comments, role-only and empty chunks do
   * not count; a non-streamed answer's headers). A stall counts like a busy model: the call moves
   * to its next model at once, or is retried. Off unless set.
   */
  firstChunkTimeoutMs?: number;
  /**
   * Chat streams: longest silence between two pieces of content once the first came (comments and
   * empty chunks do not count). A stall here is final (`timeout`): part of the answer has reached
   * the caller, so nothing is retried. Off unless set.
   */
  chunkTimeoutMs?: number;
}

const MS_FLAG: OptionField = { flag: 'ms' };

export const TIMEOUT_OPTIONS: OptionGroup<TimeoutOptions> = {
  name: 'timeouts',
  fields: {
    timeoutMs: MS_FLAG,
    firstChunkTimeoutMs: MS_FLAG,
    chunkTimeoutMs: MS_FLAG,
  },
};

/** A second attempt when the first has not answered in time (`hedge`). */
export interface HedgeOptions {
  /**
   * How long to wait for the first attempt's first content before sending a second one: ms, or
   * `'auto'` (a running estimate of the model's p95 time to first content, within bounds).
   */
  afterMs: number | 'auto';
  /** The share of extra requests hedging may add, over a sliding window. Default 0.1. */
  maxExtra?: number;
}

export const HEDGE_OPTIONS: OptionGroup<HedgeOptions> = {
  name: 'hedge',
  fields: {
    afterMs: {},
    maxExtra: {},
  },
};

/** Per-model circuit breakers of calls with `fallbackModels` (client option `circuitBreaker`). */
export interface CircuitBreakerOptions {
  /** Failures in a row that open a model's breaker. Default 3. */
  failures?: number;
  /** The first cooldown, ms; it doubles with each failed probe in a row. Default 5 000. */
  cooldownMs?: number;
  /** The longest cooldown, ms (not less than `cooldownMs`). Default 60 000. */
  maxCooldownMs?: number;
  /**
   * The share of a model's recent attempts (its last 20 in the last minute, judged from 10) that
   * failed, from which the call tries it after the listed models that fail less, even with free
   * capacity: a model failing often but never `failures` times in a row. In (0, 1]. Default 0.2.
   */
  failureShare?: number;
}

export const CIRCUIT_BREAKER_OPTIONS: OptionGroup<CircuitBreakerOptions> = {
  name: 'circuitBreaker',
  fields: {
    failures: {},
    cooldownMs: {},
    maxCooldownMs: {},
    failureShare: {},
  },
};

/**
 * How a call that asks for structured output (`response_format` `json_schema`) is served
 * (`structuredOutput`): the methods each model may use, and the caller's own schema for the check.
 */
export interface StructuredOutputOptions {
  /**
   * The methods a model may serve the schema with, in the order preferred: each model uses the
   * first one its catalog entry lists (`json_schema` natively, `tools` by a forced tool call,
   * `json_object` with the schema stated in a system message); a model with none is skipped.
   * Default `['json_schema', 'tools', 'json_object']`. Each method once; at least one.
   */
  methods?: readonly StructuredOutputMethod[];
  /**
   * The caller's zod (or other Standard Schema) schema: every answer is checked with its
   * `~standard.validate` instead of the JSON Schema, and its output is `ChatResult.structured.value`.
   * A call option only (not a model's setting).
   */
  standard?: StandardSchemaLike;
}

export const STRUCTURED_OUTPUT_OPTIONS: OptionGroup<StructuredOutputOptions> = {
  name: 'structuredOutput',
  fields: {
    methods: {},
    standard: {},
  },
};

/** How a chat call is steered across attempts and models (`steering`). */
export interface SteeringOptions
  extends Pick<TimeoutOptions, 'firstChunkTimeoutMs' | 'chunkTimeoutMs'> {
  /**
   * Models to use, in order, when the call's model cannot serve it: each is checked against the
   * catalog first (like the model itself: listed, with the capabilities the call needs), then
   * tried in order, those with free capacity before the busy and offline ones; the call moves to
   * the next at once when one is busy, unavailable or stalls before its first content. Each id
   * once, and not the call's own model; `[]` turns a model's list off for a call.
   */
  fallbackModels?: readonly string[];
  /** A second attempt when the first is slow to its first content (see `HedgeOptions`); `false`: off. */
  hedge?: HedgeOptions | false;
  /**
   * A call asking for structured output: the methods its models may use (see
   * `StructuredOutputOptions`; `standard` is a call option only, `ChatCallOptions`).
   */
  structuredOutput?: Pick<StructuredOutputOptions, 'methods'>;
}

export const STEERING_OPTIONS: OptionGroup<SteeringOptions> = {
  name: 'steering',
  fields: {
    fallbackModels: {},
    firstChunkTimeoutMs: TIMEOUT_OPTIONS.fields.firstChunkTimeoutMs,
    chunkTimeoutMs: TIMEOUT_OPTIONS.fields.chunkTimeoutMs,
    hedge: {},
    structuredOutput: {},
  },
};

/** The code of a refused option: a call's is `invalid_request_error`, the others' `configuration_error`. */
export type OptionPlace = 'client option' | 'model setting' | 'call option';

export function optionErrorCode(place: OptionPlace): GatewayErrorCode {
  return place === 'call option' ? 'invalid_request_error' : 'configuration_error';
}

/** Why a key is not known here, when it belongs elsewhere (`fallbackModels` given to a client). */
export type OptionHints = Readonly<Record<string, string>>;

/** A key as quoted in a message: at most 60 characters. */
const quoted = (key: string) => `\`${clip(key, 60)}\``;

/** The refusal of an unknown key of `where`, naming the closest known one. */
export function unknownOptionError(
  key: string,
  known: readonly string[],
  where: string,
  place: OptionPlace,
  hints: OptionHints = {},
): GatewayError {
  const [closest] = closeMatches(key, known, 1);
  const hint =
    hints[key] !== undefined
      ? ` — ${hints[key]}`
      : closest !== undefined
        ? ` — did you mean ${quoted(closest)}?`
        : `; known: ${known.join(', ')}`;
  return new GatewayError({
    code: optionErrorCode(place),
    message: `unknown option ${quoted(key)} in ${where}${hint}`,
    field: key,
  });
}

/**
 * Refuses an object holding a key none of `known` is (an object wholly ours: a client's options, a
 * `hedge`); `undefined` values count as given. Symbol keys are not options.
 */
export function refuseUnknownOptions(
  given: object,
  known: readonly string[],
  where: string,
  place: OptionPlace,
  hints?: OptionHints,
): void {
  for (const key of Object.keys(given)) {
    if (!known.includes(key)) throw unknownOptionError(key, known, where, place, hints);
  }
}

/**
 * Refuses a near miss of one of `ours` in an object shared with a framework or passed on to the
 * model server (LangChain's fields, `providerOptions.infergate`): strict with ours, never with
 * theirs. A key that is ours, listed in `theirs`, or has an `_` (a request field's wire name) passes;
 * any other key close to one of ours is refused as its typo.
 */
export function refuseNearMisses(
  given: object,
  ours: readonly string[],
  theirs: readonly string[],
  where: string,
  place: OptionPlace,
): void {
  for (const key of Object.keys(given)) {
    if (ours.includes(key) || theirs.includes(key) || key.includes('_')) continue;
    // By edit distance only: a field of theirs inside one of ours (`stream`, `streamUsage`) passes.
    if (closeMatches(key, ours, 1, false).length > 0) {
      throw unknownOptionError(key, ours, where, place);
    }
  }
}

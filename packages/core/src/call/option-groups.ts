// docs/gateway-protocol.md §2.5 (a call's deadline), §4.7 (a chat call's steering): each option
// group declared once — its type, and a descriptor the adapters build their settings, schemas and
// flags from — and the one check that refuses a key no group knows.
import { closeMatches } from '../errors/close-names';
import { GatewayError, type GatewayErrorCode } from '../errors/errors';
import { quotedName } from '../errors/escape-control';
import { redactSecret } from '../errors/redact-secret';
import type { StandardSchemaLike, StructuredOutputMethod } from '../protocol/chat-route';
import { MAX_TIMEOUT_MS } from './timer-limit';

/**
 * One option of a group: its key is the name. Its rule (`kind`) and default are here, read by
 * `readGroup` and `readNumber`; an option without a kind has its own reader (a list, an object).
 */
export interface OptionField {
  /**
   * `'ms'`: a finite number of ms > 0, clamped to the longest timer (and, in the `timeouts`
   * group, a command line's `--kebab-case-name N`); `'integer'`: an integer ≥ `min`; `'share'`:
   * a share in (0, 1]; `'boolean'`, `'function'`, `'string'`: a value of that type; `'headers'`:
   * what fetch takes as headers (`HeadersInit`: an object of names to values, a `Headers`, or
   * `[name, value]` pairs).
   */
  readonly kind?: 'ms' | 'integer' | 'share' | 'boolean' | 'function' | 'string' | 'headers';
  /** An integer's least value. */
  readonly min?: number;
  /** An integer's greatest value (none: no bound), and what it counts (`ms`), both named by its rule. */
  readonly max?: number;
  readonly unit?: string;
  /** The value when none is given (none: the option is off, or required). */
  readonly default?: number | boolean;
  /** A word taken instead of a number, read by the group's own reader (`hedge.afterMs`: `'auto'`). */
  readonly or?: string;
}

/** A group's descriptor: its name and every field of its type, each once. */
export interface OptionGroup<T> {
  readonly name: string;
  readonly fields: { readonly [K in keyof Required<T>]: OptionField };
}

/**
 * Every key of `T` once, as an object literal's keys (each valued `Value`): a key missing or extra
 * fails to compile. For the adapters' lists of known keys, given to the unknown-key check.
 */
export type EveryKey<T, Value = true> = { readonly [K in keyof Required<T>]: Value };

/**
 * `true` when `Keys` names every key of `T` (`true satisfies ListsEveryKey<T, typeof KEYS>`): a key
 * added to `T` and not to the list fails to compile.
 */
export type ListsEveryKey<T, Keys extends readonly (keyof T)[]> =
  Exclude<keyof T, Keys[number]> extends never ? true : false;

/** The keys of a group, as given to the unknown-key check. */
export function optionKeys<T>(group: OptionGroup<T>): (keyof T & string)[] {
  return Object.keys(group.fields) as (keyof T & string)[];
}

/** The descriptors' lines: a number of ms, an integer ≥ `min`, a share in (0, 1]. */
export const ms = (fallback?: number): OptionField => ({ kind: 'ms', default: fallback });
export const integer = (min: number, fallback: number): OptionField => ({
  kind: 'integer',
  min,
  default: fallback,
});
const share = (fallback: number): OptionField => ({ kind: 'share', default: fallback });

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

export const TIMEOUT_OPTIONS: OptionGroup<TimeoutOptions> = {
  name: 'timeouts',
  fields: {
    timeoutMs: ms(300_000),
    firstChunkTimeoutMs: ms(),
    chunkTimeoutMs: ms(),
  },
};

/** A second attempt when the first has not answered in time (`hedge`). */
export interface HedgeOptions {
  /**
   * How long to wait for the first attempt's first content before sending a second one: ms, or
   * `'auto'` (a running estimate of the model's p95 time to first content, within bounds).
   */
  afterMs: number | 'auto';
  /**
   * The share of extra requests hedging may add: a bucket that earns `maxExtra` of a hedge per
   * call, starts with 1 and holds at most max(2, 40 × `maxExtra`). Default 0.1.
   */
  maxExtra?: number;
}

export const HEDGE_OPTIONS: OptionGroup<HedgeOptions> = {
  name: 'hedge',
  fields: {
    // No default: a hedge names its delay.
    afterMs: { kind: 'ms', or: 'auto' },
    maxExtra: share(0.1),
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
    failures: integer(1, 3),
    cooldownMs: ms(5_000),
    // At least `cooldownMs` (`readCircuitBreaker`).
    maxCooldownMs: ms(60_000),
    failureShare: share(0.2),
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
  /**
   * What becomes of an answer that fails the check when no model is left to move on to:
   * `'checked'` (default) refuses it like every other, the call failing with
   * `invalid_structured_output`; `'returned'` hands it on unchecked (its JSON text by the fence
   * rule; `ChatResult.structured` unset, its hop `checked: false`) for a caller that validates it
   * with its own schema after core (the AI SDK: `ai` checks the caller's zod schema, which the JSON
   * Schema it sends may not carry whole). Every hop before the last is still checked and moved on
   * from. An answer with no JSON where its method puts it is handed on too (its text as it came;
   * a schema tool not called: empty). A call option only.
   */
  lastAnswer?: StructuredLastAnswer;
}

/** `structuredOutput.lastAnswer`: the last model's answer that fails the check refused, or handed on. */
export type StructuredLastAnswer = 'checked' | 'returned';

export const STRUCTURED_OUTPUT_OPTIONS: OptionGroup<StructuredOutputOptions> = {
  name: 'structuredOutput',
  fields: {
    methods: {},
    standard: {},
    lastAnswer: {},
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

/**
 * An embeddings object's settings that `embedMany` takes per call: the one rule of each (read by
 * `embedMany` and by an adapter's object as it is made, services/embeddings-settings.ts). Here, with
 * the other groups, so neither reader pulls the other's code into its chunk.
 */
export interface EmbeddingsSettings {
  dimensions?: number;
  maxConcurrency?: number;
}

export const EMBEDDINGS_SETTINGS: OptionGroup<EmbeddingsSettings> = {
  name: 'embeddings',
  fields: {
    dimensions: { kind: 'integer', min: 1 },
    maxConcurrency: { kind: 'integer', min: 1 },
  },
};

/**
 * Core's steering and timeout options by their spelling with no `_`, lower-cased: `fallback_models`
 * or `FIRST_CHUNK_TIMEOUT_MS` in an object whose `_` keys are request fields is one of them spelled
 * another way, refused as its near miss (`refuseNearMisses`), not sent to the model server.
 */
const CORE_OPTION_SPELLINGS: ReadonlyMap<string, string> = new Map(
  [...optionKeys(STEERING_OPTIONS), ...optionKeys(TIMEOUT_OPTIONS)].map((key) => [
    key.toLowerCase(),
    key,
  ]),
);

/** The code of a refused option: a call's is `invalid_request_error`, the others' `configuration_error`. */
export type OptionPlace = 'client option' | 'model setting' | 'call option';

/** Where a refused value was given: core's places, or another package's factory (`createRedisBudget option`). */
export type RefusalPlace = OptionPlace | `${string} option`;

export function optionErrorCode(place: RefusalPlace): GatewayErrorCode {
  return place === 'call option' ? 'invalid_request_error' : 'configuration_error';
}

/** A refused value: the option, its place and what is wrong (`what`: the rule and what was given). */
export function refusal(
  place: RefusalPlace,
  field: string,
  what: string,
  code = optionErrorCode(place),
): GatewayError {
  return new GatewayError({ code, message: `${field} (${place}) ${what}`, field });
}

/** A value named by its type only (an object given by mistake may hold secrets no redactor knows). */
export function kindOf(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return value === '' ? 'an empty string' : 'a string';
  return `a ${typeof value}`;
}

/** A value as a refusal names it: a number as it is (no secret), anything else by its kind. */
export function describeGiven(value: unknown): string {
  return typeof value === 'number' ? String(value) : kindOf(value);
}

/**
 * The one check of a number option given (`undefined` is refused as nothing): the value by its
 * field's rule (ms clamped to the longest timer), else refused naming `name`, the place, the number
 * or kind given, and the rule.
 */
export function readNumber(
  value: unknown,
  field: OptionField,
  name: string,
  place: RefusalPlace,
  code?: GatewayErrorCode,
): number {
  const { kind, min = 1, max = Infinity, unit } = field;
  const valid =
    typeof value === 'number' &&
    (kind === 'integer'
      ? Number.isInteger(value) && value >= min && value <= max
      : kind === 'share'
        ? value > 0 && value <= 1
        : kind === 'ms' && value > 0 && Number.isFinite(value));
  if (valid) return kind === 'ms' ? Math.min(MAX_TIMEOUT_MS, value) : value;
  const rule =
    kind === 'integer'
      ? `an integer${unit ? ` of ${unit}` : ''} ${max < Infinity ? `from ${min} to ${max}` : `≥ ${min}`}`
      : kind === 'share'
        ? 'a share in (0, 1]'
        : kind === 'ms'
          ? `a finite number of ms > 0${field.or === undefined ? '' : ` or '${field.or}'`}`
          : kind === 'headers'
            ? 'an object of header values, a Headers or [name, value] pairs'
            : `a ${kind}`;
  // A string option's number is not quoted: it may be a key.
  const given = kind === 'string' ? kindOf(value) : describeGiven(value);
  throw refusal(place, name, `must be ${rule}, got ${given}`, code);
}

/**
 * Headers as fetch takes them (`HeadersInit`), or an object whose `undefined` and `null` values are
 * left out: the shape the AI SDK's and LangChain's options give (`{ 'x-org': process.env.ORG }`).
 */
export type GatewayHeaders = HeadersInit | Record<string, string | null | undefined>;

/** Headers as fetch takes them (`HeadersInit`): an object (a `Headers` too), or `[name, value]` pairs. */
const isHeadersInit = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  (!Array.isArray(value) || value.every((pair) => Array.isArray(pair) && pair.length === 2));

/**
 * Headers given as fetch takes them, checked (`isHeadersInit`), as an object: a `Headers` or pairs
 * read in order, a name given twice in pairs keeping both values as fetch sends them (`a, b`). An
 * entry whose value is undefined or null is left out (`{ 'x-org': process.env.ORG }` with no
 * `ORG`), not sent as the text "undefined" or "null" (as the AI SDK's `removeUndefinedEntries`). The one reading of every `headers` option: the client's and a call's.
 */
export function headerRecord(init: GatewayHeaders | undefined): Record<string, string> {
  const read = new Map<string, string>();
  if (init === undefined) return {};
  const entries: Iterable<[string, string | null | undefined]> =
    Symbol.iterator in init
      ? (init as Iterable<[string, string]>)
      : Object.entries(init as Record<string, string | null | undefined>);
  for (const [name, value] of entries) {
    if (value === undefined || value === null) continue;
    const before = read.get(name);
    read.set(name, before === undefined ? value : `${before}, ${value}`);
  }
  return Object.fromEntries(read);
}

/**
 * The adapters' model settings that are flags (`sendReasoning`, …): each of `keys` given in
 * `given` is a boolean, else refused (read when the model is built).
 */
export function readFlags(given: object, keys: readonly string[], place: RefusalPlace): void {
  for (const key of keys) {
    const value: unknown = (given as Record<string, unknown>)[key];
    if (value !== undefined && typeof value !== 'boolean') {
      readNumber(value, { kind: 'boolean' }, key, place);
    }
  }
}

/**
 * Every option of `group` in `given` that has a kind: each checked by its rule (a boolean, a
 * function or a string by its type), or its default when not given (`prefix`: how a message names
 * the group's fields, `hedge.` by default; `code`: a refusal's, else the place's).
 */
export function readGroup<T>(
  group: OptionGroup<T>,
  given: object,
  place: OptionPlace,
  prefix = `${group.name}.`,
  code?: GatewayErrorCode,
): Record<string, unknown> {
  const read: Record<string, unknown> = {};
  checkGroup(group, given, place, prefix, code, read);
  return read;
}

/**
 * `readGroup`'s check: each option of `group` given in `given` checked by its rule; with `read`,
 * each one's value (its default when not given) put in it. Without, nothing is built (a call's
 * options, checked on every call).
 */
export function checkGroup<T>(
  group: OptionGroup<T>,
  given: object,
  place: OptionPlace,
  prefix: string,
  code?: GatewayErrorCode,
  read?: Record<string, unknown>,
): void {
  const fields: Record<string, OptionField> = group.fields;
  // (By key: no [key, field] pair made per field.)
  for (const key in fields) {
    const field = fields[key]!;
    if (field.kind === undefined) continue;
    const value: unknown = (given as Record<string, unknown>)[key];
    if (value === undefined) {
      if (read) read[key] = field.default;
      continue;
    }
    const ofKind = field.kind === 'headers' ? isHeadersInit(value) : typeof value === field.kind;
    const checked = ofKind ? value : readNumber(value, field, `${prefix}${key}`, place, code);
    if (read) read[key] = checked;
  }
}

/** Why a key is not known here, when it belongs elsewhere (`fallbackModels` given to a client). */
export type OptionHints = Readonly<Record<string, string>>;

/** The API key `given` options hold, which a refusal quoting their keys must not show. */
const keyOf = (given: object) => {
  const apiKey: unknown = (given as { apiKey?: unknown }).apiKey;
  return typeof apiKey === 'string' ? apiKey : undefined;
};

/**
 * The refusal of an unknown key of `where`, naming the closest known one; `secret` (the API key of
 * the options refused, else the one the client will send) redacted from the key it quotes. Its
 * field is the key's path from the options given (`prefix`: the path of the object it is in, as a
 * bad value's is: `hedge.` for `hedge.after`).
 */
export function unknownOptionError(
  key: string,
  known: readonly string[],
  where: string,
  place: RefusalPlace,
  hints: OptionHints = {},
  secret?: string,
  prefix = '',
): GatewayError {
  const quoted = (name: string) => quotedName(name, 60, secret);
  const closest = closestOption(key, known);
  // Own hints only: `toString` or `constructor` must not find Object.prototype's function.
  const given = Object.hasOwn(hints, key) ? hints[key] : undefined;
  const hint =
    given !== undefined
      ? ` — ${given}`
      : closest !== undefined
        ? ` — did you mean ${quoted(closest)}?`
        : `; known: ${known.join(', ')}`;
  return new GatewayError({
    code: optionErrorCode(place),
    message: `unknown option ${quoted(key)} in ${where}${hint}`,
    field: `${prefix}${redactSecret(key, secret)}`,
  });
}

/**
 * Refuses an object holding a key none of `known` is (an object wholly ours: a client's options, a
 * `hedge`); `undefined` values count as given. Symbol keys are not options. The key quoted is
 * redacted of the `apiKey` the options give; a key given elsewhere is kept out by `keyKeptOut`.
 * `prefix`: the object's path in the options given, for the field (`refuseUnknownInGroup`).
 */
export function refuseUnknownOptions(
  given: object,
  known: readonly string[],
  where: string,
  place: RefusalPlace,
  hints?: OptionHints,
  prefix?: string,
): void {
  for (const key of Object.keys(given)) {
    if (known.includes(key)) continue;
    throw unknownOptionError(key, known, where, place, hints, keyOf(given), prefix);
  }
}

/**
 * Refuses a key of a group's object (`hedge: { after: 200 }`) that is none of its fields, in the
 * group's words ("unknown option `after` in hedge — did you mean `afterMs`?"), its field the key's
 * path from the options given (`hedge.after`), as a bad value's is (`hedge.afterMs`): every options
 * object holding a group holds it at its name.
 */
export function refuseUnknownInGroup<T>(
  group: OptionGroup<T>,
  given: object,
  place: OptionPlace,
): void {
  refuseUnknownOptions(given, optionKeys(group), group.name, place, undefined, `${group.name}.`);
}

/**
 * Refuses a near miss of one of `ours` in an object shared with a framework or passed on to the
 * model server (LangChain's fields, `providerOptions.infergate`): strict with ours, never with
 * theirs. A key whose value is `undefined` sets nothing and passes. A key with a hint (one of
 * core's options that does nothing here) is refused with it. A key that is ours or listed in `theirs` passes; so does a key
 * with an `_` where such keys are request fields' wire names (`wireNames`: call options, provider
 * options, passed on to the model server), unless it is a steering or timeout option of core's
 * spelled another way (its `_` taken out, case ignored: `fallback_models`), refused naming ours (or
 * its hint). Any other key close to one of ours is refused as its typo: `base_url` in a model's
 * fields, which are never sent, is a near miss of `baseURL`; so is one close to a hinted key
 * (`apikey`), naming it and its hint.
 */
export function refuseNearMisses(
  given: object,
  ours: readonly string[],
  theirs: readonly string[],
  where: string,
  place: OptionPlace,
  hints: OptionHints = {},
  wireNames = true,
): void {
  for (const key of Object.keys(given)) {
    // A key left unset (`{ ...shared }` whose `timeoutMs` is undefined) sets nothing: not refused.
    if ((given as Record<string, unknown>)[key] === undefined) continue;
    if (Object.hasOwn(hints, key)) {
      throw unknownOptionError(key, ours, where, place, hints, keyOf(given));
    }
    if (ours.includes(key) || theirs.includes(key)) continue;
    if (wireNames && key.includes('_')) {
      // A request field, unless it is one of core's options spelled another way (`fallback_models`).
      const option = CORE_OPTION_SPELLINGS.get(key.replaceAll('_', '').toLowerCase());
      if (option === undefined || !(ours.includes(option) || Object.hasOwn(hints, option)))
        continue;
      const hint = Object.hasOwn(hints, option) ? { [key]: hints[option]! } : {};
      throw unknownOptionError(key, [option], where, place, hint, keyOf(given));
    }
    // By edit distance only: a field of theirs inside one of ours (`stream`, `streamUsage`) passes.
    // A near miss of a name that belongs elsewhere (`apikey`) is named with where it goes; not of
    // a short one, a letter off other words (`mode`, `node`: LangGraph's keys, not `model`).
    // A near miss of theirs too (`maxConcurency`, `timout`: a typo would leave the call without
    // what it asked), unless it is one of theirs itself (passed above).
    // The closest by letters, unless it is theirs and ours has the key's words (`fallbacks`:
    // `fallbackModels`, not `callbacks`).
    const long = (names: readonly string[]) => names.filter((name) => name.length > 5);
    const elsewhere = long(Object.keys(hints));
    const [best] = closeMatches(key, [...ours, ...elsewhere, ...long(theirs)], 1, false);
    const near =
      sameStems(key, [...ours, ...elsewhere, ...theirs]) ??
      (best !== undefined && !theirs.includes(best) ? best : (sameWords(key, ours) ?? best));
    if (near === undefined) continue;
    // One of ours is named by the refusal's own search; another name with where it goes, if said.
    const goes = Object.hasOwn(hints, near) ? ` ${hints[near]}` : '';
    const hint = ours.includes(near) ? {} : { [key]: `did you mean \`${near}\`?${goes}` };
    throw unknownOptionError(key, ours, where, place, hint, keyOf(given));
  }
}

/**
 * Refuses core's steering and timeout options in request fields passed on to the model server as
 * they are (LangChain's `modelKwargs`): given there, exactly or spelled another way
 * (`fallbackModels`, `fallback_models`, `fallbackModel`), one would reach the model server
 * unsteered. So are `others`, the adapter's options that are no request field either (core's
 * client options: `circuitBreaker` would reach the model server, no breaker set). Each is refused
 * naming the option and where it goes (`goes`), as `providerOptions.infergate` refuses a near miss
 * of one (`refuseNearMisses`, the one rule).
 */
export function refuseOptionsInRequestFields(
  fields: object,
  where: string,
  place: OptionPlace,
  goes: (option: string) => string,
  others: readonly string[] = [],
): void {
  const hints: Record<string, string> = {};
  for (const option of [...CORE_OPTION_SPELLINGS.values(), ...others]) {
    hints[option] = `\`${option}\` is no request field: ${goes(option)}`;
  }
  refuseNearMisses(fields, [], [], where, place, hints);
}

/** A name's words, lower-cased (`maxRetries` → max, retries; `fallback_models` → fallback, models). */
const wordsOf = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split('_')
    .filter((word) => word !== '');

/** A word without its ending (`retries`, `retry` → `retr`; `hedging`, `hedge` → `hedg`). */
const stemOf = (word: string) => {
  const stem = word.replace(/(?:ing|ies|es|s|e|y)$/, '');
  return stem.length >= 3 ? stem : word;
};

/** The shortest head word taken for its option's own (`fallback` for `fallbackModels`). */
const HEAD_WORD_STEM = 7;

/**
 * The name `key` is another spelling of, by its words rather than its letters (what an edit
 * distance misses): the same words but for their endings or case (`maxRetry`, `maxconcurrency`,
 * `hedging`) among `ours` or `others` (names that belong elsewhere, or a framework's), else one of
 * `ours` that starts `key` (`hedgeAfterMs` → `hedge`), or whose first word `key` is alone, a word
 * of 7 letters or more without its ending (`fallback`, `fallbacks` → `fallbackModels`; not
 * `stream`, `model` or `reasoning`, request fields of their own).
 */
export function sameWords(
  key: string,
  ours: readonly string[],
  others: readonly string[] = [],
): string | undefined {
  const words = wordsOf(key);
  const alike = sameStems(key, [...ours, ...others]);
  if (alike !== undefined) return alike;
  return ours.find((name) => {
    const theirs = wordsOf(name);
    if (theirs.length < words.length && theirs.every((word, at) => word === words[at])) return true;
    const head = stemOf(words[0] ?? '');
    return words.length === 1 && theirs.length > 1 && head.length >= HEAD_WORD_STEM
      ? stemOf(theirs[0]!) === head
      : false;
  });
}

/**
 * The name among `names` with `key`'s words but for their endings or case (`maxRetry`,
 * `maxRetires` → `maxRetries`; `maxconcurrency` → `maxConcurrency`): the closest of all when there
 * is one, before a name that merely holds `key`'s letters (not `maxRetryAfterMs`).
 */
function sameStems(key: string, names: readonly string[]): string | undefined {
  const stems = wordsOf(key).map(stemOf).join('');
  return names.find((name) => name !== key && wordsOf(name).map(stemOf).join('') === stems);
}

/**
 * The known name closest to `key`: the same words (`sameStems`), else by its letters
 * (`closeMatches`), else by its words (`sameWords`).
 */
export function closestOption(key: string, known: readonly string[]): string | undefined {
  return sameStems(key, known) ?? closeMatches(key, known, 1)[0] ?? sameWords(key, known);
}

// docs/gateway-protocol.md §2.1 (base URL), §2.5 (4 slots, 300 000 ms deadline), §3.3
// (`catalogTtlMs`), §10.5 (retries).
import type { KeyBudget } from '../budget/key-budget';
import { CALL_OPTIONS } from '../call/call-options';
import {
  CIRCUIT_BREAKER_OPTIONS,
  type CircuitBreakerOptions,
  type GatewayHeaders,
  HEDGE_OPTIONS,
  headerRecord,
  integer,
  type OptionGroup,
  type OptionHints,
  type OptionPlace,
  optionKeys,
  readGroup,
  refuseNearMisses,
  refuseUnknownOptions,
  STEERING_OPTIONS,
  type SteeringOptions,
  TIMEOUT_OPTIONS,
  type TimeoutOptions,
} from '../call/option-groups';
import { readHedge } from '../call/steering-option-values';
import { GatewayError, keyKeptOut } from '../errors/errors';
import type { GatewayEventHandler } from '../events/gateway-events';
import { authorization, checkHeaders } from '../http/request-headers';
import { RETRY_DEFAULTS } from '../http/retry-policy';
import { LIMITS } from '../protocol/limits';
import {
  type ClientSteering,
  readCircuitBreaker,
  refuseUnsentHedge,
} from '../steering/steering-options';
import { missingSettingMessage, readEnv } from './read-env';
import {
  CORE_SETTING_NAMES,
  readFromVariable,
  type SettingNames,
  settingNamesOf,
} from './setting-names';

/** How many requests are in flight at once, and where the key's slots are counted (`budget`). */
export interface BudgetOptions {
  /**
   * Requests this client has in flight at once (its own queue, checked before the key's budget).
   * Default 4. A larger value never lets the key exceed `maxConcurrencyPerKey`.
   */
  maxConcurrency?: number;
  /**
   * Requests in flight per (gateway origin, API key), summed over every client sharing `budget`.
   * Default 4, the gateway's limit; set it only when the gateway grants the key another limit.
   */
  maxConcurrencyPerKey?: number;
  /**
   * Where the key's slots are counted. Default: the in-process budget shared by every client in
   * this JavaScript realm. Pass a shared `KeyBudget` (e.g. `@infergate/redis`) to count across
   * processes.
   */
  budget?: KeyBudget;
}

export const BUDGET_OPTIONS: OptionGroup<BudgetOptions> = {
  name: 'budget',
  fields: {
    maxConcurrency: integer(1, 4),
    maxConcurrencyPerKey: integer(1, LIMITS.concurrentRequestsPerKey),
    budget: {},
  },
};

/**
 * A client's options: the `budget` and `timeouts` groups, the steering a client may set for its
 * chat calls (`hedge`, and the `circuitBreaker` group), and its own.
 */
export interface GatewayClientOptions
  extends BudgetOptions,
    TimeoutOptions,
    Pick<SteeringOptions, 'hedge'> {
  /**
   * Gateway base URL. Default (also when `undefined`): `INFERGATE_BASE_URL`, read when a call
   * needs it (a client made before the environment is set works once it is). Normalised: trailing
   * `/` removed, `/v1` appended when the path does not end in a version segment.
   */
  baseURL?: string | undefined;
  /**
   * API key. Default (also when `undefined`): `INFERGATE_API_KEY`, read when a call needs it. An
   * empty or blank key is refused (`configuration_error`), never replaced by the environment's.
   */
  apiKey?: string | undefined;
  /** A WHATWG fetch. Default: `globalThis.fetch`. */
  fetch?: typeof fetch;
  /**
   * Headers sent with every request, as fetch takes them: an object of names to values (an
   * undefined or null value is left out), a `Headers`, or `[name, value]` pairs. Checked at
   * creation: a header fetch cannot send is a `configuration_error` naming it (never its value).
   */
  headers?: GatewayHeaders;
  /**
   * Largest response body read (bytes after decompression, counted while reading; a larger
   * `Content-Length` fails before reading): `response_too_large`. Default 32 MiB. A stream's total
   * size and its unread bytes are bounded by it too.
   */
  maxResponseBytes?: number;
  /** Prefix of an error response's body that is kept (the rest is not read). Default 64 KiB. */
  maxErrorBodyBytes?: number;
  /**
   * Per-model circuit breakers of calls with `fallbackModels`: a model failing `failures` times in
   * a row is planned around for a cooldown. The failures are seen by every client on the key and
   * base URL; these thresholds are this client's. On by default (`{}`); `false` turns them off.
   */
  circuitBreaker?: CircuitBreakerOptions | false;
  /** Retries after the first attempt. Default 2. */
  maxRetries?: number;
  /** How long the model/service catalog is cached. Default 60 000 ms. */
  catalogTtlMs?: number;
  /** Longest `Retry-After` the client waits; longer ones fail at once. Default 60 000 ms. */
  maxRetryAfterMs?: number;
  /**
   * Base of the exponential backoff of every retry without a `Retry-After` to wait: 408, 409, every
   * 5xx but 501 and 505, a 429 without a readable `Retry-After`, network errors before the first
   * byte. Default 500 ms.
   */
  retryBaseDelayMs?: number;
  /**
   * Called with what happens to each call: queued, slot acquired (with the wait), each attempt
   * and its response, retries, a fallback model, and the end (usage, duration). Synchronous;
   * what it throws is ignored. Never given the API key or headers. `@infergate/core/otel` turns
   * these events into OpenTelemetry spans and metrics.
   */
  onEvent?: GatewayEventHandler;
  /**
   * Events carry the request body (`start.input`) and the answer (`done.output`), for tracing
   * that records message content. Default `false`: no content in any event.
   */
  recordContent?: boolean;
  /**
   * Streamed chats send `stream_options: { include_usage: true }`, so that model servers that
   * report usage only when asked (vLLM, llama.cpp, TGI, Ollama) send it. `false` for a gateway or
   * model server that refuses unknown fields; a call's `streamUsage` overrides it. Default `true`.
   */
  streamUsage?: boolean;
}

/** A client's own options, beside its groups' (the type's every key: else this fails to compile). */
const CLIENT_OPTIONS: OptionGroup<
  Omit<GatewayClientOptions, keyof BudgetOptions | keyof TimeoutOptions | 'hedge'>
> = {
  name: 'createGatewayClient',
  fields: {
    baseURL: { kind: 'string' },
    apiKey: { kind: 'string' },
    fetch: { kind: 'function' },
    headers: { kind: 'headers' },
    maxResponseBytes: integer(1, 32 * 1024 * 1024),
    maxErrorBodyBytes: integer(1, 64 * 1024),
    circuitBreaker: {},
    maxRetries: { ...CALL_OPTIONS.fields.maxRetries, default: RETRY_DEFAULTS.maxRetries },
    catalogTtlMs: integer(0, 60_000),
    maxRetryAfterMs: integer(0, RETRY_DEFAULTS.maxRetryAfterMs),
    retryBaseDelayMs: integer(0, RETRY_DEFAULTS.retryBaseDelayMs),
    onEvent: { kind: 'function' },
    recordContent: { kind: 'boolean', default: false },
    streamUsage: { kind: 'boolean', default: true },
  },
};

/** Every key `createGatewayClient` knows. */
const CLIENT_OPTION_KEYS: readonly string[] = [
  ...optionKeys(CLIENT_OPTIONS),
  ...optionKeys(BUDGET_OPTIONS),
  ...optionKeys(TIMEOUT_OPTIONS),
  'hedge',
];

/**
 * Where a key given to a client belongs instead (it would do nothing there): a call's option, or a
 * field of `hedge` or `circuitBreaker`.
 */
const CLIENT_OPTION_HINTS: OptionHints = Object.fromEntries([
  ...[...optionKeys(CALL_OPTIONS), ...optionKeys(STEERING_OPTIONS), 'capabilities']
    .filter((key) => !CLIENT_OPTION_KEYS.includes(key))
    .map((key) => [key, `\`${key}\` is a call option, not a client option: pass it with a call`]),
  ...[HEDGE_OPTIONS, CIRCUIT_BREAKER_OPTIONS].flatMap((group) =>
    Object.keys(group.fields).map((key) => [
      key,
      `\`${key}\` belongs in \`${group.name}: { ${key} }\``,
    ]),
  ),
]);

/**
 * Client options whose snake_case names are request fields of their own, sent as given: LiteLLM's
 * upstream credentials (`api_key`, `base_url`) and retries (`max_retries`).
 */
const SENT_IN_SNAKE_CASE = ['apiKey', 'baseURL', 'maxRetries'];

/** Core's other client options of two words or more, by their spelling with no `_`, lower-cased. */
const CLIENT_OPTION_SPELLINGS: ReadonlyMap<string, string> = new Map(
  CLIENT_OPTION_KEYS.filter((key) => /[A-Z]/.test(key) && !SENT_IN_SNAKE_CASE.includes(key)).map(
    (key) => [key.toLowerCase(), key],
  ),
);

/**
 * Refuses a snake_case spelling of one of core's client options (`circuit_breaker`,
 * `max_concurrency`, `MAX_RETRY_AFTER_MS`) in request fields passed on to the model server as
 * they are (LangChain's `modelKwargs`, the AI SDK's `providerOptions.infergate`): a request field
 * otherwise, it would reach the model server with nothing steered. Refused as a near miss
 * (`refuseNearMisses`), naming the option it spells and where that goes (`goes`: a phrase, `a
 * client option: …`). Other snake_case keys pass (`top_k`, `api_key`).
 */
export function refuseClientOptionsInRequestFields(
  fields: object,
  where: string,
  place: OptionPlace,
  goes: (option: string) => string,
): void {
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || !key.includes('_')) continue;
    const option = CLIENT_OPTION_SPELLINGS.get(key.replaceAll('_', '').toLowerCase());
    if (option === undefined) continue;
    const hint = `\`${key}\` is no request field: \`${option}\` is ${goes(option)}`;
    refuseNearMisses({ [key]: value }, [], [], where, place, { [key]: hint });
  }
}

interface ResolvedOptions {
  /** The base URL given (normalised); undefined: `INFERGATE_BASE_URL`, read when a call needs it. */
  baseURL: string | undefined;
  /** The key given; undefined: `INFERGATE_API_KEY`, read when a call needs it. */
  apiKey: string | undefined;
  fetch: typeof fetch | undefined;
  headers: Record<string, string>;
  maxConcurrency: number;
  maxConcurrencyPerKey: number;
  /** undefined: the default in-process budget. */
  budget: KeyBudget | undefined;
  timeoutMs: number;
  /** The steering of chat calls the client's options set (stall timeouts, hedge, breakers). */
  steering: ClientSteering;
  maxRetries: number;
  catalogTtlMs: number;
  maxRetryAfterMs: number;
  retryBaseDelayMs: number;
  maxResponseBytes: number;
  maxErrorBodyBytes: number;
  onEvent: GatewayEventHandler | undefined;
  recordContent: boolean;
  streamUsage: boolean;
  /** How the caller names the base URL and key, for the messages about them. */
  settingNames: SettingNames;
}

/**
 * Normalises a base URL:
 * - surrounding whitespace and trailing slashes are removed;
 * - a last path segment that is a version (`v1`, `V2`, ...) is lowercased; otherwise `/v1` is
 *   appended.
 * `https://gw.example` → `https://gw.example/v1`; `https://gw.example/v1/` → `https://gw.example/v1`;
 * `https://gw.example/api` → `https://gw.example/api/v1`. Query strings and fragments are refused.
 */
export function normalizeBaseURL(input: string, names: SettingNames = CORE_SETTING_NAMES): string {
  const setting = names.baseURL;
  const refuse = (what: string, cause?: Error) =>
    new GatewayError({
      code: 'configuration_error',
      message: `${setting} ${what}`,
      field: 'baseURL',
      cause,
    });
  const raw = input.trim();
  let url: URL;
  try {
    url = new URL(raw);
  } catch (cause) {
    // The value is not quoted: a key pasted into the wrong field would be printed.
    throw refuse(
      `is not an absolute URL (a string of ${raw.length} characters that does not parse as http(s)://host/...)`,
      cause instanceof Error ? new TypeError('Invalid URL') : undefined,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw refuse(`must use http or https, got "${url.protocol}"`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw refuse('must not contain a query string or fragment');
  }
  if (url.username !== '' || url.password !== '') {
    throw refuse(`must not contain credentials; pass ${names.apiKey} instead`);
  }
  let path = url.pathname.replace(/\/+$/, '');
  const cut = path.lastIndexOf('/') + 1;
  const lastSegment = path.slice(cut);
  if (/^v\d+$/i.test(lastSegment)) path = `${path.slice(0, cut)}${lastSegment.toLowerCase()}`;
  else path = `${path}/v1`;
  return `${url.origin}${path}`;
}

/** What a client reads by its descriptors (each given, checked, else its default). */
type ResolvedByDescriptor = Pick<
  ResolvedOptions,
  | 'maxConcurrency'
  | 'maxConcurrencyPerKey'
  | 'timeoutMs'
  | 'maxRetries'
  | 'catalogTtlMs'
  | 'maxRetryAfterMs'
  | 'retryBaseDelayMs'
  | 'maxResponseBytes'
  | 'maxErrorBodyBytes'
  | 'fetch'
  | 'onEvent'
  | 'recordContent'
  | 'streamUsage'
> &
  Pick<ClientSteering, 'firstChunkTimeoutMs' | 'chunkTimeoutMs'>;

function checkBudget(budget: unknown): KeyBudget | undefined {
  if (budget === undefined) return undefined;
  const acquire = (budget as { acquire?: unknown } | null)?.acquire;
  if (typeof budget !== 'object' || budget === null || typeof acquire !== 'function') {
    throw new GatewayError({
      code: 'configuration_error',
      message: 'budget must be a KeyBudget (an object with an acquire(request) method)',
      field: 'budget',
    });
  }
  return budget as KeyBudget;
}

/**
 * The key given, trimmed and sendable. `undefined` is "from the environment"; a blank key is
 * refused rather than read as unset: `apiKey: process.env.MY_KEY ?? ''` must not send whatever
 * `INFERGATE_API_KEY` holds (another tenant's key, perhaps).
 */
function readApiKey(given: string | undefined, names: SettingNames): string | undefined {
  if (given === undefined) return undefined;
  const apiKey = given.trim();
  if (apiKey === '') {
    throw new GatewayError({
      code: 'configuration_error',
      message: `${names.apiKey} is empty (leave it out to read INFERGATE_API_KEY)`,
      field: 'apiKey',
    });
  }
  authorization(apiKey);
  return apiKey;
}

/** The key a client sends: the options' (as `readApiKey` returned it), else `INFERGATE_API_KEY` now. */
export function apiKeyOrEnv(apiKey: string | undefined): string | undefined {
  return apiKey ?? readEnv('INFERGATE_API_KEY');
}

/**
 * The client's headers, each checked now: one fetch cannot send would fail every call. The key a
 * refusal must not quote is the one given, else the environment's.
 */
function checkedHeaders(
  given: GatewayHeaders | undefined,
  apiKey: string | undefined,
): Record<string, string> {
  const headers = headerRecord(given);
  checkHeaders(headers, apiKeyOrEnv(apiKey));
  return headers;
}

export function resolveOptions(input: GatewayClientOptions | undefined = {}): ResolvedOptions {
  if (typeof input !== 'object' || input === null) {
    throw new GatewayError({
      code: 'configuration_error',
      message: `createGatewayClient takes an options object or nothing, got ${input === null ? 'null' : typeof input}`,
    });
  }
  // The key this client will send is never quoted in a refusal: a key pasted as an option's name,
  // in a group too (`hedge: { [apiKey]: 1 }`).
  return keyKeptOut(
    () => apiKeyOrEnv(typeof input.apiKey === 'string' ? input.apiKey : undefined),
    () => readOptions(input),
  );
}

function readOptions(options: GatewayClientOptions): ResolvedOptions {
  const settingNames = settingNamesOf(options);
  // A typo does nothing silently otherwise: refused, naming the closest option.
  refuseUnknownOptions(
    options,
    CLIENT_OPTION_KEYS,
    settingNames.where,
    'client option',
    CLIENT_OPTION_HINTS,
  );
  const place = 'client option';
  const read = {
    ...readGroup(CLIENT_OPTIONS, options, place, ''),
    ...readGroup(BUDGET_OPTIONS, options, place, ''),
    ...readGroup(TIMEOUT_OPTIONS, options, place, ''),
  } as ResolvedByDescriptor;
  // (Read in this order, so a call with several faults is refused for the same one as before.)
  const baseURL =
    options.baseURL === undefined ? undefined : normalizeBaseURL(options.baseURL, settingNames);
  const apiKey = readApiKey(options.apiKey, settingNames);
  return {
    ...read,
    baseURL,
    apiKey,
    headers: checkedHeaders(options.headers, apiKey),
    budget: checkBudget(options.budget),
    steering: {
      firstChunkTimeoutMs: read.firstChunkTimeoutMs,
      chunkTimeoutMs: read.chunkTimeoutMs,
      hedge: checkedHedge(options.hedge, read.firstChunkTimeoutMs, read.timeoutMs),
      circuitBreaker: readCircuitBreaker(options.circuitBreaker),
    },
    settingNames,
  };
}

/** The base URL given, else `INFERGATE_BASE_URL` read now (normalised); undefined when neither. */
export function resolveBaseURL(resolved: ResolvedOptions): string | undefined {
  if (resolved.baseURL !== undefined) return resolved.baseURL;
  const fromEnv = readEnv('INFERGATE_BASE_URL');
  if (fromEnv === undefined) return undefined;
  const names = readFromVariable(resolved.settingNames, 'baseURL', 'INFERGATE_BASE_URL');
  return normalizeBaseURL(fromEnv, names);
}

/** Where a client sends and with which key, once both are known. */
export interface Connection {
  baseURL: string;
  apiKey: string;
}

/**
 * The connection: the options given, else the environment read now (a client made before the
 * environment was set works once it is). A setting found nowhere is a `configuration_error`
 * naming the option and the variable; the next call reads again.
 */
export function resolveConnection(resolved: ResolvedOptions): Connection {
  const names = resolved.settingNames;
  const baseURL = resolveBaseURL(resolved);
  if (baseURL === undefined) {
    throw new GatewayError({
      code: 'configuration_error',
      message: missingSettingMessage('No gateway base URL', 'baseURL', 'INFERGATE_BASE_URL', names),
      field: 'baseURL',
    });
  }
  const apiKey = apiKeyOrEnv(resolved.apiKey);
  if (apiKey === undefined) {
    throw new GatewayError({
      code: 'configuration_error',
      message: missingSettingMessage('No API key', 'apiKey', 'INFERGATE_API_KEY', names),
      field: 'apiKey',
    });
  }
  return { baseURL, apiKey };
}

/**
 * The base URL and key a client made with `options` would use now: the options, else the
 * environment read and normalised as a call reads it (undefined: found nowhere). A malformed base
 * URL throws that call's `configuration_error` now, naming where it came from. For a command that
 * checks its settings when it starts (`infergate-mcp`).
 */
export function settingsFound(options: GatewayClientOptions): Partial<Connection> {
  const resolved = resolveOptions(options);
  return {
    baseURL: resolveBaseURL(resolved),
    apiKey: apiKeyOrEnv(resolved.apiKey),
  };
}

/** The client's `hedge`, read, and refused when it could never be sent (`refuseUnsentHedge`). */
function checkedHedge(
  given: unknown,
  firstChunkTimeoutMs: number | undefined,
  timeoutMs: number,
): ReturnType<typeof readHedge> {
  const hedge = readHedge(given, 'client option');
  refuseUnsentHedge(hedge, firstChunkTimeoutMs, timeoutMs, 'client option');
  return hedge;
}

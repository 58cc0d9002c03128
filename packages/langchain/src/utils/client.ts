// docs/gateway-protocol.md §2 (connection: base URL, key, headers, the key's concurrency).
import {
  type CallOptions,
  createGatewayClient,
  type GatewayClient,
  type GatewayClientOptions,
} from '@infergate/core';
import {
  CALL_OPTIONS,
  normalizeBaseURL,
  readNumber,
  withSettingNames,
} from '@infergate/core/internal';
import { configurationError } from './errors';

/** The client's hooks: given beside a shared client, they are refused. */
const HOOK_FIELDS = ['onEvent', 'recordContent'] as const;

/** What a shared client already fixes: given beside it they would be ignored, so are refused. */
const CONNECTION_FIELDS = [
  'apiKey',
  'baseURL',
  'headers',
  'fetch',
  'budget',
  'maxConcurrencyPerKey',
] as const;

/** The client options a LangChain class takes as its own fields (declared by core, types and docs). */
export const CLIENT_FIELD_KEYS = [...CONNECTION_FIELDS, ...HOOK_FIELDS];

/**
 * How a LangChain class reaches the gateway: an existing client, or the options to make one —
 * core's client options of those names (`createGatewayClient`'s: their types, defaults and docs
 * are core's, declared once there).
 */
export interface GatewayConnectionFields
  extends Pick<GatewayClientOptions, (typeof CLIENT_FIELD_KEYS)[number]> {
  /**
   * A client to share (its catalog cache and concurrency budget). When given, the connection
   * fields (`apiKey`, `baseURL` other than the client's, `headers`, `fetch`, `budget`,
   * `maxConcurrencyPerKey`) and `onEvent`, `recordContent` are refused (the client's apply), and
   * `timeout` and `maxRetries` still apply to each call of the object, over the client's.
   * The client is never serialised (a chat model keeps its base URL, and its key only as the
   * `INFERGATE_API_KEY` secret reference).
   */
  client?: GatewayClient;
}

export interface ClientTuning {
  /** Deadline of one call in milliseconds (queue, retries, body or stream). */
  timeout?: number;
  /**
   * Retries after the first attempt, by core's retry policy: 429, 408, 409, every 5xx but 501 and
   * 505, network errors before the first byte.
   */
  maxRetries?: number;
}

/**
 * `fields` handed on with the client made from them (`GatewayChatModel.create`,
 * `createGatewayTools`): what went into the client is left out, as refused beside it.
 */
export function withSharedClient<T extends GatewayConnectionFields>(
  fields: T,
  client: GatewayClient,
): T {
  const shared: GatewayConnectionFields = { ...fields, client };
  for (const key of CLIENT_FIELD_KEYS) shared[key] = undefined;
  return shared as T;
}

/** Whether `baseURL` is the client's, once normalised as the client's was (a malformed one is not). */
function isBaseURLOf(client: GatewayClient, baseURL: unknown): boolean {
  if (typeof baseURL !== 'string') return false;
  try {
    return normalizeBaseURL(baseURL) === client.baseURL;
  } catch {
    return false;
  }
}

/**
 * The given client, or a new one made from the connection fields. `where` is how the caller gave
 * them (`new GatewayChatModel`, `createGatewayTools`, …): messages about a missing or malformed
 * base URL or key name it, rather than core's `createGatewayClient`.
 */
export function resolveClient(
  fields: GatewayConnectionFields & ClientTuning,
  where: string,
): GatewayClient {
  checkTuning(fields, where);
  if (fields.client) {
    // One rule for the hooks: they belong to the client that makes the calls.
    const field = HOOK_FIELDS.find((key) => fields[key] !== undefined);
    if (field !== undefined) {
      throw configurationError(
        `${field} was given with a shared client: the events are the client's — pass ${field} to createGatewayClient instead`,
        field,
      );
    }
    // The client's own base URL is no contradiction (a chat model serialises it, `load()` gives it
    // back), however it is written (`http://h`, `http://h/v1/`).
    const client = fields.client;
    const ignored = CONNECTION_FIELDS.filter(
      (key) =>
        fields[key] !== undefined && !(key === 'baseURL' && isBaseURLOf(client, fields.baseURL)),
    );
    if (ignored.length > 0) {
      throw configurationError(
        `${where}: ${ignored.join(', ')} given with a shared client, which would ignore them — leave them out or pass them to createGatewayClient`,
        ignored[0],
      );
    }
    return fields.client;
  }
  // Undefined fields mean core's defaults (or the environment's base URL and key).
  return createGatewayClient(
    withSettingNames(
      {
        apiKey: fields.apiKey,
        baseURL: fields.baseURL,
        headers: fields.headers,
        fetch: fields.fetch,
        budget: fields.budget,
        maxConcurrencyPerKey: fields.maxConcurrencyPerKey,
        onEvent: fields.onEvent,
        recordContent: fields.recordContent,
        timeoutMs: fields.timeout,
        maxRetries: fields.maxRetries,
      },
      { where, baseURL: 'baseURL', apiKey: 'apiKey' },
    ),
  );
}

/**
 * `timeout` and `maxRetries` by core's rules for a call's (they are handed to each call), refused
 * as the object is made, naming the field as written: with a shared client no client checks them,
 * and each call would fail on a `timeoutMs (call option)` the user never wrote.
 */
function checkTuning(fields: ClientTuning, where: string): void {
  const place = `${where.replace(/^new /, '')} option` as const;
  const { timeout, maxRetries } = fields;
  if (timeout !== undefined) readNumber(timeout, CALL_OPTIONS.fields.timeoutMs, 'timeout', place);
  if (maxRetries !== undefined) {
    readNumber(maxRetries, CALL_OPTIONS.fields.maxRetries, 'maxRetries', place);
  }
}

/**
 * Where a chat model's parsed call options keep the call's `timeout` that LangChain turned into
 * its signal (a chat model's options lose the config's `metadata`, which holds the number). A
 * symbol: never serialised, traced or part of a cache key.
 */
const SIGNAL_TIMEOUT = Symbol('infergate.signalTimeout');
type SignalTimeoutCarrier = { [SIGNAL_TIMEOUT]?: unknown };

/** `options` carrying the call's timeout that LangChain keeps in `metadata.timeoutMs`. */
export function withSignalTimeout<T extends object>(
  options: T,
  metadata: Record<string, unknown> | undefined,
): T {
  const timeoutMs = metadata?.timeoutMs;
  return timeoutMs === undefined ? options : { ...options, [SIGNAL_TIMEOUT]: timeoutMs };
}

/**
 * The parts of LangChain call options that core's calls take. LangChain turns a call's `timeout`
 * into its signal and keeps the number only in `metadata.timeoutMs`: it is given to core as the
 * call's deadline too, so core knows it before the signal fires (a Retry-After that cannot fit
 * fails at once with the gateway's answer, as the model's `timeout` does). Both apply: the
 * shorter is core's deadline.
 */
export function callOptions(options: {
  signal?: AbortSignal;
  timeout?: number;
  maxRetries?: number;
  headers?: CallOptions['headers'];
  metadata?: Record<string, unknown>;
}): CallOptions {
  const signalTimeout =
    options.metadata?.timeoutMs ?? (options as SignalTimeoutCarrier)[SIGNAL_TIMEOUT];
  return {
    signal: options.signal,
    timeoutMs: shorterTimeout(options.timeout, signalTimeout),
    // LangChain's per-call override of the model's maxRetries: core does the retrying.
    maxRetries: options.maxRetries,
    // (`null`: not given, as the call's other options; core refuses a null `headers`.)
    headers: options.headers ?? undefined,
  };
}

/**
 * A call's deadline and whose it is, for naming it in a refusal: the call's own `timeout` (which
 * LangChain turned into the signal's, `callOptions`) when it is the shorter, else the model's.
 */
export function callDeadline(
  modelTimeout: number | undefined,
  options: Parameters<typeof callOptions>[0],
): { ms: number; own: boolean } | undefined {
  const own = callOptions(options).timeoutMs;
  const ms = shorterTimeout(modelTimeout, own);
  return ms === undefined ? undefined : { ms, own: ms !== modelTimeout };
}

/** The shorter of the two; a bad `timeout` stays, for core to refuse. */
export function shorterTimeout(
  timeout: number | undefined,
  signalTimeout: unknown,
): number | undefined {
  const fromSignal = typeof signalTimeout === 'number' && signalTimeout > 0;
  if (!fromSignal) return timeout;
  const valid = typeof timeout === 'number' && timeout > 0;
  if (timeout !== undefined && (!valid || timeout <= signalTimeout)) return timeout;
  return signalTimeout;
}

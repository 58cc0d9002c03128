// docs/gateway-protocol.md §2 (connection: base URL, key, headers, the key's concurrency).
import {
  type CallOptions,
  createGatewayClient,
  type GatewayClient,
  type GatewayEventHandler,
  type KeyBudget,
} from '@infergate/core';
import { withSettingNames } from '@infergate/core/internal';
import { configurationError } from './errors';

/** How a LangChain class reaches the gateway: an existing client, or the options to make one. */
export interface GatewayConnectionFields {
  /**
   * A client to share (its catalog cache and concurrency budget). When given, the connection
   * fields below (`apiKey`, `baseURL` other than the client's, `headers`, `fetch`, `budget`,
   * `maxConcurrencyPerKey`) and `onEvent`, `recordContent` are refused (the client's apply), and a chat model's
   * `timeout` and `maxRetries` still apply to each of its calls (the other classes use the client's).
   */
  client?: GatewayClient;
  /** API key. Default (also when `undefined`): the `INFERGATE_API_KEY` environment variable. */
  apiKey?: string | undefined;
  /** Gateway base URL (ending in `/v1`, or it is appended). Default (also when `undefined`): `INFERGATE_BASE_URL`. */
  baseURL?: string | undefined;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** A WHATWG fetch to use instead of `globalThis.fetch`. */
  fetch?: typeof fetch;
  /**
   * Where the key's slots are counted (core's `KeyBudget`; e.g. `@infergate/redis` across
   * processes). Default: the in-process budget. Never serialised.
   */
  budget?: KeyBudget;
  /** The key's limit summed over every client sharing `budget`. Default 4 (the gateway's). */
  maxConcurrencyPerKey?: number;
  /**
   * Core's per-call events (queued, slot, attempts, retries, fallback, done), as `createGateway`'s
   * and `createGatewayClient`'s `onEvent`; `@infergate/core/otel` turns them into spans. Given with
   * `client`, it is refused: a shared client's hook is that client's. Never serialised.
   */
  onEvent?: GatewayEventHandler;
  /** Let `onEvent` events carry request and answer bodies. Default `false`. Not with `client`. */
  recordContent?: boolean;
}

export interface ClientTuning {
  /** Deadline of one call in milliseconds (queue, retries, body or stream). */
  timeout?: number;
  /** Retries after the first attempt, by core's retry policy (429, 500/502/503/504, network errors). */
  maxRetries?: number;
}

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

/**
 * `fields` handed on with the client made from them (`GatewayChatModel.create`,
 * `createGatewayTools`): what went into the client is left out, as refused beside it.
 */
export function withSharedClient<T extends GatewayConnectionFields>(
  fields: T,
  client: GatewayClient,
): T {
  const shared: GatewayConnectionFields = { ...fields, client };
  for (const key of [...CONNECTION_FIELDS, ...HOOK_FIELDS]) shared[key] = undefined;
  return shared as T;
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
  if (fields.client) {
    // One rule for the hooks: they belong to the client that makes the calls.
    const field = HOOK_FIELDS.find((key) => fields[key] !== undefined);
    if (field !== undefined) {
      throw configurationError(
        `${field} was given with a shared client: the events are the client's — pass ${field} to createGatewayClient instead`,
        field,
      );
    }
    // The client's own base URL is no contradiction (a chat model serialises it, `load()` gives it back).
    const ignored = CONNECTION_FIELDS.filter(
      (key) =>
        fields[key] !== undefined && !(key === 'baseURL' && fields[key] === fields.client?.baseURL),
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
  headers?: Record<string, string>;
  metadata?: Record<string, unknown>;
}): CallOptions {
  const signalTimeout =
    options.metadata?.timeoutMs ?? (options as SignalTimeoutCarrier)[SIGNAL_TIMEOUT];
  return {
    signal: options.signal,
    timeoutMs: shorterTimeout(options.timeout, signalTimeout),
    // LangChain's per-call override of the model's maxRetries: core does the retrying.
    maxRetries: options.maxRetries,
    headers: options.headers,
  };
}

/** The shorter of the two; a bad `timeout` stays, for core to refuse. */
function shorterTimeout(timeout: number | undefined, signalTimeout: unknown): number | undefined {
  const fromSignal = typeof signalTimeout === 'number' && signalTimeout > 0;
  if (!fromSignal) return timeout;
  const valid = typeof timeout === 'number' && timeout > 0;
  if (timeout !== undefined && (!valid || timeout <= signalTimeout)) return timeout;
  return signalTimeout;
}

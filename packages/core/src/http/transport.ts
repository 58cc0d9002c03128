// docs/gateway-protocol.md §2.5 (the key's slots), §5.5 (a stream is retried until its first
// bytes), §10.5 (the retry policy).
import type { CallOptions } from '../call/call-options';
import { scopeOf } from '../call/call-scope';
import { GatewayError } from '../errors/errors';
import { lazily } from '../errors/load-lazily';
import { redactSecret, registerSecret } from '../errors/redact-secret';
import type { CallEvents } from '../events/call-events';
import { type AttemptRun, runAttempts } from './attempt-loop';
import { type RetryAllowance, retrySameRequest } from './attempt-policy';
import { isPlainHttpToRemote } from './plain-http';
import { RequestHeaders } from './request-headers';
import type {
  OpenResponse,
  OpenVia,
  RequestSpec,
  StreamHeadersHook,
  TransportConfig,
} from './request-types';
import type { SendConfig } from './send-once';
import { SlotSource } from './slot-source';
import { warnPlainHttpOnce } from './warn-plain-http';
import { readWholeAnswer, type WholeAnswer } from './whole-answer';

export type { OpenResponse, OpenVia, RequestSpec, Slot } from './request-types';

/**
 * The events module, loaded on the first call of a client with an `onEvent` hook: an app that
 * never sets one never loads it (it is a tenth of the chat path's code).
 */
const loadEvents = lazily('the onEvent events', () => import('../events/call-events'));

/**
 * A client's requests, in three parts put together by `open`: the slot source (slot-source.ts:
 * where a request takes its slot), the attempt loop (attempt-loop.ts: where a call retries, within
 * its deadline) and one send (send-once.ts: one fetch, its status and bodies). What each attempt
 * sends and what follows a failure is the call's `AttemptPolicy`'s (attempt-policy.ts): the
 * transport knows HTTP only, and which model a call asks is decided by its caller's policy.
 * Holds the API key privately. (docs/gateway-protocol.md §2.5 and §10.5 give the order of slot
 * release, retry sleep and body read.)
 */
export class Transport {
  readonly #apiKey: string;
  readonly #config: Omit<TransportConfig, 'apiKey'>;
  readonly #slots: SlotSource;
  /** The warning about plain http:// to a remote host, until the first request logged it. */
  #plainHttpToWarn: boolean;
  readonly #headers: RequestHeaders;
  /** `server.address` / `server.port` for events; read on the first call with a hook. */
  #server: { address: string; port: number } | undefined;
  /** The client's retry limits (a call's own `maxRetries` overrides them: `retryAllowance`). */
  readonly #retryAllowance: RetryAllowance;
  /** What sending needs, kept while the fetch in use stays the same (`#sendConfig`). */
  #send: SendConfig | undefined;
  /** Replaces the key in text from the network: given to every reader of a body. */
  readonly #redact = (text: string): string => redactSecret(text, this.#apiKey);

  constructor(config: TransportConfig) {
    const { apiKey, ...rest } = config;
    this.#apiKey = apiKey;
    registerSecret(apiKey, this);
    this.#config = rest;
    this.#slots = new SlotSource(rest);
    this.#plainHttpToWarn = isPlainHttpToRemote(rest.baseURL);
    this.#headers = new RequestHeaders(rest.headers, apiKey);
    this.#retryAllowance = {
      maxRetries: rest.maxRetries,
      maxRetryAfterMs: rest.maxRetryAfterMs,
      retryBaseDelayMs: rest.retryBaseDelayMs,
    };
  }

  get baseURL(): string {
    return this.#config.baseURL;
  }

  /** The client's default deadline of a call. */
  get timeoutMs(): number {
    return this.#config.timeoutMs;
  }

  /** The largest answer body read (`maxResponseBytes`): what a policy that reads one is bounded by. */
  get maxResponseBytes(): number {
    return this.#config.maxResponseBytes;
  }

  /** Most bytes of an error's raw body kept (`maxErrorBodyBytes`), whatever path it came by. */
  get maxErrorBodyBytes(): number {
    return this.#config.maxErrorBodyBytes;
  }

  /** Where this client's requests take their slots. */
  get slots(): SlotSource {
    return this.#slots;
  }

  /** The retry policy's limits of a call with these options. */
  retryAllowance(options: CallOptions): RetryAllowance {
    const maxRetries = options.maxRetries;
    if (maxRetries === undefined) return this.#retryAllowance;
    return { ...this.#retryAllowance, maxRetries };
  }

  /** Replaces the API key in text that came from the network. */
  redact(text: string): string {
    return this.#redact(text);
  }

  /**
   * Sends a request and returns the open 2xx response: the call's deadline (`scope`), its events,
   * then the attempt loop with the call's policy (by default `retrySameRequest`: the same request,
   * retried as retry-policy.ts decides). Every attempt holds a slot; the slot is given back before
   * a retry's sleep and asked for again after it. The returned slot and scope belong to the caller.
   * `options` are trusted: each public call checked its caller's once, where it began (client.ts).
   */
  async open(
    spec: RequestSpec,
    options: CallOptions & StreamHeadersHook = NO_OPTIONS,
    via: OpenVia = NO_OPTIONS,
  ): Promise<OpenResponse> {
    const scope = via.scope ?? scopeOf(options, this.timeoutMs);
    let slot = via.slot;
    let events = via.events;
    try {
      this.#warnPlainHttp();
      // (No hook, no events: and no wait for their module.)
      if (!events && this.#config.onEvent) events = await this.callEvents(spec, via.parent);
      const policy = via.policy ?? retrySameRequest(spec, this.retryAllowance(options));
      const headers = this.#headers.for(spec.body, spec.accept, options.headers);
      const send = this.#sendConfig();
      const run: AttemptRun = {
        spec,
        headers,
        scope,
        events,
        policy,
        slots: this.#slots,
        slot,
        send,
      };
      // (A stream's 2xx answers, told as their headers come: chatStream's `onHeaders`.)
      if (options.onHeaders) run.onHeaders = options.onHeaders;
      // The loop owns the caller's slot from here (its first attempt sends in it).
      slot = undefined;
      const { answer, slot: held } = await runAttempts(run);
      const open: OpenResponse = {
        response: answer.response,
        reader: answer.reader,
        chunks: answer.chunks,
        graceEndsAt: answer.graceEndsAt,
        body: answer.body,
        release: held.release,
        scope,
        callerSignal: options.signal,
        maxBufferedBytes: this.#config.maxResponseBytes,
        owner: this,
      };
      if (events) {
        events.responded(answer.response.headers);
        open.events = events;
      }
      return open;
    } catch (error) {
      // A slot the caller gave that no attempt took goes back.
      slot?.release();
      scope.dispose();
      if (via.reportsEnd !== false) events?.failed(error);
      throw error;
    }
  }

  /**
   * A call's events (its `start` sent), when the client has an `onEvent` hook; else undefined.
   * `parent`: the call this request is made for.
   */
  async callEvents(spec: RequestSpec, parent?: CallEvents): Promise<CallEvents | undefined> {
    const onEvent = this.#config.onEvent;
    if (!onEvent) return undefined;
    const { CallEvents, serverOf } = await loadEvents();
    this.#server ??= serverOf(this.#config.baseURL);
    return new CallEvents({
      onEvent,
      recordContent: this.#config.recordContent === true,
      redact: this.#redact,
      method: spec.method,
      path: spec.path,
      requestedModel: spec.requestedModel ?? spec.model,
      stream: spec.stream === true,
      body: spec.body,
      budgetId: this.#config.budgetId,
      serverAddress: this.#server.address,
      serverPort: this.#server.port,
      parent,
    });
  }

  /** Plain http:// to a remote host: the warning, logged once, before the first request. */
  #warnPlainHttp(): void {
    if (!this.#plainHttpToWarn) return;
    this.#plainHttpToWarn = false;
    warnPlainHttpOnce(this.#config.baseURL, this.#apiKey);
  }

  /**
   * What sending one request needs. Without a `fetch` option, the global one as it is at this call:
   * a test or a mock (msw) may replace it after the client was made (the config is made again then).
   */
  #sendConfig(): SendConfig {
    const fetchImpl = this.#config.fetch ?? globalThis.fetch;
    if (this.#send?.fetch === fetchImpl) return this.#send;
    if (typeof fetchImpl !== 'function') {
      throw new GatewayError({
        code: 'configuration_error',
        message: 'This runtime has no global fetch: pass `fetch` to createGatewayClient',
        field: 'fetch',
      });
    }
    const { baseURL, maxErrorBodyBytes, maxResponseBytes, maxRetryAfterMs, onErrorResponse } =
      this.#config;
    this.#send = {
      baseURL,
      fetch: fetchImpl,
      apiKey: this.#apiKey,
      maxErrorBodyBytes,
      maxResponseBytes,
      maxRetryAfterMs,
      redact: this.#redact,
      onErrorResponse,
    };
    return this.#send;
  }

  /** Sends a request and reads the whole body as text, releasing the slot afterwards. */
  async text(
    spec: RequestSpec,
    options?: CallOptions,
    via?: OpenVia,
  ): Promise<{ text: string; headers: Headers; status: number }> {
    const read = await this.#read(spec, options, via, false);
    read.events?.succeeded();
    return read;
  }

  /**
   * Sends a request and parses a JSON body (`invalid_response` when it is not JSON). `text` is the
   * raw body, for an `invalid_response` about its shape (redact it first).
   */
  json<T>(
    spec: RequestSpec,
    options?: CallOptions,
    via?: OpenVia,
  ): Promise<{ data: T; headers: Headers; status: number; text: string }> {
    return this.#read(spec, options, via, true) as Promise<WholeAnswer & { data: T }>;
  }

  /** Opens the request and reads its answer whole (whole-answer.ts). */
  #read(
    spec: RequestSpec,
    options: CallOptions | undefined,
    via: OpenVia | undefined,
    json: boolean,
  ): Promise<WholeAnswer> {
    return readWholeAnswer(this.open(spec, options, via), spec, {
      json,
      reportsEnd: via?.reportsEnd !== false,
      maxResponseBytes: this.#config.maxResponseBytes,
      maxErrorBodyBytes: this.#config.maxErrorBodyBytes,
      redact: this.#redact,
    });
  }
}

/** Options not given. */
const NO_OPTIONS: CallOptions & OpenVia = Object.freeze({});

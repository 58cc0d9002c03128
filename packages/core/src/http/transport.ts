// docs/gateway-protocol.md §2.5 (the key's slots), §5.5 (a stream is retried until its first
// bytes), §10.5 (the retry policy).
import type { CallOptions } from '../call/call-options';
import { checkCallOptions } from '../call/call-options';
import { CallScope, sleep } from '../call/call-scope';
import { GatewayError } from '../errors/errors';
import { lazily } from '../errors/load-lazily';
import { registerSecret } from '../errors/redact-secret';
import type { CallEvents } from '../events/call-events';
import { errorFromAnswer, unreachable } from './answer-errors';
import {
  type AttemptAnswer,
  type AttemptPolicy,
  type AttemptRequest,
  ownAbort,
  type RetryBudget,
  retrySameRequest,
} from './attempt-policy';
import { redact } from './parse-error-response';
import { isPlainHttpToRemote } from './plain-http';
import { RequestHeaders } from './request-headers';
import { alsoOnRelease, type EarlySlot, RequestSlots, takeReservation } from './request-slots';
import type {
  OpenResponse,
  OpenVia,
  RequestSpec,
  Reservation,
  SlotRelease,
  TransportConfig,
} from './request-types';
import { readWholeAnswer, type WholeAnswer } from './whole-answer';

export type { OpenResponse, OpenVia, RequestSpec, Reservation } from './request-types';

/**
 * The events module, loaded on the first call of a client with an `onEvent` hook: an app that
 * never sets one never loads it (it is a tenth of the chat path's code).
 */
const loadEvents = lazily('the onEvent events', () => import('../events/call-events'));
/** The plain-http warning, loaded on the first call of a client on plain http:// to a remote host. */
const loadPlainHttpWarning = lazily('the plain-http warning', () => import('./warn-plain-http'));

/** The bytes of a stream already read when it is handed over. */
type Received = AttemptAnswer;

/**
 * fetch + concurrency slot + deadline + retries + error parsing. Holds the API key privately.
 * What each attempt sends and what follows a failure is its `AttemptPolicy`'s: the transport knows
 * HTTP only (docs/gateway-protocol.md §2.5 and §10.5 give the order of slot release, retry sleep
 * and body read).
 */
export class Transport {
  readonly #apiKey: string;
  readonly #config: Omit<TransportConfig, 'apiKey'>;
  readonly #slots: RequestSlots;
  /** The warning about plain http:// to a remote host, until the first request logged it. */
  #plainHttpToWarn: boolean;
  readonly #headers: RequestHeaders;
  /** `server.address` / `server.port` for events; read on the first call with a hook. */
  #server: { address: string; port: number } | undefined;
  /** The retry limits of a call without its own `maxRetries` (most calls: made once). */
  readonly #retryBudget: RetryBudget;
  /** `redact` as a function, made once (every read is given it). */
  readonly #redact = (text: string): string => redact(text, this.#apiKey);

  constructor(config: TransportConfig) {
    const { apiKey, ...rest } = config;
    this.#apiKey = apiKey;
    registerSecret(apiKey, this);
    this.#config = rest;
    this.#slots = new RequestSlots(rest);
    this.#plainHttpToWarn = isPlainHttpToRemote(rest.baseURL);
    this.#headers = new RequestHeaders(rest.headers, apiKey);
    this.#retryBudget = {
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

  /** The slots this client's requests take (a hedged attempt asks `ifFree`). */
  get slots(): RequestSlots {
    return this.#slots;
  }

  /** The retry policy's limits of a call with these options. */
  retryBudget(options: CallOptions): RetryBudget {
    const maxRetries = options.maxRetries;
    if (maxRetries === undefined) return this.#retryBudget;
    return { ...this.#retryBudget, maxRetries };
  }

  /** Replaces the API key in text that came from the network. */
  redact(text: string): string {
    return this.#redact(text);
  }

  /**
   * Sends a request and returns the open 2xx response, each attempt as its policy says (by default
   * the same request, retried as `retryDelay` decides). Every attempt holds a slot; the slot is
   * given back before a retry's sleep and asked for again after it. The returned slot and scope
   * belong to the caller.
   */
  async open(
    spec: RequestSpec,
    options: CallOptions = NO_OPTIONS,
    via: OpenVia = NO_OPTIONS,
  ): Promise<OpenResponse> {
    checkCallOptions(options);
    const reserved = takeReservation(via.reservation);
    const scope =
      via.scope ??
      reserved?.scope ??
      new CallScope(options.signal, options.timeoutMs ?? this.#config.timeoutMs);
    // What loads on first use (the events, the plain-http warning) loads while the first slot is
    // asked for: loading never costs a fresh client's first call its place in the key's queue.
    const eventsLoading = via.events ? undefined : this.callEvents(spec, via.parent);
    const warning = this.#plainHttpWarning();
    // Without events the slot is taken at once when one is free, as any call's is: other calls
    // take theirs synchronously, and a queued promise would let them overtake this one.
    const slot =
      reserved?.slot ??
      (eventsLoading || warning
        ? this.#slots.early(scope, spec.requestedModel, eventsLoading !== undefined)
        : undefined);
    slot?.catch(() => {});
    const first: EarlySlot | undefined = slot && { slot };
    let events = via.events;
    try {
      // (Awaited only when there is something to load: no extra async step for the others.)
      if (eventsLoading) events = await eventsLoading;
      if (warning) await warning;
      const policy = via.policy ?? retrySameRequest(spec, this.retryBudget(options));
      return await this.#attempts(spec, options, scope, events, policy, first, via.part);
    } catch (error) {
      // A first slot not taken by an attempt (what loaded first failed) goes back.
      first?.slot?.then(
        (release) => release(),
        () => {},
      );
      scope.dispose();
      if (!via.part) events?.failed(error);
      throw error;
    }
  }

  /** Asks for a slot now, for a call whose code is still loading (see `Reservation`). */
  reserve(options: CallOptions = NO_OPTIONS): Reservation {
    checkCallOptions(options);
    const scope = new CallScope(options.signal, options.timeoutMs ?? this.#config.timeoutMs);
    const slot = this.#slots.acquire(scope, undefined, undefined, 1);
    slot.catch(() => {});
    return { scope, slot, taken: false };
  }

  /**
   * Gives back a reservation's slot when no request took it (the call failed before sending, or
   * must read the catalog first); else nothing. Its scope ends too, unless the call keeps it.
   */
  release(reservation: Reservation, keepScope = false): void {
    if (!takeReservation(reservation)) return;
    reservation.slot.then(
      (release) => release(),
      () => {},
    );
    if (!keepScope) reservation.scope.dispose();
  }

  /**
   * A call's events (its `start` sent), when the client has an `onEvent` hook; else undefined.
   * `parent`: the call this request is made for.
   */
  callEvents(spec: RequestSpec, parent?: CallEvents): Promise<CallEvents> | undefined {
    const onEvent = this.#config.onEvent;
    if (!onEvent) return undefined;
    return loadEvents().then(({ CallEvents, serverOf }) => {
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
    });
  }

  /**
   * Plain http:// to a remote host: the warning, logged once its module has loaded (before the
   * first request). Undefined when there is nothing to log.
   */
  #plainHttpWarning(): Promise<void> | undefined {
    if (!this.#plainHttpToWarn) return undefined;
    return loadPlainHttpWarning().then(({ warnPlainHttpOnce }) => {
      this.#plainHttpToWarn = false;
      warnPlainHttpOnce(this.#config.baseURL, this.#apiKey);
    });
  }

  async #attempts(
    spec: RequestSpec,
    options: CallOptions,
    scope: CallScope,
    events: CallEvents | undefined,
    policy: AttemptPolicy,
    first: EarlySlot | undefined,
    part: OpenVia['part'],
  ): Promise<OpenResponse> {
    const url = `${this.#config.baseURL}${spec.path}`;
    let held: SlotRelease | undefined;
    let sent: Sent | undefined;
    let lastCut = false;
    try {
      const headers = this.#headers.for(spec.body, spec.accept, options.headers);
      const fetchImpl = this.#fetch();
      let waits = 0;
      let ahead = false;
      let count = 0;
      for (;;) {
        const attempt = part ? part.nextAttempt() : ++count;
        // (Only a call that loaded code first has one: no extra async step for the others.)
        if (first?.slot) held = await this.#slots.takeEarly(first, events, attempt);
        held ??=
          (events ? undefined : this.#slots.now(scope)) ??
          (await this.#slots.acquire(scope, spec.requestedModel, events, attempt, ahead));
        const request = policy.request(attempt, events);
        // (The policy's events ran the caller's handler, which may have aborted the call.)
        if (scope.ended) throw scope.error({ requestedModel: request.requestedModel });
        if (request.settled) held = alsoOnRelease(held, request.settled);
        const attemptSent: Sent = { url, headers, fetchImpl, spec, request, scope, cut: false };
        sent = attemptSent;
        // (Without events or `accept` the request is awaited directly: no extra async step.)
        const outcome = await (events
          ? events.observe(attempt, { ...spec, model: request.model }, () =>
              this.#attempt(attemptSent, policy),
            )
          : policy.accept
            ? this.#attempt(attemptSent, policy)
            : this.#request(attemptSent));
        // A request we aborted (a stall) is cut: the gateway counts it a little longer.
        const cut = attemptSent.cut || ownAbort(request) !== undefined;
        sent = undefined;
        if (!(outcome instanceof GatewayError)) {
          const release = held;
          held = undefined;
          return this.#opened(outcome, release, scope, events);
        }
        const step = policy.next(outcome, waits, scope.remainingMs);
        if (step === undefined) {
          lastCut = cut;
          throw outcome;
        }
        // Neither moving on nor sleeping holds a slot: give it back, then queue again.
        held(cut);
        held = undefined;
        // Moving on at once keeps the call's turn in the key's queue; a wait does not.
        ahead = 'now' in step;
        if (!('waitMs' in step)) continue;
        waits++;
        events?.retry(attempt, step.waitMs, outcome);
        await this.#wait(step.waitMs, scope, request, outcome);
      }
    } catch (error) {
      // Before the slot is released: lets siblings stop before they take it.
      spec.onFailure?.(error);
      // (A request in flight when the call ended, aborted, is cut.)
      held?.(sent !== undefined || lastCut);
      throw error;
    }
  }

  #fetch(): typeof fetch {
    const fetchImpl = this.#config.fetch ?? globalThis.fetch;
    if (typeof fetchImpl !== 'function') {
      throw new GatewayError({
        code: 'configuration_error',
        message: 'No fetch: this runtime has no global fetch; pass `fetch` to createGatewayClient',
        field: 'fetch',
      });
    }
    return fetchImpl;
  }

  /** The 2xx answer handed to the caller, with its slot, scope and events. */
  #opened(
    received: Received,
    release: SlotRelease,
    scope: CallScope,
    events: CallEvents | undefined,
  ): OpenResponse {
    const open: OpenResponse = {
      ...received,
      release,
      scope,
      maxBufferedBytes: this.#config.maxResponseBytes,
      owner: this,
    };
    if (events) {
      events.responded(received.response.headers);
      open.events = events;
    }
    return open;
  }

  /**
   * One request, and its 2xx answer checked by the policy. Returns the open answer, or the error a
   * retry may follow (a gateway error answer, a network error before the first byte, the
   * attempt's own abort); throws what ends the call at once.
   */
  async #attempt(sent: Sent, policy: AttemptPolicy): Promise<Received | GatewayError> {
    const outcome = await this.#request(sent);
    if (outcome instanceof GatewayError || !policy.accept) return outcome;
    let refused: GatewayError | undefined;
    try {
      refused = await policy.accept(outcome, sent.request);
    } catch (error) {
      outcome.reader?.cancel(error).catch(() => {});
      throw error;
    }
    if (refused === undefined) return outcome;
    // Cancelling the body aborts the request: the gateway stops counting it once it sees that.
    (outcome.reader ?? outcome.response.body)?.cancel(refused).catch(() => {});
    sent.cut = true;
    return refused;
  }

  async #request(sent: Sent): Promise<Received | GatewayError> {
    const { url, headers, fetchImpl, spec, request, scope } = sent;
    const requestedModel = request.requestedModel;
    let response: Response;
    try {
      response = await fetchImpl(url, {
        method: spec.method,
        headers,
        body: request.body,
        signal: request.signal ?? scope.signal,
      });
    } catch (cause) {
      if (scope.aborted) throw scope.error({ requestedModel });
      return ownAbort(request) ?? unreachable(this.#config.baseURL, requestedModel, cause);
    }
    if (response.ok) {
      if (!spec.firstBytes) return { response };
      const { maxErrorBodyBytes } = this.#config;
      return spec.firstBytes(response, {
        path: spec.path,
        request,
        scope,
        maxErrorBodyBytes,
        redact: this.#redact,
      });
    }
    const error = await errorFromAnswer(
      response,
      { path: spec.path, requestedModel },
      scope,
      this.#config.maxErrorBodyBytes,
      this.#apiKey,
      this.#config.maxRetryAfterMs,
    );
    this.#config.onErrorResponse?.(error);
    return error;
  }

  async #wait(
    ms: number,
    scope: CallScope,
    request: AttemptRequest,
    lastFailure: GatewayError,
  ): Promise<void> {
    try {
      await sleep(ms, scope.signal);
    } catch {
      throw scope.error({ requestedModel: request.requestedModel, lastFailure });
    }
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
    // No async frame of its own: one less per call on the chat path (bench B1).
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
      // One run of several (a hedged call): its end is the caller's to report.
      reports: via?.part === undefined,
      maxResponseBytes: this.#config.maxResponseBytes,
      redact: this.#redact,
    });
  }
}

/** Options not given (one shared object: none made per call). */
const NO_OPTIONS: CallOptions & OpenVia = Object.freeze({});

/** One attempt as it is sent. */
interface Sent {
  /** The attempt's answer was refused and its body cancelled: the request was cut. */
  cut: boolean;
  url: string;
  headers: Headers | Record<string, string>;
  fetchImpl: typeof fetch;
  spec: RequestSpec;
  request: AttemptRequest;
  scope: CallScope;
}

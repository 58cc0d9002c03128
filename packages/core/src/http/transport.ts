// docs/gateway-protocol.md §2.5 (the key's slots), §5.5 (a stream is retried until its first
// bytes), §10.5 (the retry policy).
import type { ReleaseSlot } from '../budget/key-budget';
import type { CallOptions } from '../call/call-options';
import { checkCallOptions } from '../call/call-options';
import { CallScope, sleep } from '../call/call-scope';
import { describeCause, GatewayError, isGatewayError } from '../errors/errors';
import { invalidResponse } from '../errors/invalid-response';
import { lazily } from '../errors/load-lazily';
import { registerSecret } from '../errors/redact-secret';
import type { CallEvents } from '../events/call-events';
import type { GatewayEventHandler } from '../events/gateway-events';
import { errorFromAnswer, tooLarge } from './answer-errors';
import {
  type AttemptAnswer,
  type AttemptPolicy,
  type AttemptRequest,
  ownAbort,
  type RetryBudget,
  retrySameRequest,
} from './attempt-policy';
import { corsHint } from './cors-hint';
import { redact } from './parse-error-response';
import { isPlainHttpToRemote } from './plain-http';
import { declaredLength, readBoundedBody } from './read-bounded-body';
import { RequestHeaders } from './request-headers';
import { RequestSlots, releaseSlot, type SlotsConfig } from './request-slots';
import type { FirstBytesReader } from './stream-first-bytes';

/**
 * The events module, loaded on the first call of a client with an `onEvent` hook: an app that
 * never sets one never loads it (it is a tenth of the chat path's code).
 */
const loadEvents = lazily('the onEvent events', () => import('../events/call-events'));
/** The plain-http warning, loaded on the first call of a client on plain http:// to a remote host. */
const loadPlainHttpWarning = lazily('the plain-http warning', () => import('./warn-plain-http'));

interface TransportConfig extends SlotsConfig {
  baseURL: string;
  apiKey: string;
  fetch: typeof fetch | undefined;
  headers: Record<string, string>;
  timeoutMs: number;
  maxRetries: number;
  maxRetryAfterMs: number;
  retryBaseDelayMs: number;
  maxResponseBytes: number;
  maxErrorBodyBytes: number;
  /** Called with every error response (the catalog refreshes on some codes). */
  onErrorResponse?: (error: GatewayError) => void;
  /** The client's `onEvent` hook: without one no call builds events. */
  onEvent?: GatewayEventHandler;
  /** Events carry the request and answer bodies (`recordContent`). */
  recordContent?: boolean;
}

/** One request as the transport sends it. */
export interface RequestSpec {
  method: 'GET' | 'POST';
  /** Path below the base URL, starting with `/`. */
  path: string;
  /** JSON text, or FormData (its content type is set by fetch). */
  body?: string | FormData;
  accept?: string;
  requestedModel?: string;
  /** The model named in the body when it is not `requestedModel` (embeddings): for events only. */
  model?: string;
  /** Called with the error before the slot is released (lets siblings stop before they start). */
  onFailure?: (error: unknown) => void;
  /**
   * Called as each attempt is sent; what it returns is called when the attempt's slot is given
   * back (a chat call counts our requests per model: steering/model-inflight.ts).
   */
  onSend?: () => () => void;
  /** An SSE stream (its events say so; a steered call watches its first content). */
  stream?: boolean;
  /**
   * How a stream's first bytes are read before its answer is handed over (stream-first-bytes.ts,
   * loaded with the stream's reader): a JSON answer is refused, and a connection lost before them
   * is retried like one lost before the response. Without it a 2xx answer is handed over as is.
   */
  firstBytes?: FirstBytesReader;
}

/** How a call is opened, beyond its spec and options (core's own callers). */
export interface OpenVia {
  /** The call's scope, made by its caller (one deadline over a steered call's every step). */
  scope?: CallScope;
  /** The call's events, made by its caller with `callEvents`. */
  events?: CallEvents;
  /** A place in the key's queue asked for before the call's code loaded (`reserve`). */
  reservation?: Reservation;
  /** What each attempt sends and what follows a failure; default `retrySameRequest`. */
  policy?: AttemptPolicy;
  /** The call this request is made for (a chat call's catalog read): its events' parent. */
  parent?: CallEvents;
  /**
   * This open is one run of a call that makes several at once (a hedged call): its attempts are
   * numbered from the call's count, and its failure is the caller's to report (the call may go on).
   */
  part?: { nextAttempt(): number };
}

/** A 2xx response whose slot is still held: the owner must call `release` and `scope.dispose`. */
export interface OpenResponse {
  response: Response;
  /**
   * Gives the slot back (once). `cut`: the body was cut before its end (cancelled, stalled): the
   * slot is kept a little longer, while the gateway still counts the request (request-slots.ts).
   */
  release: (cut?: boolean) => void;
  scope: CallScope;
  /** Stream requests: the body's reader and the bytes already read from it. */
  reader?: ReadableStreamDefaultReader<Uint8Array>;
  chunks?: Uint8Array[];
  /** Most unread bytes a stream may buffer ahead of its reader (`maxResponseBytes`). */
  maxBufferedBytes: number;
  /** The call's events when the client has an `onEvent` hook; the owner reports the end. */
  events?: CallEvents;
  /**
   * The transport that opened it. Held so that a stream outliving its client (made per request,
   * then dropped) keeps the key's redactor alive until the stream ends (errors/redact-secret.ts).
   */
  readonly owner: object;
}

/**
 * A place in the key's queue asked for before a call's code has loaded (its events, its services,
 * its steering): the call's first request takes it, so loading never costs a call its turn. The
 * one way to ask for a slot early; `release` gives it back when no request took it.
 */
export interface Reservation {
  scope: CallScope;
  slot: Promise<ReleaseSlot>;
  /** A request took it (or it was given back). */
  taken: boolean;
}

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

  constructor(config: TransportConfig) {
    const { apiKey, ...rest } = config;
    this.#apiKey = apiKey;
    registerSecret(apiKey, this);
    this.#config = rest;
    this.#slots = new RequestSlots(rest);
    this.#plainHttpToWarn = isPlainHttpToRemote(rest.baseURL);
    this.#headers = new RequestHeaders(rest.headers, apiKey);
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
    return {
      maxRetries: options.maxRetries ?? this.#config.maxRetries,
      maxRetryAfterMs: this.#config.maxRetryAfterMs,
      retryBaseDelayMs: this.#config.retryBaseDelayMs,
    };
  }

  /** Replaces the API key in text that came from the network. */
  redact(text: string): string {
    return redact(text, this.#apiKey);
  }

  /**
   * Sends a request and returns the open 2xx response, each attempt as its policy says (by default
   * the same request, retried as `retryDelay` decides). Every attempt holds a slot; the slot is
   * given back before a retry's sleep and asked for again after it. The returned slot and scope
   * belong to the caller.
   */
  async open(
    spec: RequestSpec,
    options: CallOptions = {},
    via: OpenVia = {},
  ): Promise<OpenResponse> {
    checkCallOptions(options);
    const reserved = take(via.reservation);
    const scope =
      via.scope ??
      reserved?.scope ??
      new CallScope(options.signal, options.timeoutMs ?? this.#config.timeoutMs);
    // What loads on first use (the events, the plain-http warning) loads while the first slot is
    // asked for: loading never costs a fresh client's first call its place in the key's queue.
    const eventsLoading = via.events ? undefined : this.callEvents(spec, via.parent);
    const warning = this.#plainHttpWarning();
    const first: FirstSlot = {
      slot: reserved?.slot ?? this.#firstSlot(scope, spec, eventsLoading, warning),
    };
    first.slot?.catch(() => {});
    let events = via.events;
    try {
      // (Awaited only when there is something to load: no extra async step for the others.)
      if (eventsLoading) events = await eventsLoading;
      if (warning) await warning;
      const policy = via.policy ?? retrySameRequest(spec, this.retryBudget(options));
      return await this.#attempts(spec, options, scope, events, policy, first, via.part);
    } catch (error) {
      // A first slot not taken by an attempt (what loaded first failed) goes back.
      first.slot?.then(
        (release) => release(),
        () => {},
      );
      scope.dispose();
      if (!via.part) events?.failed(error);
      throw error;
    }
  }

  /** Asks for a slot now, for a call whose code is still loading (see `Reservation`). */
  reserve(options: CallOptions = {}): Reservation {
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
    if (!take(reservation)) return;
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
        redact: (text) => this.redact(text),
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
   * Attempt 1's slot, asked for before what the call loads first; undefined when nothing loads.
   * Without events the slot is taken at once when one is free, as any call's is: other calls take
   * theirs synchronously, and a queued promise would let them overtake this one.
   */
  #firstSlot(
    scope: CallScope,
    spec: RequestSpec,
    eventsLoading: Promise<CallEvents> | undefined,
    warning: Promise<void> | undefined,
  ): Promise<ReleaseSlot> | undefined {
    if (!eventsLoading && !warning) return undefined;
    const now = eventsLoading ? undefined : this.#slots.now(scope);
    if (now) return Promise.resolve(now);
    return this.#slots.acquire(scope, spec.requestedModel, undefined, 1);
  }

  /** The slot asked for before loading, for the first attempt, reported like any other. */
  async #takeFirstSlot(
    first: FirstSlot,
    events: CallEvents | undefined,
    attempt: number,
  ): Promise<ReleaseSlot> {
    const slot = first.slot!;
    first.slot = undefined;
    events?.queued(attempt, this.#config.budgetId);
    const release = await slot;
    if (!events) return release;
    events.dequeued(attempt, this.#config.budgetId);
    return this.#slots.reported(release, events, attempt);
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
    first: FirstSlot,
    part: OpenVia['part'],
  ): Promise<OpenResponse> {
    const url = `${this.#config.baseURL}${spec.path}`;
    let held: ReleaseSlot | undefined;
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
        if (first.slot) held = await this.#takeFirstSlot(first, events, attempt);
        held ??=
          (events ? undefined : this.#slots.now(scope)) ??
          (await this.#slots.acquire(scope, spec.requestedModel, events, attempt, ahead));
        const request = policy.request(attempt, events);
        // (The policy's events ran the caller's handler, which may have aborted the call.)
        if (scope.ended) throw scope.error({ requestedModel: request.requestedModel });
        if (request.settled) held = alsoOnRelease(held, request.settled);
        const attemptSent: Sent = { url, headers, fetchImpl, spec, request, scope, cut: false };
        sent = attemptSent;
        // (Without events the request is awaited directly: no extra async step per attempt.)
        const outcome = await (events
          ? events.observe(attempt, { ...spec, model: request.model }, () =>
              this.#attempt(attemptSent, policy),
            )
          : this.#attempt(attemptSent, policy));
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
        releaseSlot(held, cut);
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
      if (held) releaseSlot(held, sent !== undefined || lastCut);
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
    release: ReleaseSlot,
    scope: CallScope,
    events: CallEvents | undefined,
  ): OpenResponse {
    const open: OpenResponse = {
      ...received,
      release: (cut = false) => releaseSlot(release, cut),
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
      return ownAbort(request) ?? networkError(this.#config.baseURL, requestedModel, cause);
    }
    if (response.ok) {
      if (!spec.firstBytes) return { response };
      const { maxErrorBodyBytes } = this.#config;
      const redact = (text: string) => this.redact(text);
      return spec.firstBytes(response, {
        path: spec.path,
        request,
        scope,
        maxErrorBodyBytes,
        redact,
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
    return this.#read(spec, options, via, true) as Promise<Read & { data: T }>;
  }

  /**
   * The whole body as text (the slot released and the scope ended once it is read), and with
   * `json` parsed, its `done` event sent; without `json` the `done` event is the caller's.
   */
  async #read(
    spec: RequestSpec,
    options: CallOptions | undefined,
    via: OpenVia | undefined,
    json: boolean,
  ): Promise<Read> {
    const { response, release, scope, events } = await this.open(spec, options, via);
    // One run of several (a hedged call): its end is the caller's to report.
    const reports = via?.part === undefined;
    let failure: GatewayError | undefined;
    let text: string;
    try {
      text = await this.#body(response, spec, scope);
    } catch (error) {
      failure = error as GatewayError;
      throw error;
    } finally {
      release(failure !== undefined && scope.aborted);
      scope.dispose();
      // After the slot's `released`: `done` is a call's last event.
      if (failure && reports) events?.failed(failure);
    }
    const { headers, status } = response;
    if (!json) return { text, headers, status, events };
    // Parsed after the slot is given back: a large answer's parse holds no slot.
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (cause) {
      const error = invalidResponse(`The gateway's ${spec.path} answer is not valid JSON`, {
        status,
        body: this.redact(text),
        requestedModel: spec.requestedModel,
        cause,
      });
      if (reports) events?.failed(error);
      throw error;
    }
    if (reports) events?.answered(data, text);
    return { data, text, headers, status };
  }

  /** A 2xx body read whole, within `maxResponseBytes`; its failures typed. */
  async #body(response: Response, spec: RequestSpec, scope: CallScope): Promise<string> {
    const limit = this.#config.maxResponseBytes;
    try {
      const declared = declaredLength(response.headers);
      if (declared !== undefined && declared > limit) {
        response.body?.cancel().catch(() => {});
        throw tooLarge(response, spec, limit, declared);
      }
      const read = await readBoundedBody(response, limit);
      if (read.truncated) throw tooLarge(response, spec, limit);
      return read.text;
    } catch (cause) {
      if (isGatewayError(cause)) throw cause;
      if (scope.aborted) throw scope.error({ requestedModel: spec.requestedModel });
      throw new GatewayError({
        code: 'network_error',
        status: response.status,
        message: `The response body could not be read: ${describeCause(cause)}`,
        requestedModel: spec.requestedModel,
        cause,
      });
    }
  }
}

/** Attempt 1's slot, asked for before what the call loads first; cleared once an attempt takes it. */
interface FirstSlot {
  slot: Promise<ReleaseSlot> | undefined;
}

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

/** A body read whole: its text, and with `json` its parsed value. */
interface Read {
  text: string;
  headers: Headers;
  status: number;
  data?: unknown;
  /** The call's events, for `text`'s caller to end (json calls have ended them). */
  events?: CallEvents;
}

/** Takes a reservation not taken yet (once); undefined otherwise. */
function take(reservation: Reservation | undefined): Reservation | undefined {
  if (reservation === undefined || reservation.taken) return undefined;
  reservation.taken = true;
  return reservation;
}

function networkError(baseURL: string, requestedModel: string | undefined, cause: unknown) {
  return new GatewayError({
    code: 'network_error',
    message: `Could not reach the gateway at ${baseURL}: ${describeCause(cause)}${corsHint()}`,
    requestedModel,
    cause,
  });
}

/** `release`, then `settled`, once. */
function alsoOnRelease(release: ReleaseSlot, settled: () => void): ReleaseSlot {
  let done = false;
  return () => {
    release();
    if (done) return;
    done = true;
    settled();
  };
}

// docs/gateway-protocol.md §2.5 (the key's slots), §5.5 (a stream is retried until its first
// bytes), §10.5 (the retry policy), §4.7 (failover between models, the first-chunk stall).
import { type KeyBudget, type ReleaseSlot, tryAcquireNow } from '../budget/key-budget';
import type { Semaphore } from '../budget/semaphore';
import type { CallOptions } from '../call/call-options';
import { checkCallOptions } from '../call/call-options';
import { CallScope, MAX_TIMEOUT_MS, sleep } from '../call/call-scope';
import { describeCause, GatewayError, isGatewayError } from '../errors/errors';
import { invalidResponse } from '../errors/invalid-response';
import { lazily } from '../errors/load-lazily';
import { registerSecret } from '../errors/redact-secret';
import type { CallEvents } from '../events/call-events';
import type { GatewayEventHandler } from '../events/gateway-events';
import type { ChatRouteHop, SkippedModel } from '../protocol/chat-route';
import { errorFromAnswer, lostStream, readErrorBody, tooLarge } from './answer-errors';
import type { SilenceClock } from './body-read-ahead';
import { corsHint } from './cors-hint';
import type { FailoverWalk, NextStep } from './failover-route';
import { countModelInflight, modelInflight, watchModelInflight } from './model-inflight';
import { redact } from './parse-error-response';
import { isPlainHttpToRemote } from './plain-http';
import { declaredLength, readBoundedBody } from './read-bounded-body';
import { RequestHeaders } from './request-headers';
import { retryDelay } from './retry-policy';
import type { FirstChunkWatch } from './stall-watch';

/**
 * The events module, loaded on the first call of a client with an `onEvent` hook: an app that
 * never sets one never loads it (it is a tenth of the chat path's code).
 */
const loadEvents = lazily('the onEvent events', () => import('../events/call-events'));
/** The plain-http warning, loaded on the first call of a client on plain http:// to a remote host. */
const loadPlainHttpWarning = lazily('the plain-http warning', () => import('./warn-plain-http'));
/** The stall timeouts' code, loaded on the first call that sets one. */
const loadStallWatch = lazily('the stall timeouts', () => import('./stall-watch'));

interface TransportConfig {
  baseURL: string;
  apiKey: string;
  fetch: typeof fetch | undefined;
  headers: Record<string, string>;
  /** This client's own limit, enforced by `local` before the key's budget is asked. */
  maxConcurrency: number;
  local: Semaphore;
  /** The key's limit, passed to `budget` with `budgetId`. */
  maxConcurrencyPerKey: number;
  budget: KeyBudget;
  budgetId: string;
  timeoutMs: number;
  /** Chat calls' stall timeouts (client options; a call's own win). Undefined: off. */
  firstChunkTimeoutMs?: number;
  chunkTimeoutMs?: number;
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

/** One request as the transport sends it (and, for a chat call, how it may steer). */
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
   * An SSE stream: a JSON answer is refused, and the first body bytes are awaited so that a
   * connection lost before them is retried like one lost before the response.
   */
  stream?: boolean;
  /**
   * Chat calls: their stall timeouts as the call set them (each falls back to the client's).
   * Requests without it (catalog, services) have none.
   */
  stall?: { firstChunkMs?: number; chunkMs?: number };
  /** Chat calls with `fallbackModels`: the walk over their models (then `body` is not read). */
  route?: FailoverWalk;
  /** Chat calls with `fallbackModels`: the models left out before sending (for events). */
  skipped?: readonly SkippedModel[];
  /**
   * A call refused before any request (`no_model_can_serve`): `open` reports it through the
   * call's events (`start`, its skips, `done`) and throws it, sending nothing.
   */
  refusal?: GatewayError;
}

/** The walk of a call with `fallbackModels`, as it ended: its failed hops and the model that answered. */
export interface Walked {
  hops: ChatRouteHop[];
  model: string;
}

/** A 2xx response whose slot is still held: the owner must call `release` and `scope.dispose`. */
export interface OpenResponse {
  response: Response;
  release: ReleaseSlot;
  scope: CallScope;
  /** Stream requests: the body's reader and the first bytes already read from it. */
  reader?: ReadableStreamDefaultReader<Uint8Array>;
  firstChunk?: Uint8Array;
  /** Most unread bytes a stream may buffer ahead of its reader (`maxResponseBytes`). */
  maxBufferedBytes: number;
  /** Streams with `chunkTimeoutMs`: the clock of their silences, for the stream's models. */
  silence?: (models: { requestedModel: string; servedModel: string }) => SilenceClock;
  /** Calls with `fallbackModels`: the models tried before this answer, and the one that gave it. */
  walked?: Walked;
  /** The call's events when the client has an `onEvent` hook; the owner reports the end. */
  events?: CallEvents;
  /**
   * The transport that opened it. Held so that a stream outliving its client (made per request,
   * then dropped) keeps the key's redactor alive until the stream ends (errors/redact-secret.ts).
   */
  readonly owner: object;
}

/** A call's stall timeouts, resolved (the call's, else the client's), and their code, loaded. */
interface Stalls {
  firstChunkMs: number | undefined;
  chunkMs: number | undefined;
  watch: typeof import('./stall-watch');
}

/** A place in the key's queue taken before a call's code has loaded (`Transport.reserve`). */
export interface Reservation {
  scope: CallScope;
  slot: Promise<ReleaseSlot>;
  /** A request took it (or it was given back). */
  taken: boolean;
}

const RESERVATION = Symbol('infergate.reservation');

/** The call's options carrying a reservation for its first request (a copy; spreads keep it). */
export function withReservation<T extends CallOptions>(
  options: T | undefined,
  reservation: Reservation,
): T {
  return { ...options, [RESERVATION]: reservation } as unknown as T;
}

/** The reservation on these options, once: the first request of the call takes it. */
function takeReservation(options: CallOptions): Reservation | undefined {
  const reservation = (options as { [RESERVATION]?: Reservation })[RESERVATION];
  if (reservation === undefined || reservation.taken) return undefined;
  reservation.taken = true;
  return reservation;
}

/**
 * Attempt 1's slot when it was asked for before the call's lazily loaded code (`open`), and the
 * stall timers loading meanwhile. `slot` is cleared once an attempt takes it.
 */
interface FirstSlot {
  slot: Promise<ReleaseSlot> | undefined;
  stalls: Promise<Stalls> | undefined;
}

interface Received {
  response: Response;
  reader?: ReadableStreamDefaultReader<Uint8Array>;
  firstChunk?: Uint8Array;
}

/**
 * fetch + concurrency slot + deadline + retries + error parsing. Holds the API key privately.
 * One class (and one file over 400 lines) on purpose: every step of an attempt shares the call's
 * scope, slot and events, and the order of slot release, retry sleep and body read is what
 * docs/gateway-protocol.md §2.5 and §10.5 state; its helpers (headers, answer errors, bounded
 * reads, option checks) live in files of their own.
 */
export class Transport {
  readonly #apiKey: string;
  readonly #config: Omit<TransportConfig, 'apiKey'>;
  /**
   * Whether the warning about plain http:// to a remote host is still to be logged: before the
   * first request goes out, warn-plain-http.ts loaded then (https:// and loopback never load it).
   */
  #plainHttpToWarn: boolean;
  readonly #headers: RequestHeaders;
  /** `server.address` / `server.port` for events; read on the first call with a hook. */
  #server: { address: string; port: number } | undefined;

  constructor(config: TransportConfig) {
    const { apiKey, ...rest } = config;
    this.#apiKey = apiKey;
    registerSecret(apiKey, this);
    this.#config = rest;
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

  /** Replaces the API key in text that came from the network. */
  redact(text: string): string {
    return redact(text, this.#apiKey);
  }

  /**
   * Sends a request and returns the open 2xx response, retrying as `retryDelay` (retry-policy.ts)
   * decides. Every attempt holds a slot; the slot is given back before a retry's sleep and asked
   * for again after it. The returned slot and scope belong to the caller.
   */
  async open(spec: RequestSpec, options: CallOptions = {}): Promise<OpenResponse> {
    checkCallOptions(options);
    const reserved = takeReservation(options);
    const timeoutMs = Math.min(MAX_TIMEOUT_MS, options.timeoutMs ?? this.#config.timeoutMs);
    const onEvent = this.#config.onEvent;
    if (spec.refusal) {
      if (reserved) this.release(reserved);
      return this.#refuse(spec, spec.refusal, onEvent);
    }
    const scope = reserved?.scope ?? new CallScope(options.signal, timeoutMs);
    const stalls = this.#stalls(spec);
    stalls?.catch(() => {});
    // What loads on first use (the events, the stall timers) loads while the first slot is asked
    // for: loading never costs a fresh client's first call its place in the key's FIFO queue.
    const first: FirstSlot = {
      slot:
        reserved?.slot ??
        (onEvent || stalls ? this.#acquire(spec, scope, undefined, 1) : undefined),
      stalls,
    };
    first.slot?.catch(() => {});
    let events: CallEvents | undefined;
    try {
      events = onEvent ? await this.#events(spec, onEvent) : undefined;
      if (events && spec.skipped) for (const skip of spec.skipped) events.skipped(skip);
      return await this.#attempts(spec, options, scope, events, first);
    } catch (error) {
      // A first slot not taken by an attempt (the events failed to load) goes back.
      first.slot?.then(
        (release) => release(),
        () => {},
      );
      scope.dispose();
      events?.failed(error);
      throw error;
    }
  }

  /**
   * A place in the key's queue for a call whose code is still loading (client.ts: a first service
   * call): its first slot is asked for now, and the call's first request takes it (`withReservation`
   * on its options). The caller gives it back with `release` if no request took it.
   */
  reserve(options: CallOptions = {}): Reservation {
    checkCallOptions(options);
    const timeoutMs = Math.min(MAX_TIMEOUT_MS, options.timeoutMs ?? this.#config.timeoutMs);
    const scope = new CallScope(options.signal, timeoutMs);
    const slot = this.#acquire({ method: 'POST', path: '' }, scope, undefined, 1);
    slot.catch(() => {});
    return { scope, slot, taken: false };
  }

  /** Gives back a reservation no request took (the call failed before sending); else nothing. */
  release(reservation: Reservation): void {
    if (reservation.taken) return;
    reservation.taken = true;
    reservation.slot.then(
      (release) => release(),
      () => {},
    );
    reservation.scope.dispose();
  }

  /** A call refused before any request (`fallbackModels` left no model): its events, then the error. */
  async #refuse(
    spec: RequestSpec,
    refusal: GatewayError,
    onEvent: GatewayEventHandler | undefined,
  ): Promise<never> {
    const events = onEvent ? await this.#events(spec, onEvent) : undefined;
    if (events && spec.skipped) for (const skip of spec.skipped) events.skipped(skip);
    events?.failed(refusal);
    throw refusal;
  }

  /** The slot asked for before loading (`FirstSlot`), for attempt 1, reported like any other. */
  async #takeFirstSlot(
    slot: Promise<ReleaseSlot>,
    first: FirstSlot,
    events: CallEvents | undefined,
  ): Promise<ReleaseSlot> {
    first.slot = undefined;
    events?.queued(1, this.#config.budgetId);
    const release = await slot;
    if (!events) return release;
    events.dequeued(1, this.#config.budgetId);
    return this.#reported(release, events, 1);
  }

  async #events(spec: RequestSpec, onEvent: GatewayEventHandler): Promise<CallEvents> {
    const { CallEvents, serverOf } = await loadEvents();
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
    });
  }

  /**
   * A slot for one attempt: this client's own `maxConcurrency` first (so a client with a small
   * limit queues only behind itself), then the key's budget. `ahead`: a failover's next hop,
   * served before the calls that have not started (`BudgetAcquireRequest.ahead`).
   */
  async #acquire(
    spec: RequestSpec,
    scope: CallScope,
    events: CallEvents | undefined,
    attempt: number,
    ahead = false,
  ): Promise<ReleaseSlot> {
    let releaseLocal: ReleaseSlot | undefined;
    events?.queued(attempt, this.#config.budgetId);
    try {
      const { local, maxConcurrency } = this.#config;
      releaseLocal = await local.acquire(maxConcurrency, scope.signal, ahead);
      if (scope.ended) throw scope.error({ requestedModel: spec.requestedModel });
      const lease = await this.#config.budget.acquire({
        id: this.#config.budgetId,
        limit: this.#config.maxConcurrencyPerKey,
        signal: scope.signal,
        deadline: scope.deadline,
        ...(ahead ? { ahead } : {}),
      });
      const release = bothSlots(releaseLocal, () => lease.release());
      // A slot may be handed over after the call's deadline passed or its caller aborted: such a
      // call gives the slot back and fails without sending anything.
      if (scope.ended) {
        release();
        throw scope.error({ requestedModel: spec.requestedModel });
      }
      if (!events) return release;
      events.dequeued(attempt, this.#config.budgetId);
      return this.#reported(release, events, attempt);
    } catch (error) {
      releaseLocal?.();
      if (isGatewayError(error)) throw error;
      if (scope.ended) throw scope.error({ requestedModel: spec.requestedModel });
      throw error;
    }
  }

  /**
   * Plain http:// to a remote host: the warning, logged once its module has loaded. The caller
   * asks for its slot first and awaits this before sending: loading never costs a call its place
   * in the key's queue. Undefined when there is nothing to log.
   */
  #plainHttpWarning(): Promise<void> | undefined {
    if (!this.#plainHttpToWarn) return undefined;
    const logged = loadPlainHttpWarning().then(({ warnPlainHttpOnce }) => {
      this.#plainHttpToWarn = false;
      warnPlainHttpOnce(this.#config.baseURL, this.#apiKey);
    });
    // Awaited once the slot is held; until then a failed load must not count as unhandled.
    logged.catch(() => {});
    return logged;
  }

  /**
   * Both slots at once when both are free (the common case: no promise, no async step), else
   * undefined and the caller awaits `#acquire`. Not for calls with events (they report the wait).
   */
  #acquireNow(scope: CallScope): ReleaseSlot | undefined {
    if (scope.ended) return undefined;
    const local = this.#config.local.tryAcquire(this.#config.maxConcurrency);
    if (local === undefined) return undefined;
    const key = tryAcquireNow(
      this.#config.budget,
      this.#config.budgetId,
      this.#config.maxConcurrencyPerKey,
    );
    if (key === undefined) {
      local();
      return undefined;
    }
    return bothSlots(local, key);
  }

  /** A slot's release that also reports it (once), for a call with events. */
  #reported(release: ReleaseSlot, events: CallEvents, attempt: number): ReleaseSlot {
    let released = false;
    return () => {
      release();
      if (released) return;
      released = true;
      events.released(attempt, this.#config.budgetId);
    };
  }

  async #attempts(
    spec: RequestSpec,
    options: CallOptions,
    scope: CallScope,
    events: CallEvents | undefined,
    first: FirstSlot,
  ): Promise<OpenResponse> {
    const url = `${this.#config.baseURL}${spec.path}`;
    let held: ReleaseSlot | undefined;
    try {
      // (Only a call that loads code first has one: no extra async step for the others.)
      if (first.slot) held = await this.#takeFirstSlot(first.slot, first, events);
      const walk = spec.route;
      const stalls = first.stalls && (await first.stalls);
      // (Every body of a walk is JSON text: the first one's headers are all of theirs.)
      const headers = this.#headers.for(
        walk ? walk.body() : spec.body,
        spec.accept,
        options.headers,
      );
      const fetchImpl = this.#fetch();
      // Loads while the slot is asked for: a fresh client's first call keeps its FIFO place.
      let plainHttpWarning = this.#plainHttpWarning();
      const maxRetries = options.maxRetries ?? this.#config.maxRetries;
      let retries = 0;
      let failedOver = false;
      for (let attempt = 1; ; attempt++) {
        held ??=
          (events ? undefined : this.#acquireNow(scope)) ??
          (await this.#acquire(spec, scope, events, attempt, failedOver));
        if (plainHttpWarning) {
          await plainHttpWarning;
          plainHttpWarning = undefined;
        }
        // A walk chooses its model once the slot is held (the room it sees is the room now).
        const sent = walk ? walk.hop(spec, events) : spec;
        // (Its `failover` event ran the caller's handler, which may have aborted the call.)
        if (walk && scope.ended) throw scope.error({ requestedModel: spec.requestedModel });
        if (sent.requestedModel !== undefined) {
          held = countModelInflight(this.#config.budgetId, sent.requestedModel, held);
        }
        // (Without events the request is awaited directly: no extra async step per attempt.)
        const outcome = await (events
          ? this.#observed(url, headers, fetchImpl, sent, scope, stalls, events, attempt)
          : this.#attempt(url, headers, fetchImpl, sent, scope, stalls));
        if (!(outcome instanceof GatewayError)) {
          const release = held;
          held = undefined;
          return this.#opened(outcome, release, scope, events, stalls, walk);
        }
        const step = this.#next(outcome, walk, retries, maxRetries, scope);
        if (step === undefined) throw outcome;
        // Neither moving on nor sleeping holds a slot: give it back, then queue again.
        held();
        held = undefined;
        // Moving on keeps the call's turn in the key's queue; a wait does not.
        failedOver = step.kind === 'failover';
        if (step.kind === 'failover') continue;
        retries++;
        events?.retry(attempt, step.delayMs, outcome);
        await this.#wait(step.delayMs, scope, sent, outcome);
      }
    } catch (error) {
      // Before the slot is released: lets siblings stop before they take it.
      spec.onFailure?.(error);
      held?.();
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

  /** What follows a failed attempt: the walk's step (`fallbackModels`), else the retry policy's. */
  #next(
    outcome: GatewayError,
    walk: FailoverWalk | undefined,
    retries: number,
    maxRetries: number,
    scope: CallScope,
  ): NextStep {
    const limits = {
      maxRetryAfterMs: this.#config.maxRetryAfterMs,
      retryBaseDelayMs: this.#config.retryBaseDelayMs,
      remainingMs: scope.remainingMs,
    };
    if (walk) return walk.next(outcome, retries, maxRetries, limits);
    const delayMs = retries < maxRetries ? retryDelay(outcome, retries, limits) : undefined;
    return delayMs === undefined ? undefined : { kind: 'wait', delayMs };
  }

  /** The 2xx answer handed to the caller, with its slot, scope and events. */
  #opened(
    received: Received,
    release: ReleaseSlot,
    scope: CallScope,
    events: CallEvents | undefined,
    stalls: Stalls | undefined,
    walk: FailoverWalk | undefined,
  ): OpenResponse {
    const open: OpenResponse = {
      ...received,
      release,
      scope,
      maxBufferedBytes: this.#config.maxResponseBytes,
      owner: this,
    };
    const chunkMs = stalls?.chunkMs;
    if (chunkMs !== undefined && received.reader) {
      const { betweenChunks } = stalls!.watch;
      open.silence = (models) => betweenChunks(chunkMs, models);
    }
    if (walk) open.walked = walk;
    if (events) {
      events.responded(received.response.headers);
      open.events = events;
    }
    return open;
  }

  /**
   * A chat call's stall timeouts (the call's, else the client's), with their code loaded once
   * (an app that sets none never loads it); undefined, without an async step, when it has none.
   */
  #stalls(spec: RequestSpec): Promise<Stalls> | undefined {
    if (!spec.stall) return undefined;
    const firstChunkMs = spec.stall.firstChunkMs ?? this.#config.firstChunkTimeoutMs;
    const chunkMs = spec.stream ? (spec.stall.chunkMs ?? this.#config.chunkTimeoutMs) : undefined;
    if (firstChunkMs === undefined && chunkMs === undefined) return undefined;
    return loadStallWatch().then((watch) => ({ firstChunkMs, chunkMs, watch }));
  }

  /** Chat requests in flight from this realm to `model` under this client's key (the order of `fallbackModels`). */
  inflightTo(model: string): number {
    return modelInflight(this.#config.budgetId, model);
  }

  /** Counts our chat requests a `GET /models` answer may include (model-inflight.ts). */
  watchInflight(): () => ReadonlyMap<string, number> {
    return watchModelInflight(this.#config.budgetId);
  }

  /** `#attempt` with its `attempt` and `response` events. */
  async #observed(
    url: string,
    headers: Headers | Record<string, string>,
    fetchImpl: typeof fetch,
    spec: RequestSpec,
    scope: CallScope,
    stalls: Stalls | undefined,
    events: CallEvents,
    attempt: number,
  ): Promise<Received | GatewayError> {
    events.attempt(attempt, spec.method, spec.path, spec.route ? spec.requestedModel : undefined);
    let outcome: Received | GatewayError;
    try {
      outcome = await this.#attempt(url, headers, fetchImpl, spec, scope, stalls);
    } catch (error) {
      events.response(attempt, isGatewayError(error) ? error.status : undefined, error);
      throw error;
    }
    if (outcome instanceof GatewayError) events.response(attempt, outcome.status, outcome);
    else events.response(attempt, outcome.response.status);
    return outcome;
  }

  /**
   * One request. Returns the open response, or the error a retry may follow (a gateway error
   * answer, a network error before the first byte, a stall before it); throws what ends the call
   * at once. With a first-chunk limit the request has its own signal, aborted on a stall.
   */
  async #attempt(
    url: string,
    headers: Headers | Record<string, string>,
    fetchImpl: typeof fetch,
    spec: RequestSpec,
    scope: CallScope,
    stalls: Stalls | undefined,
  ): Promise<Received | GatewayError> {
    const limitMs = stalls?.firstChunkMs;
    if (limitMs === undefined) return this.#request(url, headers, fetchImpl, spec, scope);
    return stalls!.watch.withFirstChunkLimit(scope.signal, limitMs, spec.requestedModel, (watch) =>
      this.#request(url, headers, fetchImpl, spec, scope, watch),
    );
  }

  async #request(
    url: string,
    headers: Headers | Record<string, string>,
    fetchImpl: typeof fetch,
    spec: RequestSpec,
    scope: CallScope,
    watch?: FirstChunkWatch,
  ): Promise<Received | GatewayError> {
    let response: Response;
    try {
      response = await fetchImpl(url, {
        method: spec.method,
        headers,
        body: spec.body,
        signal: watch?.signal ?? scope.signal,
      });
    } catch (cause) {
      if (scope.aborted) throw scope.error({ requestedModel: spec.requestedModel });
      if (watch?.stall) return watch.stall;
      return new GatewayError({
        code: 'network_error',
        message: `Could not reach the gateway at ${this.#config.baseURL}: ${describeCause(cause)}${corsHint()}`,
        requestedModel: spec.requestedModel,
        cause,
      });
    }
    // A non-streamed answer's headers come with it: its first byte. A stream's come before it.
    if (!(response.ok && spec.stream)) watch?.arrived();
    if (response.ok) {
      if (!spec.stream) return { response };
      return this.#firstBytes(response, spec, scope, watch);
    }
    const error = await errorFromAnswer(
      response,
      spec,
      scope,
      this.#config.maxErrorBodyBytes,
      this.#apiKey,
      this.#config.maxRetryAfterMs,
    );
    this.#config.onErrorResponse?.(error);
    return error;
  }

  /**
   * Reads a stream's first bytes; a body that fails or ends before them is a retryable error, and
   * so is one that stays silent past the first-chunk limit (`watch`).
   */
  async #firstBytes(
    response: Response,
    spec: RequestSpec,
    scope: CallScope,
    watch: FirstChunkWatch | undefined,
  ): Promise<Received | GatewayError> {
    const contentType = response.headers.get('content-type') ?? '';
    if (contentType.includes('application/json')) {
      const body = await readErrorBody(response, this.#config.maxErrorBodyBytes).catch(() => '');
      throw invalidResponse('Asked for a stream, the gateway answered with JSON', {
        status: response.status,
        body: this.redact(body),
        requestedModel: spec.requestedModel,
      });
    }
    const reader = response.body?.getReader();
    if (!reader) return lostStream(response, spec);
    // Some fetch handlers only close (or never end) a body on abort: cancel the read ourselves.
    const signal = watch?.signal ?? scope.signal;
    const onAbort = () => reader.cancel().catch(() => {});
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const first = await reader.read();
      if (scope.aborted) throw scope.error({ requestedModel: spec.requestedModel });
      if (watch?.stall) return watch.stall;
      if (first.done) return lostStream(response, spec);
      return { response, reader, firstChunk: first.value };
    } catch (cause) {
      if (scope.aborted) throw scope.error({ requestedModel: spec.requestedModel });
      // (A stalled read may reject with the stall itself: it is the attempt's outcome.)
      if (watch?.stall) return watch.stall;
      if (isGatewayError(cause)) throw cause;
      return lostStream(response, spec, cause);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  async #wait(
    ms: number,
    scope: CallScope,
    spec: RequestSpec,
    lastFailure: GatewayError,
  ): Promise<void> {
    try {
      await sleep(ms, scope.signal);
    } catch {
      throw scope.error({ requestedModel: spec.requestedModel, lastFailure });
    }
  }

  /** Sends a request and reads the whole body as text, releasing the slot afterwards. */
  async text(
    spec: RequestSpec,
    options?: CallOptions,
  ): Promise<{ text: string; headers: Headers; status: number }> {
    const read = await this.#read(spec, options, false);
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
  ): Promise<{ data: T; headers: Headers; status: number; text: string; walked?: Walked }> {
    // No async frame of its own: one less per call on the chat path (bench B1).
    return this.#read(spec, options, true) as Promise<Read & { data: T }>;
  }

  /**
   * The whole body as text (the slot released and the scope ended once it is read), and with
   * `json` parsed, its `done` event sent; without `json` the `done` event is the caller's.
   */
  async #read(spec: RequestSpec, options: CallOptions | undefined, json: boolean): Promise<Read> {
    const { response, release, scope, events, walked } = await this.open(spec, options);
    let failure: GatewayError | undefined;
    let text: string;
    try {
      const declared = declaredLength(response.headers);
      if (declared !== undefined && declared > this.#config.maxResponseBytes) {
        response.body?.cancel().catch(() => {});
        throw tooLarge(response, spec, this.#config.maxResponseBytes, declared);
      }
      const read = await readBoundedBody(response, this.#config.maxResponseBytes);
      if (read.truncated) throw tooLarge(response, spec, this.#config.maxResponseBytes);
      text = read.text;
    } catch (cause) {
      const error = isGatewayError(cause)
        ? cause
        : scope.aborted
          ? scope.error({ requestedModel: spec.requestedModel })
          : new GatewayError({
              code: 'network_error',
              status: response.status,
              message: `The response body could not be read: ${describeCause(cause)}`,
              requestedModel: spec.requestedModel,
              cause,
            });
      failure = error;
      throw error;
    } finally {
      release();
      scope.dispose();
      // After the slot's `released`: `done` is a call's last event.
      if (failure) events?.failed(failure);
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
      events?.failed(error);
      throw error;
    }
    events?.answered(data, text);
    return walked ? { data, text, headers, status, walked } : { data, text, headers, status };
  }
}

/** A body read whole: its text, and with `json` its parsed value. */
interface Read {
  text: string;
  headers: Headers;
  status: number;
  data?: unknown;
  /** The call's events, for `text`'s caller to end (json calls have ended them). */
  events?: CallEvents;
  /** Calls with `fallbackModels`: the models tried, and the one that answered. */
  walked?: Walked;
}

/** The release of a local slot and a key slot together: once, the key's first. */
function bothSlots(local: ReleaseSlot, key: () => void): ReleaseSlot {
  let released = false;
  return () => {
    if (released) return;
    released = true;
    try {
      key();
    } catch {
      // A budget's release must not throw; if one does, the local slot is still given back.
    }
    local();
  };
}

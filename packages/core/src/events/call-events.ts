// docs/gateway-protocol.md §4.6 (the fallback event), §10.5 (retry events), §4.7 (skips, deferrals,
// failovers).
import { type GatewayError, type GatewayErrorCode, isGatewayError } from '../errors/errors';
import { answeringModel } from '../protocol/answering-model';
import type { AssembledChat } from '../protocol/chat-result-types';
import type {
  DeferredModel,
  FailoverReason,
  HopStructuredOutput,
  SkippedModel,
} from '../protocol/chat-route';
import { endpointName } from '../protocol/endpoints';
import { readUsage } from '../protocol/read-usage';
import type { Usage } from '../protocol/wire-types';
import type {
  GatewayAttemptEvent,
  GatewayDoneEvent,
  GatewayEvent,
  GatewayEventBase,
  GatewayEventHandler,
  GatewayFailoverEvent,
  GatewayHedgeEvent,
  GatewayOperation,
  GatewayResponseEvent,
  GatewayRetryEvent,
  GatewayStartEvent,
  HedgeSkipReason,
} from './gateway-events';
import { requestParameters } from './request-parameters';

/** An event as a method of CallEvents fills it: `#send` adds what every event has. */
type Fields<E> = E extends GatewayEvent ? Omit<E, keyof GatewayEventBase> : never;

/**
 * The last call id given in this realm, on `globalThis` under a registered symbol: every event of
 * one call carries its id, and two copies of core (the ESM and CJS builds, two versions) must never
 * give two calls one id — a handler shared by their clients (`otelEvents`) keys its calls by id.
 * (Not budget/realm.ts's `realmValue`: importing it from this lazily loaded module splits it off
 * the start bundle, which costs a client without `onEvent` about 40 bytes.)
 */
const CALL_IDS = Symbol.for('@infergate/core.callIds');

/** This copy's own ids, where the global object takes no new property (a hardened realm). */
const ownIds = { last: 0 };

function nextCallId(): number {
  const holder = globalThis as unknown as Record<symbol, { last: number } | undefined>;
  let ids = holder[CALL_IDS];
  if (typeof ids?.last !== 'number') {
    ids = Object.isExtensible(globalThis) ? { last: 0 } : ownIds;
    if (ids !== ownIds) {
      Object.defineProperty(globalThis, CALL_IDS, {
        value: ids,
        enumerable: false,
        configurable: true,
      });
    }
  }
  return ++ids.last;
}

interface CallEventsInit {
  onEvent: GatewayEventHandler;
  recordContent: boolean;
  /** Removes the API key from content and from every other text an event carries. */
  redact: (text: string) => string;
  method: 'GET' | 'POST';
  path: string;
  requestedModel: string | undefined;
  stream: boolean;
  body: string | FormData | undefined;
  budgetId: string;
  serverAddress: string;
  serverPort: number;
  /** The call this request was made for (a catalog read a chat call needed). */
  parent?: CallEvents;
}

/**
 * The events of one call, built only when the client has an `onEvent` hook (a client without
 * one creates none: the hot path pays one `undefined` check per step). Events are built as plain
 * literals, without spreads: a hooked call makes about ten of them.
 */
export class CallEvents {
  readonly #onEvent: GatewayEventHandler;
  readonly #redact: (text: string) => string;
  /** This call's id: every event of the call carries it. */
  readonly callId = nextCallId();
  readonly #operation: GatewayOperation;
  readonly #requestedModel: string | undefined;
  /**
   * The requested model as events show it: redacted, like every model id and detail they carry
   * (a key pasted into `model` or `fallbackModels` is redacted from the error; events too).
   */
  readonly #shownRequestedModel: string | undefined;
  readonly #startedAt = performance.now();
  readonly recordContent: boolean;
  /** The call's request body, with `recordContent`: an attempt that sends another one says so. */
  readonly #body: string | undefined;
  #attempts = 0;
  #queueWaitMs = 0;
  #queuedAt = 0;
  /** When each attempt was sent (a hedged call's two are in flight at once). */
  readonly #sentAt = new Map<number, number>();
  /** The answer's headers, once a 2xx arrived (`X-Service-Model`). */
  #headers: Headers | undefined;
  #servedModel: string | undefined;
  /** The model the latest attempt asked for, when it is not the requested one's (`fallbackModels`). */
  #model: string | undefined;
  #ended = false;
  /** The `done` event was sent: nothing of this call follows it (a handler forgets the call). */
  #closed = false;
  /** What the `done` event waits for: a hedged call's cut attempt, settling (`endsAfter`). */
  #held: Promise<unknown> | undefined;
  /** A structured call's answer checked: how it was served (its `done` event's `structured`). */
  #structured: HopStructuredOutput | undefined;
  /** A hedged call's runs answer side by side: its answering model waits for the winner. */
  #racing = false;
  /**
   * The attempts whose 2xx answer was handed over, and its status: their `response` waits for the
   * answer's outcome (a body that is not JSON, a stream that fails, is a failed attempt), before `done`.
   */
  readonly #answering = new Map<number, number>();
  /** The `released` events that wait for their attempt's `response` (`#answering`): budget ids. */
  readonly #releasedLater = new Map<number, string>();
  /** The call's failure's gateway code, for the `response` of an answer that failed before it began. */
  #failureCode: GatewayErrorCode | undefined;
  /** Attempts a hedged call's race cut in flight (`lostAttempt`): their outcome is `aborted`. */
  readonly #lost = new Set<number>();

  constructor(init: CallEventsInit) {
    this.#onEvent = init.onEvent;
    this.#redact = init.redact;
    this.recordContent = init.recordContent;
    // Each endpoint's name in protocol/endpoints.ts is its operation.
    this.#operation = endpointName(init.path) ?? 'other';
    this.#requestedModel = init.requestedModel;
    this.#shownRequestedModel = this.#shown(init.requestedModel);
    const event: Fields<GatewayStartEvent> = {
      type: 'start',
      method: init.method,
      path: init.path,
      serverAddress: this.#shown(init.serverAddress),
      serverPort: init.serverPort,
      stream: init.stream,
      budgetId: init.budgetId,
    };
    if (this.#shownRequestedModel !== undefined) event.requestedModel = this.#shownRequestedModel;
    if (init.parent !== undefined) event.parentCallId = init.parent.callId;
    const operation = this.#operation;
    if ((operation === 'chat' || operation === 'embeddings') && typeof init.body === 'string') {
      const parameters = requestParameters(operation, init.body, init.redact);
      if (parameters !== undefined) event.parameters = parameters;
    }
    if (this.recordContent && typeof init.body === 'string') {
      this.#body = init.body;
      event.input = init.redact(init.body);
    }
    this.#send(event);
  }

  queued(attempt: number, budgetId: string): void {
    this.#queuedAt = performance.now();
    this.#send({
      type: 'queued',
      attempt,
      budgetId,
    });
  }

  dequeued(attempt: number, budgetId: string): void {
    const waitMs = performance.now() - this.#queuedAt;
    this.#queueWaitMs += waitMs;
    this.#send({
      type: 'dequeued',
      attempt,
      budgetId,
      waitMs,
    });
  }

  /** `cut`: the body was cut before its end (a hedge's loser, an abort, a stream cancelled). */
  released(attempt: number, budgetId: string, cut = false): void {
    // An attempt's `released` follows its `response`: one waiting for its answer's outcome, unless
    // its answer was cut before it began, which is its outcome (`aborted`), not the call's.
    const status = this.#answering.get(attempt);
    if (status !== undefined && !cut) {
      this.#releasedLater.set(attempt, budgetId);
      return;
    }
    if (status !== undefined) {
      this.#answering.delete(attempt);
      this.#sendResponse(attempt, status, false, 'aborted');
    }
    this.#send({
      type: 'released',
      attempt,
      budgetId,
    });
  }

  /** A request is sent; `model`: the model it asks for (calls with `fallbackModels`). */
  attempt(
    attempt: number,
    method: 'GET' | 'POST',
    path: string,
    model?: string,
    body?: string | FormData,
  ): void {
    this.#attempts = attempt;
    if (model !== undefined) this.#model = model;
    this.#sentAt.set(attempt, performance.now());
    const event: Fields<GatewayAttemptEvent> = {
      type: 'attempt',
      attempt,
      method,
      path,
    };
    if (this.#shownRequestedModel !== undefined) event.requestedModel = this.#shownRequestedModel;
    if (model !== undefined) event.model = this.#shown(model);
    if (this.recordContent && typeof body === 'string' && body !== this.#body) {
      event.input = this.#redact(body);
    }
    this.#send(event);
  }

  /** An entry of a catalog list read without a string `id` was left out (`index`: its position). */
  entrySkipped(index: number): void {
    this.#send({ type: 'entry-skipped', index });
  }

  /** A listed model was left out before sending (`fallbackModels`). */
  skipped(skip: SkippedModel): void {
    this.#send({
      type: 'model-skipped',
      model: this.#shown(skip.model),
      reason: skip.reason,
      detail: this.#shown(skip.detail),
    });
  }

  /** A listed model not tried yet was put behind the one chosen for the next attempt (`fallbackModels`). */
  deferred(defer: DeferredModel): void {
    this.#send({
      type: 'model-deferred',
      model: this.#shown(defer.model),
      reason: defer.reason,
      ahead: this.#shown(defer.ahead),
      detail: this.#shown(defer.detail),
    });
  }

  /**
   * The call left `from` for `to` at once (`fallbackModels`), after `waitedMs` on `from`; `usage`:
   * that of `from`'s answer the structured check refused; `heldMs`: a hedged call's move held back
   * to the key's `Retry-After`.
   */
  failover(
    from: string,
    to: string,
    reason: FailoverReason,
    waitedMs: number,
    structured?: HopStructuredOutput,
    usage?: Usage,
    heldMs?: number,
  ): void {
    const event: Fields<GatewayFailoverEvent> = {
      type: 'failover',
      from: this.#shown(from),
      to: this.#shown(to),
      reason,
      waitedMs,
    };
    if (structured) event.structured = structured;
    const counts = readUsage(usage);
    if (counts !== undefined) event.usage = counts;
    if (heldMs !== undefined) event.heldMs = heldMs;
    this.#send(event);
  }

  /** How the structured answer was served, and whether it was checked (its `done` event says). */
  structuredAnswer(structured: HopStructuredOutput): void {
    this.#structured = structured;
  }

  /** A hedged call sent its second attempt (`to`), `waitedMs` after `from` gave no content. */
  hedgeSent(from: string, to: string, waitedMs: number): void {
    this.#send({
      type: 'hedge',
      phase: 'sent',
      model: this.#shown(to),
      from: this.#shown(from),
      waitedMs,
    });
  }

  /**
   * A hedged call's race was won by `model`; the other attempt (`lost`) was aborted — none when
   * the other had failed on its own before (its failure is a hop of the route).
   */
  hedgeWon(model: string, winner: 'first' | 'hedge', lost: string | undefined): void {
    const event: Fields<GatewayHedgeEvent> = {
      type: 'hedge',
      phase: 'won',
      model: this.#shown(model),
      winner,
    };
    if (lost !== undefined) event.lost = this.#shown(lost);
    this.#send(event);
  }

  /** A hedged call's hedge was due after `waitedMs` on `model`, and not sent (`reason`). */
  hedgeSkipped(model: string, reason: HedgeSkipReason, waitedMs: number): void {
    this.#send({
      type: 'hedge-skipped',
      model: this.#shown(model),
      reason,
      waitedMs,
    });
  }

  /** `model`'s circuit breaker opened for `cooldownMs`. */
  circuitOpen(model: string, cooldownMs: number): void {
    this.#send({
      type: 'circuit-open',
      model: this.#shown(model),
      cooldownMs,
    });
  }

  /**
   * `circuit-probe`: this call was let through as `model`'s one probe, its cooldown over;
   * `circuit-close`: an answer from `model` closed its breaker (a probe's, or any while it was open;
   * another client's, for a client told it opened).
   */
  circuit(type: 'circuit-probe' | 'circuit-close', model: string): void {
    this.#send({ type, model: this.#shown(model) });
  }

  /**
   * One attempt's `attempt` event, then `run` (it sends the request), then its `response` event:
   * the failure it resolved or threw with — with the status of the 2xx answer it refused
   * (`answered`), when the failure has none of its own. A 2xx answer handed over sends it once
   * the answer began (`answerBegan`), else with the call's failure, just before `done`.
   */
  async observe<T extends { response: Response }>(
    attempt: number,
    request: { method: 'GET' | 'POST'; path: string; model?: string; body?: string | FormData },
    run: () => Promise<T | GatewayError>,
    answered: () => number | undefined = () => undefined,
  ): Promise<T | GatewayError> {
    this.attempt(attempt, request.method, request.path, request.model, request.body);
    let outcome: T | GatewayError;
    try {
      outcome = await run();
    } catch (error) {
      const status = isGatewayError(error) ? error.status : undefined;
      this.#failedResponse(attempt, status ?? answered(), error);
      throw error;
    }
    if (isGatewayError(outcome)) {
      this.#failedResponse(attempt, outcome.status ?? answered(), outcome);
    } else this.#answering.set(attempt, outcome.response.status);
    return outcome;
  }

  /**
   * A hedged call's race was decided for the other run while `attempt` was in flight: it lost,
   * and the failure it ends with after (one that came with the winner's first content) is told as
   * `aborted`, as the `hedge` `won` event's `lost` says. False when its outcome was told already.
   */
  lostAttempt(attempt: number): boolean {
    if (!this.#sentAt.has(attempt) || this.#answering.has(attempt)) return false;
    this.#lost.add(attempt);
    return true;
  }

  /** A failed attempt's `response`: `aborted` when the race cut it in flight (`lostAttempt`). */
  #failedResponse(attempt: number, status: number | undefined, error: unknown): void {
    if (this.#lost.delete(attempt)) this.#sendResponse(attempt, status, false, 'aborted');
    else this.response(attempt, status, error);
  }

  /**
   * A stream handed over gave its first content: its attempt succeeded (a failure later fails the
   * stream, not the attempt that delivered content), its `response` now. (A whole answer's attempt
   * reports its outcome just before `done`.)
   */
  answerBegan(): void {
    if (this.#answering.size > 0) this.#sendAnswering(false);
  }

  /**
   * The `response` of the attempts whose answer was handed over: its outcome, with the call's
   * gateway code when it failed (none for a failure without one: an abandoned stream's).
   */
  #sendAnswering(failed: boolean, code?: GatewayErrorCode): void {
    const answering = [...this.#answering];
    this.#answering.clear();
    for (const [attempt, status] of answering) {
      this.#sendResponse(attempt, status, !failed, code);
      const budgetId = this.#releasedLater.get(attempt);
      this.#releasedLater.delete(attempt);
      if (budgetId !== undefined) this.released(attempt, budgetId);
    }
  }

  /**
   * A hedged call's run whose 2xx answer (attempt `attempt`) failed as it was read whole, after its
   * slot was given back and with the call's end left to the race: that attempt's `response` now,
   * with its own failure (`invalid_response` for a body cut mid-JSON), then its `released` — not
   * at the call's end with the call's outcome. Nothing when the attempt has no answer waiting.
   */
  answerFailed(attempt: number, error: unknown): void {
    const status = this.#answering.get(attempt);
    if (status === undefined) return;
    this.#answering.delete(attempt);
    this.response(attempt, status, error);
    const budgetId = this.#releasedLater.get(attempt);
    this.#releasedLater.delete(attempt);
    if (budgetId !== undefined) this.released(attempt, budgetId);
  }

  /** An attempt's outcome: `error` is the error it failed with (a 2xx has none). */
  response(attempt: number, status: number | undefined, error?: unknown): void {
    const known = isGatewayError(error) ? error : undefined;
    this.#sendResponse(attempt, status, error === undefined, known?.code, known);
  }

  /** The `response` event: `code`, the failure's (`error`, when a GatewayError). */
  #sendResponse(
    attempt: number,
    status: number | undefined,
    ok: boolean,
    code: GatewayErrorCode | undefined,
    error?: GatewayError,
  ): void {
    const sentAt = this.#sentAt.get(attempt);
    this.#sentAt.delete(attempt);
    const event: Fields<GatewayResponseEvent> = {
      type: 'response',
      attempt,
      ok,
      durationMs: sentAt === undefined ? 0 : performance.now() - sentAt,
    };
    if (status !== undefined) event.status = status;
    if (code !== undefined) event.code = code;
    if (error?.retryAfterMs !== undefined) event.retryAfterMs = error.retryAfterMs;
    this.#send(event);
  }

  /**
   * A retry scheduled after `attempt` failed, for `error`: the failure of attempt `retried.failedIn`
   * (a round's: not always `attempt`'s), whose model (`retried.model`) the retry asks again.
   */
  retry(
    attempt: number,
    delayMs: number,
    error: unknown,
    retried: { model?: string | undefined; failedIn?: number } = {},
  ): void {
    if (!isGatewayError(error)) return;
    const event: Fields<GatewayRetryEvent> = {
      type: 'retry',
      attempt,
      delayMs,
      reason: error.code,
    };
    if (error.status !== undefined) event.status = error.status;
    if (retried.model !== undefined) event.model = retried.model;
    const { failedIn } = retried;
    if (failedIn !== undefined && failedIn !== attempt) event.reasonAttempt = failedIn;
    this.#send(event);
  }

  /** A 2xx answer's headers arrived: `X-Service-Model`, when present, names the answering model. */
  responded(headers: Headers): void {
    this.#headers = headers;
    // Before the body is read, only the header can name it.
    if (!this.#racing) this.#served();
  }

  /**
   * A hedged call's race was won while its other attempt was in flight: that attempt, aborted,
   * still sends its `response` and `released`; the call's `done` waits until `bounded` settles (at
   * once, an abort being immediate) so that it stays the call's last event — its caller bounds it
   * to a cut request's grace (`settledWithin`, budget/releases-due.ts): a `fetch` deaf to its
   * signal must not keep the call (and its span) open. What the cut attempt reports after `done`
   * is dropped.
   */
  endsAfter(bounded: Promise<void>): void {
    const held = this.#held;
    this.#held = held === undefined ? bounded : Promise.all([held, bounded]);
  }

  /** A hedged call begins: its runs' answers name no model until one of them has won. */
  raceBegins(): void {
    this.#racing = true;
  }

  /**
   * A hedged call's race was decided: the winner's model and headers name the answering model
   * (not the last run to be sent or to answer, which may be the loser).
   */
  raceWon(model: string, headers: Headers | undefined): void {
    this.#racing = false;
    this.#model = model;
    this.#headers = headers;
    this.#served();
  }

  /**
   * A JSON answer was read whole: the `done` event with its answering model, its `usage`, and
   * for a chat completion its `id` and the finish reason of choice 0.
   */
  answered(data: unknown, text: string): void {
    const answer =
      typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
    this.#served(answer.model, this.#model ?? this.#requestedModel);
    const choices = Array.isArray(answer.choices) ? (answer.choices as unknown[]) : undefined;
    const first = choices?.find(
      (choice): choice is Record<string, unknown> =>
        typeof choice === 'object' &&
        choice !== null &&
        (choice as { index?: unknown }).index === 0,
    );
    this.succeeded(answer.usage as Usage | undefined, () => text, {
      id: choices ? answer.id : undefined,
      finishReason: first?.finish_reason,
    });
  }

  /**
   * The answering model, once known (the first one wins): by the answer's headers, else its
   * body's `model`, else `asked`; with a `fallback` event for chat.
   */
  #served(bodyModel?: unknown, asked?: string): void {
    if (this.#servedModel !== undefined) return;
    const model = answeringModel(this.#headers, bodyModel, asked);
    if (model === undefined) return;
    this.#servedModel = model;
    const requested = this.#requestedModel;
    // Only a chat request can be answered by another model (the pool fallback of an offline one).
    if (this.#operation === 'chat' && requested !== undefined && model !== requested) {
      this.#send({
        type: 'fallback',
        requestedModel: this.#shownRequestedModel ?? requested,
        servedModel: this.#shown(model),
      });
    }
  }

  /**
   * The answer was read: its usage, `id` and finish reason when it has them; `output` is the
   * answer's text, used only with `recordContent`.
   */
  succeeded(
    usage?: Usage | null,
    output?: () => string,
    answer: { id?: unknown; finishReason?: unknown } = {},
  ): void {
    const event = this.#done(true);
    if (!event) return;
    if (typeof answer.id === 'string' && answer.id !== '')
      event.responseId = this.#shown(answer.id);
    if (typeof answer.finishReason === 'string' && answer.finishReason !== '') {
      event.finishReason = this.#shown(answer.finishReason);
    }
    const servedModel = this.#servedModel ?? this.#model;
    const shown = servedModel === undefined ? this.#shownRequestedModel : this.#shown(servedModel);
    if (shown !== undefined) event.servedModel = shown;
    const counts = readUsage(usage);
    if (counts !== undefined) event.usage = counts;
    if (this.recordContent && output) event.output = this.#redact(output());
    this.#sendDone(event);
  }

  failed(error: unknown, usage?: Usage): void {
    const known = isGatewayError(error) ? error : undefined;
    this.#failureCode = known?.code;
    const code = known?.code ?? (error instanceof Error ? this.#shown(error.name) : typeof error);
    const status = known?.status;
    const invalid = known?.invalidOutput;
    const structured = invalid && { method: invalid.method, checked: false };
    // (A refused structured answer's tokens were spent: its usage is the `done` event's.)
    this.#failed(
      status === undefined ? { code } : { code, status },
      structured,
      usage ?? known?.usage,
    );
  }

  /** A chat stream ended: read to its end (`answer`), or failed or cancelled (`error`). */
  streamEnded(error: unknown, answer: AssembledChat | undefined): void {
    if (error !== undefined || answer === undefined) {
      // (Aborted once read whole: its tokens were spent, its usage known.)
      this.failed(error, answer?.usage);
      return;
    }
    // Without the header, the chunks' `model` names it (§4.6), as a whole answer's body does.
    this.#served(answer.model, this.#model ?? this.#requestedModel);
    if (answer.structured) this.#structured = { method: answer.structured.method, checked: true };
    this.succeeded(answer.usage, () => JSON.stringify(answer), answer);
  }

  /**
   * A stream dropped unread and garbage-collected: the call ends (not ok, `error.code`
   * `'abandoned'`) unless it already has — a handler keeping state per call (spans) can free it.
   */
  abandoned(): void {
    this.#failed({ code: 'abandoned' });
  }

  /**
   * The `done` event of a call that failed (`structured`: its answer broke the schema; `usage`:
   * that answer's).
   */
  #failed(error: GatewayDoneEvent['error'], structured?: HopStructuredOutput, usage?: Usage): void {
    const event = this.#done(false);
    if (!event) return;
    if (this.#servedModel !== undefined) event.servedModel = this.#shown(this.#servedModel);
    event.error = error;
    if (structured) event.structured = structured;
    const counts = readUsage(usage);
    if (counts !== undefined) event.usage = counts;
    this.#sendDone(event);
  }

  /** Sends the `done` event, once what it waits for has settled (`endsAfter`); then no other. */
  #sendDone(event: Fields<GatewayDoneEvent>): void {
    const close = () => {
      // An answer that failed before it began: its attempt failed with the call.
      this.#sendAnswering(event.error !== undefined, this.#failureCode);
      this.#send(event);
      this.#closed = true;
    };
    const held = this.#held;
    if (held === undefined) {
      close();
      return;
    }
    // (What it waits for may grow meanwhile: an attempt's release, held for a fetch given up on.)
    const next = () => (this.#held === held ? close() : this.#sendDone(event));
    held.then(next, next);
  }

  /** The `done` event to fill and send, or undefined when the call has already ended. */
  #done(ok: boolean): Fields<GatewayDoneEvent> | undefined {
    if (this.#ended) return undefined;
    this.#ended = true;
    const event: Fields<GatewayDoneEvent> = {
      type: 'done',
      ok,
      durationMs: performance.now() - this.#startedAt,
      attempts: this.#attempts,
      queueWaitMs: this.#queueWaitMs,
    };
    if (this.#shownRequestedModel !== undefined) event.requestedModel = this.#shownRequestedModel;
    if (this.#structured) event.structured = this.#structured;
    return event;
  }

  /**
   * `text` as an event shows it: redacted when a string (a model id, a detail, the server's words).
   * Not a string (a hostile answer's model that is a number): as it is, as events passed it before.
   */
  #shown<T>(text: T): T {
    return typeof text === 'string' ? (this.#redact(text) as T) : text;
  }

  /** Sends `fields` as one of this call's events: its id, operation and time added here. */
  #send(fields: Fields<GatewayEvent>): void {
    if (this.#closed) return;
    const event = fields as GatewayEvent;
    event.callId = this.callId;
    event.operation = this.#operation;
    event.time = Date.now();
    try {
      const result: unknown = this.#onEvent(event);
      // An async hook's rejection must not become an unhandled rejection either.
      if (typeof (result as PromiseLike<unknown> | undefined)?.then === 'function') {
        (result as PromiseLike<unknown>).then(undefined, ignore);
      }
    } catch {
      // A hook that throws must not change the call's outcome.
    }
  }
}

function ignore(): void {}

/** `server.address` and `server.port` of a base URL. */
export function serverOf(baseURL: string): { address: string; port: number } {
  const url = new URL(baseURL);
  const address = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  return { address, port };
}

import type { GatewayErrorCode } from '../errors/errors';
import type {
  DeferReason,
  FailoverReason,
  HopStructuredOutput,
  ModelSkipReason,
} from '../protocol/chat-route';
import type { UsageCounts } from '../protocol/read-usage';

/**
 * What a call does, named as in the OpenTelemetry GenAI conventions where they have a name
 * (`chat`, `embeddings`); the gateway's other endpoints by their service.
 */
export type GatewayOperation =
  | 'chat'
  | 'embeddings'
  | 'translation'
  | 'ocr'
  | 'transcription'
  | 'models'
  | 'capabilities'
  | 'other';

/** Fields every event has. */
export interface GatewayEventBase {
  /** Identifies the call within this JavaScript realm: every event of one call has the same id. */
  callId: number;
  operation: GatewayOperation;
  /** When the event happened (epoch ms). */
  time: number;
}

/** The call began (before it asks for a slot). */
export interface GatewayStartEvent extends GatewayEventBase {
  type: 'start';
  method: 'GET' | 'POST';
  /** Path below the base URL, e.g. `/chat/completions`. */
  path: string;
  /** Host of the base URL (`server.address`). */
  serverAddress: string;
  /** Port of the base URL (the scheme's default when it names none). */
  serverPort: number;
  requestedModel?: string;
  stream: boolean;
  /** Opaque id of the (gateway origin, API key) budget: a hash, never the key. */
  budgetId: string;
  /** The request body as sent (JSON text); only with `recordContent: true` on the client. */
  input?: string;
  /** A request another call made for itself (the catalog read a chat call's gate needed): that call. */
  parentCallId?: number;
  /** What the request body sets of the parameters the GenAI conventions record (chat, embeddings). */
  parameters?: GatewayRequestParameters;
}

/**
 * The parameters a chat or embeddings request body sets, as sent, that the OpenTelemetry GenAI
 * conventions record (`gen_ai.request.*`, `gen_ai.output.type`, `gen_ai.embeddings.dimension.count`).
 */
export interface GatewayRequestParameters {
  temperature?: number;
  maxTokens?: number;
  topP?: number;
  seed?: number;
  /** `stop`, as a list. */
  stopSequences?: string[];
  frequencyPenalty?: number;
  presencePenalty?: number;
  /** `json` for a `response_format` of `json_schema` or `json_object`; `text` for another. */
  outputType?: 'json' | 'text';
  /** Embeddings: the `dimensions` asked for. */
  dimensions?: number;
}

/** The call asks for a slot (its client's `maxConcurrency`, then the key's budget). */
export interface GatewayQueuedEvent extends GatewayEventBase {
  type: 'queued';
  /** Attempt the slot is for (1 = the first). */
  attempt: number;
  budgetId: string;
}

/** The call got its slot, after `waitMs` in the queue (0 when a slot was free). */
export interface GatewayDequeuedEvent extends GatewayEventBase {
  type: 'dequeued';
  attempt: number;
  budgetId: string;
  waitMs: number;
}

/**
 * The call gave its slot back: before a retry's wait, when its answer was read (a stream: when
 * its body ended, read or not), or when it failed.
 */
export interface GatewayReleasedEvent extends GatewayEventBase {
  type: 'released';
  attempt: number;
  budgetId: string;
}

/** A request is sent. */
export interface GatewayAttemptEvent extends GatewayEventBase {
  type: 'attempt';
  attempt: number;
  method: 'GET' | 'POST';
  path: string;
  requestedModel?: string;
  /**
   * The model this attempt asks for, when the call has `fallbackModels`: after a failover it
   * differs from `requestedModel` (the call's first model).
   */
  model?: string;
  /**
   * The body this attempt sent (JSON text), when it is not the call's (`start`'s `input`): a
   * steered call's hop names its own model and may serve a schema its own way. Only with
   * `recordContent: true` on the client.
   */
  input?: string;
}

/**
 * A listed model was left out before any request (`fallbackModels` only): not in the catalog,
 * or lacking what the call needs. Sent after `start`, before the first `queued`.
 */
export interface GatewayModelSkippedEvent extends GatewayEventBase {
  type: 'model-skipped';
  model: string;
  reason: ModelSkipReason;
  /** Why, in a sentence (what the model lacks, and the models that would do). */
  detail: string;
}

/**
 * A listed model not tried yet was put behind `ahead`, a model listed after it, chosen for the
 * next attempt (`fallbackModels` only): it is full, offline, an own model the catalog does not
 * list, or it failed often lately (`reason`). It is tried later only if the walk gets back to it.
 * Sent when `ahead` is chosen: once the call holds the slot for it, after that hop's `failover`
 * if any (for a hedge's model, after the hedge's `sent`), before its `attempt`. At most once per
 * model per round.
 */
export interface GatewayModelDeferredEvent extends GatewayEventBase {
  type: 'model-deferred';
  model: string;
  reason: DeferReason;
  /** The model chosen before it (the next `attempt`'s). */
  ahead: string;
  /** Why, in a sentence. */
  detail: string;
}

/**
 * The call left `from` for `to` at once, without a retry wait (`fallbackModels` only): `from`
 * was busy, unavailable, stalled before its first chunk, or refused the model. `waitedMs`: the
 * time spent on `from` (its attempt). Sent when `to` is chosen: after `from`'s `released`, once
 * the call holds its next slot (the order by free capacity is taken then), before `to`'s `attempt`.
 */
export interface GatewayFailoverEvent extends GatewayEventBase {
  type: 'failover';
  from: string;
  to: string;
  reason: FailoverReason;
  waitedMs: number;
  /** A call asking for structured output whose answer from `from` failed the check: how it was asked. */
  structured?: HopStructuredOutput;
  /**
   * The answer `from` gave and the check refused: its tokens, when the gateway reported them (they
   * were spent; the `done` event's `usage` is the answer's the call returned).
   */
  usage?: UsageCounts;
  /**
   * A hedged call's move held back to the key's own `Retry-After` (`client_concurrency_exceeded`,
   * told to either attempt): how long it waited before its slot was asked for (none when it went at once).
   */
  heldMs?: number;
}

/**
 * An attempt's outcome: a 2xx, an error answer, or a network error (no `status`). The attempt whose
 * 2xx answer is handed over reports that answer's: sent once it began (a stream's first content),
 * else with the failure that ended it before (a body that is not JSON), just before `done`.
 */
export interface GatewayResponseEvent extends GatewayEventBase {
  type: 'response';
  attempt: number;
  ok: boolean;
  /** HTTP status; absent when the gateway was not reached. */
  status?: number;
  /** The gateway's error code (or `network_error`), when not ok. */
  code?: GatewayErrorCode;
  /** The answer's `Retry-After`, in ms. */
  retryAfterMs?: number;
  /** From sending the request to its outcome (see above). */
  durationMs: number;
}

/**
 * The attempt failed and a retry is scheduled: another attempt follows after `delayMs` (the slot is
 * given back meanwhile), unless the call ends during the wait (its signal, its deadline, a hedged
 * call's other attempt answering first): then none is sent.
 */
export interface GatewayRetryEvent extends GatewayEventBase {
  type: 'retry';
  /** The attempt that failed. */
  attempt: number;
  delayMs: number;
  /**
   * The code of the failure the retry is for, e.g. `client_concurrency_exceeded`, `network_error`:
   * the failed attempt's; a call's round over its `fallbackModels`, the failure of the first model
   * it asks again (the failed attempt's may be one no round retries, a refusal of its model).
   */
  reason: GatewayErrorCode;
  status?: number;
  /**
   * The model the retry asks again: the failed attempt's; a round's, the model whose failure
   * `reason` is (the first in the list's order; the next `attempt` event names the model asked,
   * the round's order by free capacity may put another first).
   */
  model?: string;
  /** The attempt `reason` came from, when not `attempt` (a round retrying an earlier failure). */
  reasonAttempt?: number;
}

/**
 * A hedged call (`hedge`): `sent` when its second attempt goes out (`model`, after `waitedMs`
 * without content on `from`); `won` when one of the two delivered first (`model`), the other
 * (`lost`) aborted at once — unless it had failed already.
 */
export interface GatewayHedgeEvent extends GatewayEventBase {
  type: 'hedge';
  phase: 'sent' | 'won';
  /** `sent`: the hedge's model; `won`: the winner's. */
  model: string;
  /** `sent`: the model of the attempt that was slow. */
  from?: string;
  /**
   * `sent`: how long `from`'s attempt had run without content when the hedge was sent, measured on
   * the call's clock (after a failover, less than `afterMs`, which counts from the call's first request).
   */
  waitedMs?: number;
  /** `won`: which attempt won. */
  winner?: 'first' | 'hedge';
  /** `won`: the loser's model, aborted in flight; absent when the other attempt had failed on its own. */
  lost?: string;
}

/**
 * Why a hedge was not sent: `cap`, the key's hedge allowance (`maxExtra`) is spent; `no_free_slot`,
 * the key's budget (or the client's `maxConcurrency`) has no free slot and a hedge never queues;
 * `no_candidate`, no model has free capacity for it (the listed models left and the slow one are full or
 * offline by the catalog), or none may be asked now: the first run waits for their `Retry-After`, or
 * for the key's own (`client_concurrency_exceeded`).
 */
export type HedgeSkipReason = 'cap' | 'no_free_slot' | 'no_candidate';

/**
 * A hedged call's hedge was due and not sent (`reason`). At most once per call, in place of the
 * `hedge` `sent` event. Told as it is skipped, naming the first run's attempt then current, which
 * had no content after `waitedMs` — except a skip with `no_candidate` while the first run waits
 * between its attempts (no request in flight, so none is slow): the hedge is then due again
 * `afterMs` after the run's next request, and this skip is told only if no hedge follows, at the
 * call's end, naming the request the hedge's delay counted from and the wait it had when the
 * hedge was due.
 */
export interface GatewayHedgeSkippedEvent extends GatewayEventBase {
  type: 'hedge-skipped';
  /**
   * The model of the first run's attempt when the hedge was due; for a `no_candidate` skip between
   * its attempts, of the request the hedge's delay counted from.
   */
  model: string;
  reason: HedgeSkipReason;
  /**
   * How long that attempt had run without content when the hedge was due, measured (as a
   * `hedge`'s `waitedMs`): 0 when it had not begun (a failover or retry waiting for its slot);
   * for a `no_candidate` skip between attempts, the time since the request its delay counted from.
   */
  waitedMs: number;
}

/**
 * A model's circuit breaker opened (`fallbackModels` calls): this call's failure reached the
 * client's `failures` in a row, or its probe failed, or this call is the client's first to find it
 * opened by other clients' failures; the client's calls plan around it for `cooldownMs` from when
 * it opened (told late, less of it may be left).
 */
export interface GatewayCircuitOpenEvent extends GatewayEventBase {
  type: 'circuit-open';
  model: string;
  cooldownMs: number;
}

/**
 * A model's circuit breaker let this call through as its one probe (`fallbackModels` calls): the
 * client's cooldown is over, and no other probe of the model is in flight in the realm.
 */
export interface GatewayCircuitProbeEvent extends GatewayEventBase {
  type: 'circuit-probe';
  model: string;
}

/**
 * A model's circuit breaker closed: this call's answer from it (its probe's, or any while open),
 * or, when the client was told it opened, another client's answer since (told as the call plans it).
 */
export interface GatewayCircuitCloseEvent extends GatewayEventBase {
  type: 'circuit-close';
  model: string;
}

/** Another model answered than the one requested (`X-Service-Model`, else the body's `model`). */
export interface GatewayFallbackEvent extends GatewayEventBase {
  type: 'fallback';
  requestedModel: string;
  servedModel: string;
}

/**
 * An entry of a list read (`GET /models`, `GET /capabilities`: the `operation`) that the client
 * cannot read, an entry without a string `id`, was left out; the other entries are served. Sent
 * once per such entry of each read, before the read's `done`.
 */
export interface GatewayEntrySkippedEvent extends GatewayEventBase {
  type: 'entry-skipped';
  /** The entry's position in the list's `data` (from 0). */
  index: number;
}

/** The call ended: its answer was read (a stream: to its end), or it failed. */
export interface GatewayDoneEvent extends GatewayEventBase {
  type: 'done';
  ok: boolean;
  /** From `start` to the end of the answer (a stream's last byte). */
  durationMs: number;
  /** Attempts sent (0 when the call ended while queued). */
  attempts: number;
  /** Time spent waiting for slots, summed over attempts. */
  queueWaitMs: number;
  requestedModel?: string;
  /** The model that answered; absent when none did. */
  servedModel?: string;
  /**
   * Tokens, when the answer reported usage: the answer's the call returned (a call that failed on
   * an answer its structured check refused: that answer's). A refused answer the call moved on
   * from has its own on its `failover` event.
   */
  usage?: UsageCounts;
  /** The answer's `id`, when it has one (chat). */
  responseId?: string;
  /** Choice 0's `finish_reason` as the model server sent it (chat). */
  finishReason?: string;
  /**
   * Why the call failed: the `GatewayError`'s code (else the thrown error's name) and status;
   * `abandoned` for a stream dropped unread and garbage-collected.
   */
  error?: { code: GatewayErrorCode | (string & {}); status?: number };
  /** The answer (JSON text; a stream's assembled answer); only with `recordContent: true`. */
  output?: string;
  /**
   * A call asking for structured output: how the answering (or last) model served the schema, and
   * whether its answer passed the check (`false`: the call failed with `invalid_structured_output`).
   */
  structured?: HopStructuredOutput;
}

/**
 * What happens to a call, for `onEvent`. In order: `start`; `model-skipped` for each listed model
 * left out before sending; per attempt `queued`, `dequeued`, `attempt`, `response`, then
 * `released` when the slot is given back (a stream's when its body ends), then `failover` when
 * the next listed model follows at once or `retry` when another attempt follows after a wait
 * (`circuit-open` when a model's failures open its breaker, `circuit-probe` when the call is a
 * breaker's probe, `circuit-close` when its answer closes one); a hedged call's `hedge` when its
 * second attempt is sent and when one of the two won (`hedge-skipped` when it was due but not sent);
 * `model-deferred` for each listed model put behind the one chosen for an attempt (before that
 * `attempt`, after its hop's `failover`); `fallback` when another model answers than the one
 * requested; `entry-skipped` for each entry of
 * a catalog list read that cannot be read; `done` last. Events never hold the API key or headers, and hold message content only when the client
 * is created with `recordContent: true`.
 */
export type GatewayEvent =
  | GatewayStartEvent
  | GatewayQueuedEvent
  | GatewayDequeuedEvent
  | GatewayReleasedEvent
  | GatewayAttemptEvent
  | GatewayResponseEvent
  | GatewayRetryEvent
  | GatewayModelSkippedEvent
  | GatewayModelDeferredEvent
  | GatewayFailoverEvent
  | GatewayHedgeEvent
  | GatewayHedgeSkippedEvent
  | GatewayCircuitOpenEvent
  | GatewayFallbackEvent
  | GatewayEntrySkippedEvent
  | GatewayDoneEvent
  | GatewayCircuitProbeEvent
  | GatewayCircuitCloseEvent;

/** A plain hook for a client's events. It is called synchronously; what it throws is ignored. */
export type GatewayEventHandler = (event: GatewayEvent) => void;

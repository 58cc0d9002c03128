// docs/gateway-protocol.md §10.5 (the retry policy: what follows a failed attempt, and when).
import { type GatewayError, isGatewayError } from '../errors/errors';
import type { CallEvents } from '../events/call-events';
import type { BodyRead } from './read-bounded-body';
import { nextRetryWait, type RetryLimits } from './retry-policy';

/** One request of a call, as an attempt sends it. */
export interface AttemptRequest {
  body?: string | FormData;
  /** The model it asks for: named by this attempt's errors. */
  requestedModel?: string;
  /** Calls that may ask several models: the model this attempt asks for, for its `attempt` event. */
  model?: string;
  /**
   * The attempt's own signal (it must follow the call's). Aborted with a `GatewayError` (a stall),
   * that error is the attempt's failure, and the policy says what follows.
   */
  signal?: AbortSignal;
}

/**
 * What sending an attempt learnt of its answer as it came (send-once.ts and the readers of a
 * body it calls), for what watches the attempt while it runs: its status once its headers came
 * (a policy's stall clock: a stall after them is no network error; the attempt's events), and,
 * for the attempt loop, how its slot goes back when the attempt ends by a throw or a give-up.
 */
export interface AnswerStatus {
  status?: number;
  /** Its body was read to its end (for a failure a 2xx reported): the request finished, not cut. */
  readToEnd?: boolean;
  /**
   * The attempt stopped waiting for a fetch deaf to its abort: settles once that fetch does. Until
   * then its request may be at the gateway, counted: the key's slot is kept (slot-source.ts,
   * `ABANDONED_FETCH_HOLD` at most).
   */
  abandoned?: Promise<void>;
}

/** A 2xx answer, before it is handed over: a stream's reader and the bytes already read from it. */
export interface AttemptAnswer {
  response: Response;
  reader?: ReadableStreamDefaultReader<Uint8Array>;
  /** A stream's first bytes; `accept` may read more and add them here. */
  chunks?: Uint8Array[];
  /**
   * `accept` read the body to its end: the server has finished the request, so refusing this
   * answer cuts nothing and its slot comes back at once.
   */
  readToEnd?: boolean;
  /**
   * A stream whose `[DONE]` came before any content: when (`monotonicNow()`) the grace it is read
   * on for after it ends (chat/stream/grace-after-done.ts), for the stream it is handed to: one
   * grace after `[DONE]` in all.
   */
  graceEndsAt?: number;
  /**
   * A whole JSON answer's body, read within its attempt (reported-in-answer.ts), for its reader
   * (whole-answer.ts), which does not read it again.
   */
  body?: BodyRead;
}

/**
 * What follows a failed attempt: a wait, another attempt at once, or nothing (the call fails). A
 * wait is for the attempt's failure, unless it names another (`failure`: a policy whose next
 * attempt retries an earlier request, the one that failed just now not asked again; `model`, the
 * model that request asked, asked again; `failedAttempt`, the attempt it failed in): the `retry`
 * event names the failure the wait is for, and its model. `told`: that retry's event went already
 * (a wait that continues one begun elsewhere, told then): one resend, one event.
 */
export type NextAttempt =
  | {
      waitMs: number;
      failure?: GatewayError;
      model?: string;
      failedAttempt?: number;
      told?: true;
    }
  | { now: true }
  | undefined;

/**
 * What the attempt loop (attempt-loop.ts) asks between a call's attempts. The loop holds the slot,
 * the fetch, the deadline, the body and the sleeps, and knows nothing of models or answers; the
 * policy says what each attempt sends and what follows a failure. The default, `retrySameRequest`, sends the same
 * request again as the retry policy allows; a caller with other rules gives its own (what each
 * attempt counts while it holds its slot, which attempts its answer is taken from, how its
 * attempts are numbered).
 */
export interface AttemptPolicy {
  /**
   * The number of the next attempt, for its events. Default (or undefined): 1, 2, 3… A call that
   * runs several opens at once under one set of events numbers them all from one count.
   */
  nextAttempt?(): number | undefined;
  /**
   * What attempt `attempt` sends, asked once its slot is held. `answer`: its answer's status once
   * the headers come (read, never written, by the policy).
   */
  request(
    attempt: number,
    events: CallEvents | undefined,
    answer: Readonly<AnswerStatus>,
  ): AttemptRequest;
  /**
   * The attempt's slot was given back (after its failure, or its body's end): what the policy
   * counted while it was held ends (its own counts and clocks).
   */
  released?(request: AttemptRequest): void;
  /**
   * A 2xx answer: resolves to undefined to take it, or to the failure that ends this attempt
   * instead (e.g. no content before the stall limit). The transport then cancels its body.
   */
  accept?(answer: AttemptAnswer, request: AttemptRequest): Promise<GatewayError | undefined>;
  /**
   * The answer is handed over to the caller: accepted, and a whole one read for a failure it
   * reported instead of an answer (reported-in-answer.ts). An answer counts as one only from here.
   */
  handedOver?(request: AttemptRequest): void;
  /**
   * The attempt failed with `failure`: what follows (its slot is given back right after; when
   * this ends the call, after `failed`). `waits`: the waits taken so far; `remainingMs`: what is
   * left of the call's deadline. `{ now: true }` goes on at once and keeps the call's turn in the
   * key's queue.
   */
  next(failure: GatewayError, waits: number, remainingMs: number): NextAttempt;
  /** The call failed: told before its slot is given back (its siblings may stop before they start). */
  failed?(error: unknown): void;
}

/** The retries one call is allowed: its `maxRetries` and the client's waits between them. */
export interface RetryAllowance extends Omit<RetryLimits, 'remainingMs'> {
  maxRetries: number;
}

/**
 * The default policy: the same request each time, retried while the retry policy allows.
 * `failed`: told when the call fails (see `AttemptPolicy.failed`).
 */
export function retrySameRequest(
  request: AttemptRequest,
  limits: RetryAllowance,
  failed?: (error: unknown) => void,
): AttemptPolicy {
  return new SameRequest(request, limits, failed);
}

class SameRequest implements AttemptPolicy {
  readonly #request: AttemptRequest;
  readonly #limits: RetryAllowance;
  readonly failed: ((error: unknown) => void) | undefined;

  constructor(request: AttemptRequest, limits: RetryAllowance, failed?: (error: unknown) => void) {
    this.#request = request;
    this.#limits = limits;
    this.failed = failed;
  }

  request(): AttemptRequest {
    return this.#request;
  }

  next(failure: GatewayError, waits: number, remainingMs: number): NextAttempt {
    const waitMs = nextRetryWait(failure, waits, { ...this.#limits, remainingMs });
    return waitMs === undefined ? undefined : { waitMs };
  }
}

/** The failure the attempt's own signal aborted with (a stall), if it did. */
export function ownAbort(request: AttemptRequest): GatewayError | undefined {
  const signal = request.signal;
  return signal?.aborted && isGatewayError(signal.reason) ? signal.reason : undefined;
}

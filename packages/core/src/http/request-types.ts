// docs/gateway-protocol.md §2.5 (the key's slots a request holds), §5.5 (a stream's first bytes).
// What the transport is asked to send, and what it hands back (transport.ts).
import type { KeyBudget } from '../budget/key-budget';
import type { Semaphore } from '../budget/semaphore';
import type { CallScope } from '../call/call-scope';
import type { GatewayError } from '../errors/errors';
import type { CallEvents } from '../events/call-events';
import type { GatewayEventHandler } from '../events/gateway-events';
import type { AttemptPolicy } from './attempt-policy';
import type { BodyRead } from './read-bounded-body';

/**
 * A slot of the client's limit and the key's budget, held by one request. `release(cut, until)`
 * gives it back (once): the client's own limit's slot at once; the key's after it, `cut` (the
 * request was aborted before its answer ended) keeping it `CUT_REQUEST_GRACE_MS` longer, and
 * `until` (a fetch given up on, still settling) keeping it until that settles, a bound at most
 * (slot-source.ts). Returns, with `until`, when the slot counts as given back (its `released`).
 */
export interface Slot {
  /** A function of its own (no `this`): it may be handed on alone (`OpenResponse.release`). */
  readonly release: (cut?: boolean, until?: Promise<unknown>) => Promise<void> | undefined;
}

/** Where a client's requests take their slots: its own limit, then the key's budget. */
export interface SlotsConfig {
  /** This client's own limit, enforced by `local` before the key's budget is asked. */
  maxConcurrency: number;
  local: Semaphore;
  /** The key's limit, passed to `budget` with `budgetId`. */
  maxConcurrencyPerKey: number;
  budget: KeyBudget;
  budgetId: string;
}

/** A client's transport: where it sends, with which key, and its limits. */
export interface TransportConfig extends SlotsConfig {
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

/** One request as the transport sends it: data only (what varies per attempt is the policy's). */
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
  /**
   * An SSE stream: its first bytes are read before the answer is handed over (a JSON answer is
   * refused, and a connection lost before them is retried like one lost before the response).
   */
  stream?: boolean;
  /**
   * A JSON request whose server may answer `text/plain` (a transcription that ignores
   * `response_format`): such an answer, not JSON, is read as an object holding its body in this
   * field (`{ text: <body> }`).
   */
  plainTextField?: string;
}

/** A stream call's hook on its answers' headers (`ChatStreamOptions.onHeaders`). */
export interface StreamHeadersHook {
  /** Called with each attempt's 2xx answer as its headers come, before its first event is read. */
  onHeaders?: (answer: { status: number; headers: Headers }) => void;
}

/**
 * What `open` is given beyond the request and the call's options, by a caller that made them
 * itself (a call of several requests or runs, a catalog read within a call); without them `open`
 * makes its own scope, events and policy, and the loop takes the first slot.
 */
export interface OpenVia {
  /** The call's scope, made by its caller (one deadline over every request of a call that makes several). */
  scope?: CallScope;
  /** The call's events, made by its caller with `callEvents`. */
  events?: CallEvents;
  /** What each attempt sends and what follows a failure; default `retrySameRequest`. */
  policy?: AttemptPolicy;
  /** The call this request is made for (a chat call's catalog read): its events' parent. */
  parent?: CallEvents;
  /** A slot the caller already holds (taken with `slots.acquire`): the first attempt sends in it. */
  slot?: Slot;
  /**
   * `false`: this open is one of several a call runs at once, and the call reports its end (the
   * call may go on after this open failed). Default true.
   */
  reportsEnd?: boolean;
}

/** A 2xx response whose slot is still held: the owner must call `release` and `scope.dispose`. */
export interface OpenResponse {
  response: Response;
  /**
   * Gives the slot back (once). `cut`: the body was cut before its end (cancelled, stalled): the
   * slot is kept a little longer, while the gateway still counts the request (slot-source.ts).
   */
  release: (cut?: boolean) => void;
  scope: CallScope;
  /**
   * The caller's signal. The scope leaves it once the body is in (`dispose`): a stream read later
   * still ends at the caller's abort, through this.
   */
  callerSignal?: AbortSignal | undefined;
  /** Stream requests: the body's reader and the bytes already read from it. */
  reader?: ReadableStreamDefaultReader<Uint8Array>;
  chunks?: Uint8Array[];
  /** `AttemptAnswer.graceEndsAt`: `[DONE]` came before content, the read on after it ends then. */
  graceEndsAt?: number | undefined;
  /** Whole answers: the body, when it was read within its attempt (`AttemptAnswer.body`). */
  body?: BodyRead;
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

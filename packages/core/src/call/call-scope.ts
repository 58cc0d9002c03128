// docs/gateway-protocol.md §2.5 (the request's duration: the call's deadline), §10.4 (`aborted`,
// `timeout`).
import { GatewayError } from '../errors/errors';
import type { CallOptions } from './call-options';
import { deadlineStartOf } from './deadline-start';
import { monotonicNow } from './monotonic-clock';
import { MAX_TIMEOUT_MS } from './timer-limit';

/**
 * Runtimes that tie promises, timers and I/O to the request that created them (Cloudflare's
 * workerd, Vercel's edge runtime). There:
 * - a timer shared by calls of different requests would be armed in one request and fire (or never
 *   fire) in another, and aborting another request's fetch throws: each call gets its own timer,
 *   created and fired in its own request's context (elsewhere one timer serves every call: below);
 * - the key budget never settles one call's promise from another call (see `Semaphore`).
 */
export const REQUEST_BOUND_IO: boolean = (() => {
  const global = globalThis as {
    navigator?: { userAgent?: unknown };
    EdgeRuntime?: unknown;
    WebSocketPair?: unknown;
  };
  // workerd is known by its user agent, or, when a Worker has no `navigator` at all (compatibility
  // flag `no_global_navigator`, an old compatibility date), by `WebSocketPair`. That global alone
  // is not enough: Node test environments and polyfills that emulate Workers (Miniflare 2) define
  // it too, and they have a `navigator` (Node >= 21 always does).
  return (
    global.navigator?.userAgent === 'Cloudflare-Workers' ||
    (global.navigator === undefined && typeof global.WebSocketPair === 'function') ||
    global.EdgeRuntime !== undefined
  );
})();

/** Each call's deadline is its own timer (request-bound runtimes). */
const PER_CALL_TIMERS: boolean = REQUEST_BOUND_IO;

/**
 * One timer for the deadlines of all pending calls (a timer per call costs more than the rest of
 * a small call's bookkeeping). It is armed for the earliest deadline, re-armed when an earlier one
 * comes, and keeps the process alive only while a call is pending.
 */
/**
 * The pending calls' scopes, in the order they began: a list linked through the scopes themselves
 * (`pendingPrev`, `pendingNext`), so that a call joins and leaves it without allocating (a Set
 * emptied and filled again by every call reallocates its table each time).
 */
let first: CallScope | undefined;
let last: CallScope | undefined;
let timer: ReturnType<typeof setTimeout> | undefined;
/** When the armed timer fires (monotonic ms); Infinity when none is armed. */
let timerDue = Number.POSITIVE_INFINITY;

function watch(scope: CallScope, deadline: number, now: number): void {
  const wasIdle = first === undefined;
  scope.pendingPrev = last;
  if (last) last.pendingNext = scope;
  else first = scope;
  last = scope;
  // (A timer already due but not run is re-armed too: harmless when the loop is busy, and it
  // recovers from a timer that will never run, e.g. one left behind by test fake timers.)
  if (deadline < timerDue || timerDue <= now) {
    const due = Math.min(deadline, timerDue);
    arm(due, due - now);
  } else if (wasIdle) setRef(true);
}

function unwatch(scope: CallScope): void {
  if (unlist(scope) && first === undefined) setRef(false);
}

/** Takes `scope` out of the pending list; false when it was not in. */
function unlist(scope: CallScope): boolean {
  const { pendingPrev: prev, pendingNext: next } = scope;
  if (prev === undefined && first !== scope) return false;
  if (prev) prev.pendingNext = next;
  else first = next;
  if (next) next.pendingPrev = prev;
  else last = prev;
  scope.pendingPrev = undefined;
  scope.pendingNext = undefined;
  return true;
}

function arm(due: number, delay: number): void {
  if (timer !== undefined) clearTimeout(timer);
  timerDue = due;
  // (`due - now` may round a hair above the longest timer: Node would fire such a one at once.)
  timer = setTimeout(onTimer, Math.min(MAX_TIMEOUT_MS, Math.max(0, delay)));
}

/** Node only: an idle timer must not hold the process open (other runtimes have no ref). */
function setRef(on: boolean): void {
  const handle = timer as { ref?: () => void; unref?: () => void } | undefined;
  if (on) handle?.ref?.();
  else handle?.unref?.();
}

function onTimer(): void {
  timer = undefined;
  timerDue = Number.POSITIVE_INFINITY;
  const now = monotonicNow();
  const expired: CallScope[] = [];
  let next = Number.POSITIVE_INFINITY;
  for (let scope = first; scope; scope = scope.pendingNext) {
    if (scope.dueAt <= now) expired.push(scope);
    else if (scope.dueAt < next) next = scope.dueAt;
  }
  // Earliest deadline first, then in the order the calls began (as separate timers would fire).
  expired.sort((a, b) => a.dueAt - b.dueAt);
  for (const scope of expired) {
    unlist(scope);
    scope.expire();
  }
  if (next !== Number.POSITIVE_INFINITY) arm(next, next - now);
}

/** Whether the shared deadline timer holds the process open (tests). */
export function deadlineTimerHoldsProcess(): boolean {
  const handle = timer as { hasRef?: () => boolean } | undefined;
  return handle?.hasRef?.() ?? false;
}

/**
 * The scope of a call with these options: its `timeoutMs`, else the client's (`defaultTimeoutMs`),
 * counted from now, or from when an adapter started the call's deadline (`withDeadlineStarted`:
 * its catalog look-up and its chat under one deadline, a timeout naming its whole length).
 */
export function scopeOf(options: CallOptions | undefined, defaultTimeoutMs: number): CallScope {
  const timeoutMs = options?.timeoutMs ?? defaultTimeoutMs;
  const startedAt = deadlineStartOf(options);
  return new CallScope(options?.signal, timeoutMs, PER_CALL_TIMERS, undefined, startedAt);
}

/**
 * The life of one call: the caller's signal combined with the call's deadline. Everything the call
 * does (queueing, attempts, backoff, reading the body or stream) listens to `signal`.
 */
export class CallScope {
  readonly #controller = new AbortController();
  readonly #callerSignal: AbortSignal | undefined;
  readonly #timeoutMs: number;
  readonly #perCallTimer: boolean;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the call times out, on the monotonic clock (call/monotonic-clock.ts). */
  readonly dueAt: number;
  #reason: 'aborted' | 'timeout' | undefined;
  #onCallerAbort: (() => void) | undefined;
  /** The caller's signal no longer ends the scope (`leaveCaller`). */
  #leftCaller = false;
  /** A child's scope (`child`): its deadline and error are the parent's. */
  readonly #parent: CallScope | undefined;
  /** A scope disposed with this one (`disposeWith`). */
  #alsoDispose: CallScope | undefined;
  #disposed = false;
  /** The first of what is cut when the scope ends (`watchEnd`); any other listens on `signal`. */
  #cut: (() => void) | undefined;
  /** This scope's place in the pending list (`watch`, `unlist`: theirs only). */
  pendingPrev: CallScope | undefined;
  pendingNext: CallScope | undefined;

  /**
   * `deadlineMs`: the call's deadline, clamped here (the one place) to the longest timer, counted
   * from `startedAt` (monotonic ms; default now: see `scopeOf`). With `parent` (see `child`) the
   * scope has no deadline of its own: it follows the parent's signal.
   */
  constructor(
    callerSignal: AbortSignal | undefined,
    deadlineMs: number,
    perCallTimer: boolean = PER_CALL_TIMERS,
    parent?: CallScope,
    startedAt?: number,
  ) {
    const timeoutMs = Math.min(MAX_TIMEOUT_MS, deadlineMs);
    this.#callerSignal = callerSignal;
    this.#timeoutMs = timeoutMs;
    this.#perCallTimer = perCallTimer;
    this.#parent = parent;
    const now = monotonicNow();
    this.dueAt = parent?.dueAt ?? (startedAt ?? now) + timeoutMs;
    if (callerSignal?.aborted) {
      this.#reason = 'aborted';
      this.#controller.abort(callerSignal.reason);
      return;
    }
    if (callerSignal) {
      this.#onCallerAbort = () => {
        this.#reason ??= 'aborted';
        this.#end(callerSignal.reason);
      };
      callerSignal.addEventListener('abort', this.#onCallerAbort, { once: true });
    }
    if (parent) return;
    // A deadline started earlier may have passed already: the call ends before it sends anything.
    if (this.dueAt <= now) this.expire();
    // (`dueAt - now` may round a hair above the longest timer: Node would fire such a one at once.)
    else if (perCallTimer) {
      this.#timer = setTimeout(() => this.expire(), Math.min(MAX_TIMEOUT_MS, this.dueAt - now));
    } else watch(this, this.dueAt, now);
  }

  /**
   * A scope for one of several runs of this call (a hedged call's two attempts): it ends with this
   * one (its deadline, its caller's abort) and can be aborted alone; its errors are this one's.
   */
  child(): CallScope {
    return new CallScope(this.signal, this.#timeoutMs, this.#perCallTimer, this);
  }

  /** Disposes `other` with this scope (at once when this one is disposed already). */
  disposeWith(other: CallScope): void {
    if (this.#disposed) other.dispose();
    else this.#alsoDispose = other;
  }

  /** The deadline passed (called by the shared timer). */
  expire(): void {
    this.#reason ??= 'timeout';
    this.#end(this.error());
  }

  /**
   * Calls `cut` when the scope ends (at once if it has), until `unwatchEnd(cut)`: what the call
   * waits on (an attempt's fetch, then the read of its answer) must stop at the deadline even when
   * the fetch or its body ignores the abort. The first watcher is kept in a field, not as a listener
   * on `signal`: every attempt and every whole answer waits under a scope, and a listener costs
   * several times more. A second watcher while the first is kept listens on `signal`: neither
   * replaces the other.
   */
  watchEnd(cut: () => void): void {
    if (this.aborted) cut();
    else if (this.#cut === undefined) this.#cut = cut;
    else this.signal.addEventListener('abort', cut, { once: true });
  }

  /** Stops `cut` watching the scope's end (`watchEnd`); another watcher stays. */
  unwatchEnd(cut: () => void): void {
    if (this.#cut === cut) this.#cut = undefined;
    else this.signal.removeEventListener('abort', cut);
  }

  #end(reason: unknown): void {
    this.#controller.abort(reason);
    const cut = this.#cut;
    this.#cut = undefined;
    cut?.();
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /**
   * Epoch ms of the deadline, as the wall clock reads now (`KeyBudget`'s `deadline`): a projection,
   * never used to time the call (a step of the wall clock moves it; `dueAt` does not move).
   */
  get deadline(): number {
    // Rounded up: never earlier than the deadline itself (Date.now() is whole milliseconds).
    return Math.ceil(Date.now() + this.remainingMs);
  }

  /** Milliseconds left before the deadline. */
  get remainingMs(): number {
    return this.dueAt - monotonicNow();
  }

  get aborted(): boolean {
    // (Also after dispose: a caller that aborts after the body ended still ends the call; not
    // once the scope left it.)
    if (this.#reason === undefined && !this.#leftCaller && this.#callerSignal?.aborted) {
      this.#reason = 'aborted';
    }
    return this.#reason !== undefined;
  }

  /**
   * True when the scope has ended, counting a deadline that has passed although its timer has not
   * fired yet (a slot freed in the same millisecond reaches a queued call before its own timer):
   * such a scope is ended here as timed out.
   */
  get ended(): boolean {
    if (this.#reason === undefined && this.remainingMs <= 0) this.expire();
    return this.aborted;
  }

  /**
   * The error this scope ended with: `timeout`, or `aborted` with the caller's reason as cause.
   * `lastFailure`: the failed attempt a retry was waiting after,
   * kept as a timeout's cause (an abort's cause stays the caller's reason).
   */
  error(extra: CallEndContext & { lastFailure?: GatewayError } = {}): GatewayError {
    if (this.#parent?.aborted) return this.#parent.error(extra);
    const { lastFailure, ...context } = extra;
    if (this.#reason === 'timeout') {
      return callEndedError(lastFailure, { ...context, timeoutMs: this.#timeoutMs });
    }
    return callEndedError(this.#callerSignal?.reason, context);
  }

  /** Ends the scope from inside (e.g. a stream is cancelled by its reader). */
  abort(reason: unknown): void {
    this.#reason ??= 'aborted';
    this.#end(reason);
  }

  /**
   * The caller's signal no longer ends the scope; its deadline and `abort` still do. For a stream
   * whose caller took its last finish: the answer is complete for the caller, so an abort after it
   * must not cut the body the usage is still read from (the stream, listening to the caller
   * itself, bounds that read: sse-chat-stream.ts, `#endAfterFinish`). A child leaves its parent's
   * caller: a hedged run's own signal follows the race's, which follows the caller. A no-op once
   * the scope ended.
   */
  leaveCaller(): void {
    if (this.#parent) {
      this.#parent.leaveCaller();
      return;
    }
    if (this.aborted) return;
    this.#leftCaller = true;
    if (this.#onCallerAbort && this.#callerSignal) {
      this.#callerSignal.removeEventListener('abort', this.#onCallerAbort);
      this.#onCallerAbort = undefined;
    }
  }

  /** Stops the deadline timer and detaches from the caller's signal. Idempotent. */
  dispose(): void {
    this.#disposed = true;
    this.#alsoDispose?.dispose();
    // (A child has no timer of its own: only the parent's signal to leave.)
    if (this.#parent === undefined) {
      if (this.#perCallTimer) {
        // workerd refuses clearTimeout outside any request: a stream dropped unread is disposed
        // by a finalizer, and its timer died with the request that set it.
        try {
          clearTimeout(this.#timer);
        } catch {}
        this.#timer = undefined;
      } else unwatch(this);
    }
    if (this.#onCallerAbort && this.#callerSignal) {
      this.#callerSignal.removeEventListener('abort', this.#onCallerAbort);
      this.#onCallerAbort = undefined;
    }
  }
}

/** What the error of an ended call names. */
interface CallEndContext {
  requestedModel?: string;
  servedModel?: string;
}

/**
 * The error of a call that ended before its answer, built here only (core's scope and the
 * adapters' own early checks alike): `timeout` when its deadline of `timeoutMs` passed or the
 * caller's signal is `AbortSignal.timeout(...)`'s (LangChain's `timeout` builds one: a deadline,
 * not a cancellation); otherwise `aborted`, with the caller's reason as cause. With `timeoutMs`,
 * a `GatewayError` reason is the failed attempt a retry was waiting after: the timeout's cause.
 */
export function callEndedError(
  reason: unknown,
  extra: CallEndContext & { timeoutMs?: number } = {},
): GatewayError {
  const { timeoutMs, ...context } = extra;
  const last = timeoutMs !== undefined && reason instanceof GatewayError ? reason : undefined;
  const timedOut = timeoutMs !== undefined || isTimeoutReason(reason);
  const why =
    timeoutMs === undefined
      ? " (the caller's AbortSignal timed out)"
      : ` of ${timeoutMs} ms${last ? ` (waiting to retry after: ${last.message})` : ''}`;
  return new GatewayError({
    code: timedOut ? 'timeout' : 'aborted',
    message: timedOut
      ? `The call did not finish within its deadline${why}`
      : 'The call was aborted',
    cause: timeoutMs === undefined ? reason : last,
    ...context,
  });
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(wait);
      reject(signal.reason);
    };
    const wait = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The reason `AbortSignal.timeout()` aborts with: a DOMException named `TimeoutError`. */
function isTimeoutReason(reason: unknown): boolean {
  return (
    typeof reason === 'object' &&
    reason !== null &&
    (reason as { name?: unknown }).name === 'TimeoutError'
  );
}

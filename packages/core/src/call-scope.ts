import { GatewayError } from './errors';

/**
 * The life of one call: the caller's signal combined with the call's deadline. Everything the call
 * does (queueing, attempts, backoff, reading the body or stream) listens to `signal`.
 */
export class CallScope {
  readonly #controller = new AbortController();
  readonly #callerSignal: AbortSignal | undefined;
  readonly #timeoutMs: number;
  readonly #deadline: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #reason: 'aborted' | 'timeout' | undefined;
  #onCallerAbort: (() => void) | undefined;

  constructor(callerSignal: AbortSignal | undefined, timeoutMs: number) {
    this.#callerSignal = callerSignal;
    this.#timeoutMs = timeoutMs;
    this.#deadline = Date.now() + timeoutMs;
    if (callerSignal?.aborted) {
      this.#reason = 'aborted';
      this.#controller.abort(callerSignal.reason);
      return;
    }
    if (callerSignal) {
      this.#onCallerAbort = () => {
        this.#reason ??= 'aborted';
        this.#controller.abort(callerSignal.reason);
      };
      callerSignal.addEventListener('abort', this.#onCallerAbort, { once: true });
    }
    this.#timer = setTimeout(() => {
      this.#reason ??= 'timeout';
      this.#controller.abort(this.error());
    }, timeoutMs);
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Milliseconds left before the deadline. */
  get remainingMs(): number {
    return this.#deadline - Date.now();
  }

  get aborted(): boolean {
    return this.#reason !== undefined;
  }

  /**
   * True when the scope has ended, counting a deadline that has passed although its timer has not
   * fired yet (a slot freed in the same millisecond reaches a queued call before its own timer):
   * such a scope is ended here as timed out.
   */
  get ended(): boolean {
    if (this.#reason === undefined && this.remainingMs <= 0) {
      this.#reason = 'timeout';
      this.#controller.abort(this.error());
    }
    return this.aborted;
  }

  /** The typed error for an ended scope: `timeout`, or `aborted` with the caller's reason as cause. */
  error(extra: { requestedModel?: string; servedModel?: string } = {}): GatewayError {
    if (this.#reason === 'timeout') {
      return new GatewayError({
        code: 'timeout',
        message: `The call did not finish within its deadline of ${this.#timeoutMs} ms`,
        isRetryable: false,
        ...extra,
      });
    }
    return new GatewayError({
      code: 'aborted',
      message: 'The call was aborted',
      cause: this.#callerSignal?.reason,
      isRetryable: false,
      ...extra,
    });
  }

  /** Ends the scope from inside (e.g. a stream is cancelled by its reader). */
  abort(reason: unknown): void {
    this.#reason ??= 'aborted';
    this.#controller.abort(reason);
  }

  /** Stops the deadline timer and detaches from the caller's signal. Idempotent. */
  dispose(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#onCallerAbort && this.#callerSignal) {
      this.#callerSignal.removeEventListener('abort', this.#onCallerAbort);
      this.#onCallerAbort = undefined;
    }
  }
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

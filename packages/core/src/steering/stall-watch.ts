// docs/gateway-protocol.md §4.7 (stalls of one attempt: before its first content, between pieces).
import { type SilenceClock, StallTimer, stallError } from '../call/stall-timer';
import type { GatewayError } from '../errors/errors';

/**
 * One attempt's own abort signal and first-content clock (`firstChunkTimeoutMs`): the signal
 * follows the call's (deadline, caller's abort) and also aborts when no content of the answer came
 * within the limit after the request was sent. Then `stall` is the `timeout` to report: the
 * attempt fails with it (a failover or retry reason) while the call goes on.
 */
export class FirstChunkWatch {
  readonly #controller = new AbortController();
  readonly #callSignal: AbortSignal;
  readonly #timer: StallTimer;
  #stall: GatewayError | undefined;
  /** The answer's status, once its headers came (a stall after them is no network error). */
  #status: number | undefined;

  constructor(callSignal: AbortSignal, limitMs: number, model: string | undefined) {
    this.#callSignal = callSignal;
    this.#timer = new StallTimer(limitMs, (waitedMs) => {
      const status = this.#status;
      const context =
        status === undefined ? { requestedModel: model } : { requestedModel: model, status };
      this.#stall = stallError('first-chunk', waitedMs, limitMs, context);
      this.#controller.abort(this.#stall);
    });
    if (callSignal.aborted) this.#controller.abort(callSignal.reason);
    else {
      callSignal.addEventListener('abort', this.#follow, { once: true });
      this.#timer.start();
    }
  }

  /** The attempt's signal: for its fetch and the read of its answer. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The stall, once the clock ran out (the signal has aborted with it). */
  get stall(): GatewayError | undefined {
    return this.#stall;
  }

  /** The answer's headers came with `status`: a stall from now on carries it. */
  responded(status: number): void {
    this.#status = status;
  }

  /**
   * The answer's first content came: the clock stops. The signal keeps following the call's, for
   * the rest of the body.
   */
  arrived(): void {
    this.#timer.stop();
  }

  /** The attempt failed: the clock stops and the signal no longer follows the call's. */
  end(): void {
    this.#timer.stop();
    this.#callSignal.removeEventListener('abort', this.#follow);
  }

  readonly #follow = (): void => {
    this.#timer.stop();
    this.#controller.abort(this.#callSignal.reason);
  };
}

/**
 * The between-content clock of a stream (`chunkTimeoutMs`): when no content came for `limitMs`,
 * the stream fails with the `timeout` naming the phase and the model.
 */
export function betweenChunks(
  limitMs: number,
  context: { requestedModel: string; servedModel: string },
): SilenceClock {
  return (fail) =>
    new StallTimer(limitMs, (waitedMs) =>
      fail(stallError('between-chunks', waitedMs, limitMs, context)),
    );
}

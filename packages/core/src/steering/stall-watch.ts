// docs/gateway-protocol.md §4.7 (stalls of one attempt: before its first content, between pieces).
import { type SilenceClock, StallTimer, stallError } from '../call/stall-timer';
import { GatewayError } from '../errors/errors';
import type { AnswerStatus } from '../http/attempt-policy';

/**
 * A signal that follows another (the call's, an attempt's) and also aborts with a stall when its
 * clock runs out: the part the two watches below share.
 */
abstract class StallWatch {
  readonly #controller = new AbortController();
  readonly #followed: AbortSignal;
  protected readonly timer: StallTimer;

  protected constructor(followed: AbortSignal, limitMs: number) {
    this.#followed = followed;
    this.timer = new StallTimer(limitMs, (waitedMs) =>
      this.#controller.abort(this.stalled(waitedMs)),
    );
    if (followed.aborted) this.#controller.abort(followed.reason);
    else {
      followed.addEventListener('abort', this.#follow, { once: true });
      this.timer.start();
    }
  }

  /** The stall to abort with, when no content came for the limit. */
  protected abstract stalled(waitedMs: number): GatewayError;

  /** The watched signal: for the fetch and the read of the answer. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The work ended: the clock stops and the signal no longer follows the other. */
  end(): void {
    this.timer.stop();
    this.#followed.removeEventListener('abort', this.#follow);
  }

  readonly #follow = (): void => {
    this.timer.stop();
    this.#controller.abort(this.#followed.reason);
  };
}

/**
 * One attempt's own abort signal and first-content clock (`firstChunkTimeoutMs`): the signal
 * follows the call's (deadline, caller's abort) and also aborts when no content of the answer came
 * within the limit after the request was sent. Then `stall` is the `timeout` to report: the
 * attempt fails with it (a failover or retry reason) while the call goes on. `end()` when the
 * attempt failed.
 */
export class FirstChunkWatch extends StallWatch {
  readonly #model: string | undefined;
  readonly #answer: Readonly<AnswerStatus>;
  readonly #limitMs: number;
  #stall: GatewayError | undefined;

  /** `answer`: the attempt's, its status once its headers came (a stall after them is no network error). */
  constructor(
    callSignal: AbortSignal,
    limitMs: number,
    model: string | undefined,
    answer: Readonly<AnswerStatus>,
  ) {
    super(callSignal, limitMs);
    this.#model = model;
    this.#answer = answer;
    this.#limitMs = limitMs;
  }

  protected stalled(waitedMs: number): GatewayError {
    const { status } = this.#answer;
    const model = this.#model;
    const context =
      status === undefined ? { requestedModel: model } : { requestedModel: model, status };
    this.#stall = stallError('first-chunk', waitedMs, this.#limitMs, context);
    return this.#stall;
  }

  /** The stall, once the clock ran out (the signal has aborted with it). */
  get stall(): GatewayError | undefined {
    return this.#stall;
  }

  /**
   * The answer's first content came: the clock stops. The signal keeps following the call's, for
   * the rest of the body.
   */
  arrived(): void {
    this.timer.stop();
  }
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

/**
 * The stall clock of a stream read ahead of its caller while its attempt holds the slot (a
 * structured stream whose map holds its text, §4.8 item 5): `signal` follows the attempt's and
 * aborts when no content came for `limitMs` (`chunkTimeoutMs`, as between any two pieces of a
 * stream), counted from the first content. Nothing reached the caller yet, so the stall is no
 * answer: phase `first-chunk` (the caller's first content never came; a failover reason, §4.7
 * rule 5), its limit and message `chunkTimeoutMs`'s. Its clock runs on after the finish_reason,
 * as a plain stream's: a stall then ends the read, and the reader takes it as the answer's end
 * (chat/stream/structured-start.ts), not as a failure.
 */
export class HeldReadWatch extends StallWatch {
  readonly #limitMs: number;
  readonly #context: HeldStallContext;

  constructor(attemptSignal: AbortSignal, limitMs: number, context: HeldStallContext) {
    super(attemptSignal, limitMs);
    this.#limitMs = limitMs;
    this.#context = context;
  }

  protected stalled(waitedMs: number): GatewayError {
    return heldStall(waitedMs, this.#limitMs, this.#context);
  }

  /** Content came: the clock starts again. */
  content(): void {
    if (!this.signal.aborted) this.timer.start();
  }
}

/** What a held read's stall names: the model asked, the answer's status. */
interface HeldStallContext {
  requestedModel: string;
  status: number;
}

function heldStall(waitedMs: number, limitMs: number, context: HeldStallContext): GatewayError {
  return new GatewayError({
    code: 'timeout',
    message: `No answer from model "${context.requestedModel}": its stream, held back for the structured-output check, sent no content for ${waitedMs} ms, more than chunkTimeoutMs (${limitMs} ms), before any of it reached the caller; the request was aborted`,
    stall: { phase: 'first-chunk', waitedMs, limitMs },
    ...context,
  });
}

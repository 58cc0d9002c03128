// docs/gateway-protocol.md §4.7 (stall timeouts: before the first chunk, between chunks).
/**
 * The stall timeouts' clock and error: loaded with the steering module by the first call that sets
 * one (an app that never does never loads this code). Their options are checked by
 * steering/steering-options.ts, before anything is queued or loaded.
 */
import { GatewayError, type StallPhase } from '../errors/errors';

/**
 * Fires `onStall` when nothing happened for `limitMs` since the last `start()`: the stall
 * timeouts' clock. `start()` when waiting for bytes begins (the request sent, a chunk read
 * requested), `stop()` when they came or the wait ended. A timer per wait, re-armed on every
 * chunk: cheap next to a chunk's decoding, and right under any timer implementation (fake ones
 * in tests included).
 */
export class StallTimer {
  readonly #limitMs: number;
  readonly #onStall: (waitedMs: number) => void;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #since = 0;

  constructor(limitMs: number, onStall: (waitedMs: number) => void) {
    this.#limitMs = limitMs;
    this.#onStall = onStall;
  }

  start(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#since = performance.now();
    this.#timer = setTimeout(this.#fire, this.#limitMs);
  }

  stop(): void {
    if (this.#timer === undefined) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  readonly #fire = (): void => {
    this.#timer = undefined;
    // A timer never fires early; a clock faked in tests may lag behind it: report the limit then.
    this.#onStall(Math.max(this.#limitMs, Math.round(performance.now() - this.#since)));
  };
}

/** Makes a silence clock that calls `fail` with the stall's error when it runs out. */
export type SilenceClock = (fail: (error: GatewayError) => void) => { start(): void; stop(): void };

/** What a stall error names besides its phase and times. */
interface StallContext {
  /** The model the stalled request asked for. */
  requestedModel?: string;
  servedModel?: string;
  /** The answer's status, when its headers came before the stall. */
  status?: number;
}

/**
 * The `timeout` of a stall, with `stall` set. Before the first chunk it is retryable (and a
 * failover reason): nothing was received. Between chunks it is final.
 */
export function stallError(
  phase: StallPhase,
  waitedMs: number,
  limitMs: number,
  context: StallContext = {},
): GatewayError {
  // The model that was answering (a stream's served model), else the one asked for.
  const named = context.servedModel ?? context.requestedModel;
  const model = named === undefined ? '' : ` from model "${named}"`;
  const message =
    phase === 'first-chunk'
      ? `No answer${model} within firstChunkTimeoutMs (${limitMs} ms): no content came for ${waitedMs} ms after the request was sent; the request was aborted`
      : `The stream${model} stalled: no content for ${waitedMs} ms, more than chunkTimeoutMs (${limitMs} ms); the stream was aborted`;
  return new GatewayError({
    code: 'timeout',
    message,
    stall: { phase, waitedMs, limitMs },
    ...context,
  });
}

// docs/gateway-protocol.md §2.5 (a streamed answer gives its slot back when its body ends).

/**
 * Unread bytes above which reading ahead pauses while the consumer keeps reading (a live consumer
 * slower than the network then sets the pace, and memory stays near this bound).
 */
export const READ_AHEAD_HIGH_WATER_BYTES = 1024 * 1024;
/**
 * A consumer that has not read for this long while reading ahead is paused is treated as gone: the
 * rest of the body is read ahead, so that the request (and its slot) ends.
 */
export const READ_AHEAD_STALL_MS = 1000;
/**
 * The most a read hands out: a larger chunk (a body handed over in one piece) comes in slices, so
 * that its reader can decode one slice and give the event loop a turn before the next.
 */
export const READ_SLICE_BYTES = 256 * 1024;

/**
 * How a body read ahead settled: `whole` (it came to its end), `cut` (we stopped it: an abort, a
 * cancel, its bound passed) or `lost` (it failed by itself: the connection dropped mid-body).
 */
export type BodySettled = 'whole' | 'cut' | 'lost';

/** How a body read ahead is bounded: its unread bytes. */
export interface ReadAheadLimits {
  maxBufferedBytes: number;
  /** The error of a body whose unread bytes passed `maxBufferedBytes`. */
  overflow: () => unknown;
}

/**
 * Reads a response body as fast as the network delivers it into a queue the consumer drains, and
 * calls `onSettled` once the body has ended, failed or been cancelled — whether or not anyone reads.
 * The gateway stops counting a request when its response is complete: so must our slot. Memory:
 * the unread bytes, at most the answer's size; past `READ_AHEAD_HIGH_WATER_BYTES` reading pauses
 * while the consumer keeps reading, and resumes for good once it stops for `READ_AHEAD_STALL_MS`.
 *
 * It holds no reference to its consumer, so a consumer object that becomes unreachable can be
 * collected (and cancel the read-ahead from a FinalizationRegistry) while the body is still open.
 */
export class BodyReadAhead {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #signal: AbortSignal;
  /** Called once the body settled, with how. */
  readonly #onSettled: (how: BodySettled) => void;
  readonly #maxBuffered: number;
  readonly #overflow: () => unknown;
  #chunks: Uint8Array[] = [];
  #head = 0;
  #state: 'reading' | 'ended' | 'failed' | 'cancelled' = 'reading';
  #error: unknown;
  /** Every reader waiting for the next chunk or the end: each is woken (any number may wait). */
  #waiting: (() => void)[] = [];
  #buffered = 0;
  /** Set while reading ahead is paused at the high-water mark. */
  #resume: (() => void) | undefined;
  #stallTimer: ReturnType<typeof setTimeout> | undefined;
  /** The consumer stalled once: never pause again. */
  #unattended = false;

  /** `first`: the bytes already read from `reader` (a stream's first ones). */
  constructor(
    reader: ReadableStreamDefaultReader<Uint8Array>,
    first: readonly Uint8Array[] | undefined,
    signal: AbortSignal,
    onSettled: (how: BodySettled) => void,
    limit: ReadAheadLimits = {
      maxBufferedBytes: Number.POSITIVE_INFINITY,
      overflow: () => new Error('read-ahead buffer overflow'),
    },
  ) {
    this.#reader = reader;
    this.#signal = signal;
    this.#onSettled = onSettled;
    this.#maxBuffered = limit.maxBufferedBytes;
    this.#overflow = limit.overflow;
    for (const chunk of first ?? []) {
      this.#chunks.push(chunk);
      this.#buffered += chunk.byteLength;
    }
    if (signal.aborted) this.#onAbort();
    else {
      signal.addEventListener('abort', this.#onAbort, { once: true });
      void this.#pump();
    }
  }

  /** Whether bytes read from the network wait unread. */
  get buffered(): boolean {
    return this.#head < this.#chunks.length;
  }

  /** Whether the body is still being read from the network. */
  get reading(): boolean {
    return this.#state === 'reading';
  }

  readonly #onAbort = (): void => {
    // Not every fetch errors the body on abort: cancel the read ourselves.
    this.#reader.cancel(this.#signal.reason).catch(() => {});
    this.#settle('failed', this.#signal.reason, 'cut');
  };

  async #pump(): Promise<void> {
    try {
      for (;;) {
        const { done, value } = await this.#reader.read();
        if (this.#state !== 'reading') return;
        if (done) {
          this.#settle('ended');
          return;
        }
        if (value.byteLength > 0) {
          this.#chunks.push(value);
          this.#buffered += value.byteLength;
          if (this.#buffered > this.#maxBuffered) {
            // Nobody reads an answer that does not end: stop it rather than grow without bound.
            this.#chunks = [];
            this.#head = 0;
            this.#buffered = 0;
            this.#reader.cancel().catch(() => {});
            this.#settle('failed', this.#overflow(), 'cut');
            return;
          }
          this.#notify();
          if (this.#buffered >= READ_AHEAD_HIGH_WATER_BYTES && !this.#unattended) {
            await new Promise<void>((resolve) => {
              this.#resume = resolve;
              this.#armStall();
            });
            if (this.#state !== 'reading') return;
          }
        }
      }
    } catch (error) {
      this.#settle('failed', error, 'lost');
    }
  }

  #armStall(): void {
    if (this.#stallTimer !== undefined) clearTimeout(this.#stallTimer);
    this.#stallTimer = setTimeout(() => {
      this.#unattended = true;
      this.#unpause();
    }, READ_AHEAD_STALL_MS);
  }

  #unpause(): void {
    if (this.#stallTimer !== undefined) clearTimeout(this.#stallTimer);
    this.#stallTimer = undefined;
    const resume = this.#resume;
    this.#resume = undefined;
    resume?.();
  }

  #notify(): void {
    if (this.#waiting.length === 0) return;
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const wake of waiting) wake();
  }

  #settle(
    state: 'ended' | 'failed' | 'cancelled',
    error?: unknown,
    how: BodySettled = state === 'ended' ? 'whole' : 'cut',
  ): void {
    if (this.#state !== 'reading') return;
    this.#state = state;
    this.#error = error;
    this.#signal.removeEventListener('abort', this.#onAbort);
    this.#unpause();
    this.#onSettled(how);
    this.#notify();
  }

  /**
   * The next chunk, or its next `READ_SLICE_BYTES` (done at the end of the body); throws the error
   * that ended the body.
   */
  async read(): Promise<ReadableStreamReadResult<Uint8Array>> {
    for (;;) {
      if (this.#head < this.#chunks.length) {
        let value = this.#chunks[this.#head]!;
        if (value.byteLength > READ_SLICE_BYTES) {
          this.#chunks[this.#head] = value.subarray(READ_SLICE_BYTES);
          value = value.subarray(0, READ_SLICE_BYTES);
        } else this.#chunks[this.#head++] = EMPTY;
        if (this.#head === this.#chunks.length) {
          this.#chunks = [];
          this.#head = 0;
        }
        this.#buffered -= value.byteLength;
        if (this.#resume !== undefined) {
          if (this.#buffered < READ_AHEAD_HIGH_WATER_BYTES / 2) this.#unpause();
          else this.#armStall();
        }
        return { done: false, value };
      }
      if (this.#state === 'ended' || this.#state === 'cancelled') {
        return { done: true, value: undefined };
      }
      if (this.#state === 'failed') throw this.#error;
      await new Promise<void>((resolve) => {
        this.#waiting.push(resolve);
      });
    }
  }

  /** Stops reading, drops what is buffered and settles (the slot is released). Idempotent. */
  cancel(reason?: unknown): void {
    this.#chunks = [];
    this.#head = 0;
    this.#buffered = 0;
    if (this.#state !== 'reading') return;
    this.#reader.cancel(reason).catch(() => {});
    this.#settle('cancelled');
  }
}

const EMPTY = new Uint8Array(0);

/**
 * Cancels the read-ahead of a stream object that became unreachable before it was finished, and
 * then calls `collected` (the stream's call reports its end: nobody will read it). Neither may
 * reference the stream object.
 */
export const cancelUnreachable: {
  register(target: object, body: BodyReadAhead, collected?: () => void): void;
} =
  typeof FinalizationRegistry === 'function'
    ? (() => {
        const registry = new FinalizationRegistry<{ body: BodyReadAhead; collected?: () => void }>(
          ({ body, collected }) => {
            // A finalizer must not throw (it runs outside any request: workerd refuses some
            // operations there).
            try {
              body.cancel();
            } catch {}
            try {
              collected?.();
            } catch {}
          },
        );
        return {
          register: (target, body, collected) => registry.register(target, { body, collected }),
        };
      })()
    : { register: () => {} };

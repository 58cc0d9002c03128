/**
 * Reads a response body as fast as the network delivers it into a queue the consumer drains, and
 * calls `onSettled` once the body has ended, failed or been cancelled — whether or not anyone reads.
 * The gateway stops counting a request when its response is complete: so must our slot.
 *
 * It holds no reference to its consumer, so a consumer object that becomes unreachable can be
 * collected (and cancel the read-ahead from a FinalizationRegistry) while the body is still open.
 */
export class BodyReadAhead {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #signal: AbortSignal;
  readonly #onSettled: () => void;
  #chunks: Uint8Array[] = [];
  #head = 0;
  #state: 'reading' | 'ended' | 'failed' | 'cancelled' = 'reading';
  #error: unknown;
  #wake: (() => void) | undefined;

  constructor(
    reader: ReadableStreamDefaultReader<Uint8Array>,
    first: Uint8Array | undefined,
    signal: AbortSignal,
    onSettled: () => void,
  ) {
    this.#reader = reader;
    this.#signal = signal;
    this.#onSettled = onSettled;
    if (first !== undefined) this.#chunks.push(first);
    if (signal.aborted) this.#onAbort();
    else {
      signal.addEventListener('abort', this.#onAbort, { once: true });
      void this.#pump();
    }
  }

  /** Whether the body is still being read from the network. */
  get reading(): boolean {
    return this.#state === 'reading';
  }

  readonly #onAbort = (): void => {
    // Not every fetch errors the body on abort: cancel the read ourselves.
    this.#reader.cancel(this.#signal.reason).catch(() => {});
    this.#settle('failed', this.#signal.reason);
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
          this.#notify();
        }
      }
    } catch (error) {
      this.#settle('failed', error);
    }
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  #settle(state: 'ended' | 'failed' | 'cancelled', error?: unknown): void {
    if (this.#state !== 'reading') return;
    this.#state = state;
    this.#error = error;
    this.#signal.removeEventListener('abort', this.#onAbort);
    this.#onSettled();
    this.#notify();
  }

  /** The next chunk (done at the end of the body); throws the error that ended the body. */
  async read(): Promise<ReadableStreamReadResult<Uint8Array>> {
    for (;;) {
      if (this.#head < this.#chunks.length) {
        const value = this.#chunks[this.#head]!;
        this.#chunks[this.#head++] = EMPTY;
        if (this.#head === this.#chunks.length) {
          this.#chunks = [];
          this.#head = 0;
        }
        return { done: false, value };
      }
      if (this.#state === 'ended' || this.#state === 'cancelled') {
        return { done: true, value: undefined };
      }
      if (this.#state === 'failed') throw this.#error;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
  }

  /** Stops reading, drops what is buffered and settles (the slot is released). Idempotent. */
  cancel(reason?: unknown): void {
    this.#chunks = [];
    this.#head = 0;
    if (this.#state !== 'reading') return;
    this.#reader.cancel(reason).catch(() => {});
    this.#settle('cancelled');
  }
}

const EMPTY = new Uint8Array(0);

/** Cancels the read-ahead of a stream object that became unreachable before it was finished. */
export const cancelUnreachable: { register(target: object, body: BodyReadAhead): void } =
  typeof FinalizationRegistry === 'function'
    ? (() => {
        const registry = new FinalizationRegistry<BodyReadAhead>((body) => body.cancel());
        return { register: (target, body) => registry.register(target, body) };
      })()
    : { register: () => {} };

// docs/gateway-protocol.md §5.1 (events), §5.2 (end), §5.3 (failures after the 200).
import { timerMs } from '../timing';
import { DONE_EVENT, errorEvent } from './chat-events';

interface SseBodyOptions {
  /** Delay between events (0: events are batched into few writes). */
  chunkDelayMs: number;
  /** `Date.now()` value after which the stream ends with a `request_timeout` event. */
  deadline: number;
  signal: AbortSignal;
  /**
   * Called once: when the last bytes are queued (before the reader receives them), or on
   * cancellation (`cancelled`: the reader cancelled or the request was aborted) or failure.
   */
  onEnd: (cancelled: boolean) => void;
  /** Pauses in the stream (a model's time to first chunk, the stall and keep-alive faults). */
  pauses?: SsePause[];
}

/**
 * A wait of `ms` (may be infinite) before the event at index `beforeEvent` (0: before the first
 * byte), instead of the usual chunk delay; bounded by the deadline like any wait. With `filler`,
 * the wait is not silent: `filler.next()` is sent at its start and every `everyMs` (keep-alive
 * comments, empty deltas). Pauses come in the order of their `beforeEvent`.
 */
export interface SsePause {
  beforeEvent: number;
  ms: number;
  filler?: { everyMs: number; next: () => string };
}

/** What to do before the next event: send a filler, go on, or stop (cancelled or aborted). */
type PauseStep =
  | { kind: 'filler'; text: string }
  | { kind: 'go'; paused: boolean }
  | { kind: 'ended' };

/** Bytes queued per read when there is no delay: few large writes keep long streams fast. */
const BATCH_CHARS = 16 * 1024;

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, timerMs(ms));
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** The pauses of one stream, waited out one step (one filler) at a time. */
class PauseSchedule {
  readonly #pauses: SsePause[];
  readonly #deadline: number;
  /** Aborted when the stream ends (cancelled, aborted): a wait stops at once. */
  readonly #stop: AbortSignal;
  #next = 0;
  /** The pause being waited out: when it ends, when its next filler is due. */
  #current: { pause: SsePause; end: number; nextFiller: number } | undefined;

  constructor(pauses: SsePause[], deadline: number, stop: AbortSignal) {
    this.#pauses = pauses;
    this.#deadline = deadline;
    this.#stop = stop;
  }

  /** Whether a pause comes before the event at `index` (a batch of events stops there). */
  startsAt(index: number): boolean {
    return this.#pauses[this.#next]?.beforeEvent === index;
  }

  /** Waits out the pauses due before event `index`, returning at each filler to send. */
  async step(index: number): Promise<PauseStep> {
    let paused = false;
    for (;;) {
      if (!this.#current) {
        const pause = this.#pauses[this.#next];
        if (pause?.beforeEvent !== index) return { kind: 'go', paused };
        this.#next += 1;
        const now = Date.now();
        this.#current = { pause, end: now + pause.ms, nextFiller: pause.filler ? now : Infinity };
      }
      paused = true;
      const current = this.#current;
      const fillerDue = current.nextFiller < current.end;
      const until = Math.min(fillerDue ? current.nextFiller : current.end, this.#deadline);
      if (Date.now() < until) {
        await delay(until - Date.now(), this.#stop);
        if (this.#stop.aborted) return { kind: 'ended' };
        if (Date.now() < until) continue; // a timer shorter than the wait (or early): wait on
      }
      if (Date.now() >= this.#deadline) {
        this.#current = undefined;
        return { kind: 'go', paused }; // the caller ends the stream with request_timeout
      }
      if (fillerDue && current.pause.filler) {
        current.nextFiller += current.pause.filler.everyMs;
        return { kind: 'filler', text: current.pause.filler.next() };
      }
      this.#current = undefined; // over; another pause may come before the same event
    }
  }
}

/** A pull-driven SSE body: nothing is generated before the reader asks for it. */
export function sseBody(
  events: Iterator<string>,
  options: SseBodyOptions,
): ReadableStream<Uint8Array> {
  const source = new SseSource(events, options);
  return new ReadableStream<Uint8Array>(
    { pull: (controller) => source.pull(controller), cancel: () => source.end(true) },
    { highWaterMark: 0 },
  );
}

type Controller = ReadableStreamDefaultController<Uint8Array>;

/** One SSE body's state: what has been sent, what comes next, and its end. */
class SseSource {
  readonly #events: Iterator<string>;
  readonly #options: SseBodyOptions;
  readonly #encoder = new TextEncoder();
  /** Stops a wait when the request is aborted or the body cancelled, so the slot frees at once. */
  readonly #stopWaiting = new AbortController();
  readonly #pauses: PauseSchedule;
  #first = true;
  #ended = false;
  /** Events queued so far (to find where a pause goes). */
  #produced = 0;
  /** A cut met while batching: thrown at the next pull, after the events before it. */
  #pendingError: unknown;
  /** The next event, already taken from `events` to learn whether the stream ends. */
  #lookahead: IteratorResult<string> | undefined;

  constructor(events: Iterator<string>, options: SseBodyOptions) {
    this.#events = events;
    this.#options = options;
    this.#pauses = new PauseSchedule(
      options.pauses ?? [],
      options.deadline,
      this.#stopWaiting.signal,
    );
    options.signal.addEventListener('abort', () => this.end(true), { once: true });
  }

  /** Ends the body once: stops any wait and releases the slot. */
  end(cancelled = false): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#stopWaiting.abort();
    this.#options.onEnd(cancelled);
  }

  async pull(controller: Controller): Promise<void> {
    if (this.#ended) {
      controller.close();
      return;
    }
    try {
      const filler = await this.#waitForTurn();
      if (filler !== undefined) {
        controller.enqueue(this.#encoder.encode(filler));
        return;
      }
      // Aborted or cancelled while waiting: stop producing.
      if (this.#ended) {
        controller.close();
        return;
      }
      this.#first = false;
      if (Date.now() >= this.#options.deadline) {
        const timeout = errorEvent('request_timeout', 'The request exceeded its time limit');
        this.#finish(controller, timeout + DONE_EVENT);
        return;
      }
      if (this.#pendingError !== undefined) throw this.#pendingError;
      const batch = this.#nextBatch();
      if (batch.last) this.#finish(controller, batch.text);
      else controller.enqueue(this.#encoder.encode(batch.text));
    } catch (error) {
      this.end();
      controller.error(error);
    }
  }

  /**
   * Waits until the next event is due: the pauses before it, else the chunk delay (none before the
   * first event, after a pause or once ended). Returns a filler to send first, if one is due.
   */
  async #waitForTurn(): Promise<string | undefined> {
    const step = await this.#pauses.step(this.#produced);
    if (step.kind === 'filler') return step.text;
    const { chunkDelayMs, deadline } = this.#options;
    const silence = step.kind === 'ended' || step.paused || this.#first ? 0 : chunkDelayMs;
    if (silence > 0) {
      const wait = Math.min(silence, Math.max(0, deadline - Date.now()));
      await delay(wait, this.#stopWaiting.signal);
    }
    return undefined;
  }

  /**
   * The events of one write: one event, or with no chunk delay as many as fit in a batch, up to
   * the next pause. `last`: the stream ends with them.
   */
  #nextBatch(): { text: string; last: boolean } {
    let text = '';
    for (;;) {
      let next: IteratorResult<string>;
      try {
        next = this.#take();
      } catch (error) {
        // A `stream_cut` fault: deliver what was produced, then fail like a real cut.
        if (!text) throw error;
        this.#pendingError = error;
        return { text, last: false };
      }
      if (next.done) return { text, last: true };
      text += next.value;
      this.#produced += 1;
      const pauseNext = this.#pauses.startsAt(this.#produced);
      if (this.#options.chunkDelayMs <= 0 && text.length < BATCH_CHARS && !pauseNext) continue;
      return { text, last: this.#nextIsLast() };
    }
  }

  /**
   * Looks one event ahead: when the batch holds the last one ([DONE]), the stream closes and its
   * in-flight slot is released now, with its last byte, not one pull (and one delay) later, when
   * a client that saw [DONE] may already have sent its next request.
   */
  #nextIsLast(): boolean {
    try {
      this.#lookahead = this.#events.next();
    } catch (error) {
      this.#pendingError = error;
      return false;
    }
    return this.#lookahead.done === true;
  }

  #take(): IteratorResult<string> {
    const next = this.#lookahead ?? this.#events.next();
    this.#lookahead = undefined;
    return next;
  }

  /** Queues the last bytes, closes, and releases the slot, all before the reader sees them. */
  #finish(controller: Controller, last: string): void {
    if (last) controller.enqueue(this.#encoder.encode(last));
    controller.close();
    this.end();
  }
}

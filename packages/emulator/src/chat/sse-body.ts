// docs/gateway-protocol.md §5.1 (events), §5.2 (end), §5.3 (failures after the 200).
import { DONE_EVENT, errorEvent } from './chat-events';

interface SseBodyOptions {
  /** Delay between events (0: events are batched into few writes). */
  chunkDelayMs: number;
  /** `Date.now()` value after which the stream ends with a `request_timeout` event. */
  deadline: number;
  signal: AbortSignal;
  /**
   * Called once: when the last bytes are queued (before the reader receives them), or on
   * cancellation or failure.
   */
  onEnd: () => void;
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

/** Longest single timer: Node fires a longer one at once (1 ms). */
const MAX_TIMER_MS = 0x7fff_ffff;

/** Bytes queued per read when there is no delay: few large writes keep long streams fast. */
const BATCH_CHARS = 16 * 1024;

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, Math.min(ms, MAX_TIMER_MS));
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
  const encoder = new TextEncoder();
  let first = true;
  let ended = false;
  /** Events queued so far (to find where a pause goes). */
  let produced = 0;
  /** Stops a wait when the request is aborted or the body cancelled, so the slot frees at once. */
  const stopWaiting = new AbortController();
  const pauses = new PauseSchedule(options.pauses ?? [], options.deadline, stopWaiting.signal);
  let pendingError: unknown;
  /** The next event, already taken from `events` to learn whether the stream ends. */
  let lookahead: IteratorResult<string> | undefined;
  const take = (): IteratorResult<string> => {
    const next = lookahead ?? events.next();
    lookahead = undefined;
    return next;
  };
  const end = () => {
    if (ended) return;
    ended = true;
    stopWaiting.abort();
    options.onEnd();
  };
  /** Queues the last bytes, closes, and releases the slot, all before the reader sees them. */
  const finish = (controller: ReadableStreamDefaultController<Uint8Array>, last: string) => {
    if (last) controller.enqueue(encoder.encode(last));
    controller.close();
    end();
  };
  options.signal.addEventListener('abort', end, { once: true });

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (ended) {
          controller.close();
          return;
        }
        try {
          const step = await pauses.step(produced);
          if (step.kind === 'filler') {
            controller.enqueue(encoder.encode(step.text));
            return;
          }
          const silence = step.kind === 'ended' || step.paused || first ? 0 : options.chunkDelayMs;
          if (silence > 0) {
            const wait = Math.min(silence, Math.max(0, options.deadline - Date.now()));
            await delay(wait, stopWaiting.signal);
          }
          // Aborted or cancelled while waiting: stop producing.
          if (ended) {
            controller.close();
            return;
          }
          first = false;
          if (Date.now() >= options.deadline) {
            finish(
              controller,
              errorEvent('request_timeout', 'The request exceeded its time limit') + DONE_EVENT,
            );
            return;
          }
          if (pendingError !== undefined) throw pendingError;
          let batch = '';
          for (;;) {
            let next: IteratorResult<string>;
            try {
              next = take();
            } catch (error) {
              // A `stream_cut` fault: deliver what was produced, then fail like a real cut.
              if (!batch) throw error;
              pendingError = error;
              break;
            }
            if (next.done) {
              finish(controller, batch);
              return;
            }
            batch += next.value;
            produced += 1;
            const pauseNext = pauses.startsAt(produced);
            if (options.chunkDelayMs <= 0 && batch.length < BATCH_CHARS && !pauseNext) continue;
            // Look one event ahead: when this batch holds the last one ([DONE]), the stream closes
            // and its in-flight slot is released now, with its last byte, not one pull (and one
            // delay) later, when a client that saw [DONE] may already have sent its next request.
            try {
              lookahead = events.next();
            } catch (error) {
              pendingError = error;
              break;
            }
            if (lookahead.done) {
              finish(controller, batch);
              return;
            }
            break;
          }
          controller.enqueue(encoder.encode(batch));
        } catch (error) {
          end();
          controller.error(error);
        }
      },
      cancel() {
        end();
      },
    },
    { highWaterMark: 0 },
  );
}

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
  /**
   * A silence of `ms` before the event at index `beforeEvent` (0: before the first byte), instead
   * of the usual chunk delay; bounded by the deadline like any wait. For the stall faults.
   */
  pause?: { beforeEvent: number; ms: number };
}

/** Bytes queued per read when there is no delay: few large writes keep long streams fast. */
const BATCH_CHARS = 16 * 1024;

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** A pull-driven SSE body: nothing is generated before the reader asks for it. */
export function sseBody(
  events: Iterator<string>,
  options: SseBodyOptions,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let first = true;
  let ended = false;
  /** Events queued so far (to find where `pause` goes). */
  let produced = 0;
  let paused = options.pause === undefined;
  /** Stops a wait when the request is aborted or the body cancelled, so the slot frees at once. */
  const stopWaiting = new AbortController();
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
          const pauseNow = !paused && produced === options.pause?.beforeEvent;
          const silence = pauseNow ? options.pause!.ms : first ? 0 : options.chunkDelayMs;
          if (pauseNow) paused = true;
          if (silence > 0) {
            const wait = Math.min(silence, Math.max(0, options.deadline - Date.now()));
            await delay(wait, stopWaiting.signal);
            // Aborted or cancelled while waiting: stop producing.
            if (ended) {
              controller.close();
              return;
            }
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
            const pauseNext = !paused && produced === options.pause?.beforeEvent;
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

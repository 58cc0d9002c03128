// docs/gateway-protocol.md §4.7 (a stream may fail over until its first content), §4.8 item 5 (a
// structured stream's start read before it is handed over).
import { GatewayError, isGatewayError } from '../../errors/errors';
import type { AttemptAnswer } from '../../http/attempt-policy';
import type { ChatStreamDecoder } from './chat-stream-decoder';

/** How a read-ahead ended, and the bytes it fed its decoder (all of `answer.chunks`). */
export interface ReadAhead {
  bytes: number;
  /** The body ended (`answer.readToEnd` is set). */
  ended?: true;
  /**
   * Why it stopped short: the reason `signal` aborted with, as a GatewayError; else what the
   * decoder, `stop` or the read threw. Undefined when `stop` held (also after such a throw: what
   * came before it is handed over, the failure after it) or the body ended.
   */
  failure?: unknown;
}

/**
 * Reads a steered stream ahead of its caller, while its attempt holds the slot: feeds `decoder`
 * the bytes `answer.chunks` holds, then reads on — each chunk kept there, for the stream that
 * decodes them again once handed over — until `stop(bytes)` holds (asked before each read, and
 * once more when the decoder or the read threw), the body ends, or `signal` aborts (a stall, the
 * call's end): that cancels the read, for some bodies only end on cancel.
 */
export async function readAhead(
  answer: AttemptAnswer,
  decoder: ChatStreamDecoder,
  signal: AbortSignal,
  stop: (bytes: number) => boolean,
): Promise<ReadAhead> {
  const reader = answer.reader!;
  const chunks = answer.chunks ?? [];
  answer.chunks = chunks;
  const text = new TextDecoder();
  let bytes = 0;
  const onAbort = () => reader.cancel(signal.reason).catch(() => {});
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    for (const chunk of chunks) {
      bytes += chunk.byteLength;
      decoder.feed(text.decode(chunk, { stream: true }));
    }
    for (;;) {
      if (stop(bytes)) return { bytes };
      const next = await reader.read();
      if (signal.aborted) break;
      if (next.done) {
        // The gateway has finished this request: refusing its answer cuts nothing.
        answer.readToEnd = true;
        return { bytes, ended: true };
      }
      chunks.push(next.value);
      bytes += next.value.byteLength;
      decoder.feed(text.decode(next.value, { stream: true }));
    }
  } catch (cause) {
    // Content decoded before the failure in the same read came first: it is handed over, the
    // failure after it (the stream decodes these bytes again), as without a read-ahead.
    if (!signal.aborted) return holds(stop, bytes) ? { bytes } : { bytes, failure: cause };
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  return { bytes, failure: aborted(signal) };
}

/** Whether `stop` holds after a throw (one of its own again: it does not). */
function holds(stop: (bytes: number) => boolean, bytes: number): boolean {
  try {
    return stop(bytes);
  } catch {
    return false;
  }
}

function aborted(signal: AbortSignal): GatewayError {
  const reason: unknown = signal.reason;
  return isGatewayError(reason)
    ? reason
    : new GatewayError({ code: 'aborted', message: 'The attempt was aborted', cause: reason });
}

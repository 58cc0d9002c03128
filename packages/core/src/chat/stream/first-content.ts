// docs/gateway-protocol.md §4.7 (a stream may fail over until its first content), §5.5 (nothing is
// replayed once the answer began).
import { GatewayError, gatewayFailure, isGatewayError } from '../../errors/errors';
import type { AttemptAnswer } from '../../http/attempt-policy';
import { ChatStreamDecoder } from './chat-stream-decoder';

/** Bytes a stream may send before its first content (comments, role and empty chunks). */
const MAX_BYTES_BEFORE_CONTENT = 1024 * 1024;

/**
 * Reads a streamed answer until its first piece of content (the decoder's `answered`: text,
 * reasoning or tool-call pieces, or a finish), keeping every byte read in `answer.chunks` for the
 * stream that decodes them again. Resolves to undefined once content came; to the failure when the
 * stream failed, ended or sent an error event before any (nothing has reached the caller, so the
 * call may move on), or to the reason `signal` aborted with (a stall).
 */
export async function readToFirstContent(
  answer: AttemptAnswer,
  signal: AbortSignal,
): Promise<GatewayError | undefined> {
  const reader = answer.reader;
  if (reader === undefined) return undefined;
  const chunks = answer.chunks ?? [];
  answer.chunks = chunks;
  const decoder = new ChatStreamDecoder({ assemble: false });
  const text = new TextDecoder();
  let bytes = 0;
  // Some bodies only end on cancel: a stall (or the call's end) cancels the read.
  const onAbort = () => reader.cancel(signal.reason).catch(() => {});
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    for (const chunk of chunks) {
      bytes += chunk.byteLength;
      decoder.feed(text.decode(chunk, { stream: true }));
    }
    while (decoder.answered === 0) {
      if (bytes > MAX_BYTES_BEFORE_CONTENT) return tooMuchBeforeContent(answer, bytes);
      const next = await reader.read();
      if (signal.aborted) return aborted(signal);
      if (next.done) {
        // The gateway has finished this request: refusing its answer cuts nothing.
        answer.readToEnd = true;
        return endedBeforeContent(answer, bytes);
      }
      chunks.push(next.value);
      bytes += next.value.byteLength;
      decoder.feed(text.decode(next.value, { stream: true }));
    }
    return undefined;
  } catch (cause) {
    if (signal.aborted) return aborted(signal);
    // An error event, or an event that cannot be read, before any content.
    if (isGatewayError(cause)) return cause;
    return endedBeforeContent(answer, bytes, cause);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

function aborted(signal: AbortSignal): GatewayError {
  const reason: unknown = signal.reason;
  return isGatewayError(reason)
    ? reason
    : new GatewayError({ code: 'aborted', message: 'The attempt was aborted', cause: reason });
}

/** A stream that ended (or failed) before any content: no answer, retryable like a lost connection. */
function endedBeforeContent(answer: AttemptAnswer, bytes: number, cause?: unknown): GatewayError {
  return gatewayFailure(
    {
      code: 'network_error',
      status: answer.response.status,
      message: `The stream ended before any content (${bytes} bytes of comments or empty chunks)`,
      cause,
    },
    { beforeFirstBytes: true },
  );
}

function tooMuchBeforeContent(answer: AttemptAnswer, bytes: number): GatewayError {
  return new GatewayError({
    code: 'provider_protocol_error',
    status: answer.response.status,
    message: `The stream sent ${bytes} bytes without any content (more than ${MAX_BYTES_BEFORE_CONTENT}); it was stopped`,
  });
}

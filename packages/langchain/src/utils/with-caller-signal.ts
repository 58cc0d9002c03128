// docs/gateway-protocol.md §5.2 (end and completeness: a stream its consumer leaves ends its request).
import { joinedSignal } from '@infergate/core/internal';

/**
 * The stream `start` gives for a signal that its consumer's leaving aborts (`return`: `break`, a
 * cancelled stream), and its caller's too (core's `joinedSignal`: where the runtime forwards the
 * caller's abort by a listener, it is removed when the stream ends, finished, failed or left).
 */
export function withCallerSignal<T>(
  caller: AbortSignal | undefined,
  start: (signal: AbortSignal) => AsyncGenerator<T>,
): AsyncGenerator<T> {
  const joined = joinedSignal(caller);
  const chunks =
    joined.release === undefined
      ? start(joined.signal)
      : releasedAtEnd(start(joined.signal), joined.release);
  // A generator's `return` waits behind a read in progress: the abort ends that read first.
  const { return: leave } = chunks;
  chunks.return = (value) => {
    joined.abort();
    return leave.call(chunks, value);
  };
  return chunks;
}

async function* releasedAtEnd<T>(
  chunks: AsyncGenerator<T>,
  release: () => void,
): AsyncGenerator<T> {
  try {
    yield* chunks;
  } finally {
    release();
  }
}

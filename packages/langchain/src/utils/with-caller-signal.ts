// docs/gateway-protocol.md §5.2 (end and completeness: a stream its consumer leaves ends its request).

/**
 * The stream `start` gives for a signal that its consumer's leaving aborts (`return`: `break`, a
 * cancelled stream), and its caller's too. `AbortSignal.any` joins the two where the runtime has
 * it; edge-runtime lacks it, so there a listener forwards the caller's abort, removed when the
 * stream ends (finished, failed or left) so that a caller's signal reused across streams keeps none.
 */
export function withCallerSignal<T>(
  caller: AbortSignal | undefined,
  start: (signal: AbortSignal) => AsyncGenerator<T>,
): AsyncGenerator<T> {
  const left = new AbortController();
  const chunks =
    caller && !AbortSignal.any
      ? forwarding(caller, left, start)
      : start(caller ? AbortSignal.any([caller, left.signal]) : left.signal);
  // A generator's `return` waits behind a read in progress: the abort ends that read first.
  const { return: leave } = chunks;
  chunks.return = (value) => {
    left.abort();
    return leave.call(chunks, value);
  };
  return chunks;
}

async function* forwarding<T>(
  caller: AbortSignal,
  left: AbortController,
  start: (signal: AbortSignal) => AsyncGenerator<T>,
): AsyncGenerator<T> {
  const forward = () => left.abort(caller.reason);
  caller.addEventListener('abort', forward);
  if (caller.aborted) forward();
  try {
    yield* start(left.signal);
  } finally {
    caller.removeEventListener('abort', forward);
  }
}

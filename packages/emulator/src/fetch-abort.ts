// docs/gateway-protocol.md §2.5 (a request holds its key's slot until answered or aborted), §5.3.

/**
 * The outcome of one call of the emulator's fetch handler, given the way fetch treats an abort of
 * the request's signal: before the headers the call rejects with the signal's reason; after them
 * the body errors with it. The handler itself only sees the request, so this is done once, at its
 * boundary, for every answer alike (streamed or not, a fault's, a refusal's): a client reaching it
 * as a fetch function (`emulate()`'s default) then meets what it meets through msw or over HTTP,
 * where the real fetch does it. Without it an abort after the headers ended a stream as if it were
 * complete and left a JSON body readable.
 */
export function answerLikeFetch(signal: AbortSignal, answer: Promise<Response>): Promise<Response> {
  // (`then`, not `await`: the answer reaches the client in as few turns as without this step.)
  return answer.then(
    // An abort that came as the answer was made (too late for the handler to see it) errors the
    // body at once, as when it comes just after the headers: a real fetch may meet either.
    (response) => (response.body ? withAbortableBody(response, response.body, signal) : response),
    (error: unknown) => {
      // The handler's own AbortError carries no reason; fetch rejects with the signal's.
      throw signal.aborted ? signal.reason : error;
    },
  );
}

/**
 * The same answer, its body read through a stream that the signal's abort errors at once (the
 * next read rejects, bytes not yet read are dropped) while it cancels the source, so a streamed
 * answer frees its slot and counts as cancelled as when its reader cancels.
 */
function withAbortableBody(
  response: Response,
  source: ReadableStream<Uint8Array>,
  signal: AbortSignal,
): Response {
  const reader = source.getReader();
  let settled = false;
  let control!: ReadableStreamDefaultController<Uint8Array>;
  const settle = () => {
    settled = true;
    signal.removeEventListener('abort', onAbort);
  };
  function onAbort() {
    if (settled) return;
    settle();
    control.error(signal.reason);
    reader.cancel(signal.reason).catch(() => undefined);
  }
  const body = new ReadableStream<Uint8Array>(
    {
      start: (controller) => {
        control = controller;
      },
      pull: async (controller) => {
        let next: ReadableStreamReadResult<Uint8Array>;
        try {
          next = await reader.read();
        } catch (error) {
          // A body that fails by itself (`stream_cut`), unless the abort came first.
          if (!settled) {
            settle();
            controller.error(error);
          }
          return;
        }
        if (settled) return; // aborted while this read waited: the body already errored
        if (!next.done) controller.enqueue(next.value);
        else {
          settle();
          controller.close();
        }
      },
      cancel: (reason) => {
        settle();
        return reader.cancel(reason);
      },
    },
    // Read only when the client reads: a streamed answer is produced on demand.
    { highWaterMark: 0 },
  );
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

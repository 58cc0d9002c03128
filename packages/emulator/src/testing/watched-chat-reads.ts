// docs/gateway-protocol.md §5.1 (a stream's events, read as they come), §4.7 (stall timeouts).
/** What `watchedChatReads` gives: the `fetch` to hand a client, and when its reader got past `past`. */
export interface WatchedChatReads {
  fetch: typeof globalThis.fetch;
  /** Resolves when a chat body is asked for more after the chunk holding `past` was read. */
  readPast: Promise<void>;
}

/**
 * `gatewayFetch` with its chat bodies passed on one read at a time, telling `readPast` when the
 * client asks for more after reading the chunk that holds `past`: the client now waits on what
 * follows (a stalled stream's silence, say), an event a test can wait on instead of the clock.
 * `deaf`: the requests go without the client's abort signal, as a `fetch` that ignores it would,
 * so a body ends only when the client cancels it.
 */
export function watchedChatReads(
  gatewayFetch: typeof globalThis.fetch,
  past: string,
  { deaf = false }: { deaf?: boolean } = {},
): WatchedChatReads {
  let reached!: () => void;
  const readPast = new Promise<void>((resolve) => {
    reached = resolve;
  });
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const response = await gatewayFetch(input, deaf ? { ...init, signal: null } : init);
    if (!urlOf(input).endsWith('/chat/completions') || !response.body) return response;
    const inner = response.body.getReader();
    const decoder = new TextDecoder();
    let seen = '';
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          if (seen.includes(past)) reached();
          const next = await inner.read();
          if (next.done) return controller.close();
          seen += decoder.decode(next.value, { stream: true });
          controller.enqueue(next.value);
        },
        cancel: (reason) => inner.cancel(reason),
      },
      // No read ahead of the client's own: `readPast` follows what it asked for.
      { highWaterMark: 0 },
    );
    return new Response(body, response);
  };
  return { fetch, readPast };
}

/**
 * The URL a `fetch` input names: a string, a `URL`, or a `Request` (whose `String()` is not it;
 * read by its `url`, not `instanceof`, so a `Request` of another realm or polyfill counts too).
 */
function urlOf(input: Parameters<typeof globalThis.fetch>[0]): string {
  return typeof input === 'object' && 'url' in input ? input.url : String(input);
}

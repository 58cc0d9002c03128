// docs/gateway-protocol.md §5.3 (an error a 200 reports), §10.1 (an error's words and body kept
// within bounds). An answer for a test's `fetch` to serve: the emulator never sends an error this
// large, and every adapter checks that it reaches the caller cut to the same bounds.

/** The server's words: 4 MiB of `y`, far past every bound a client keeps. */
const HUGE = JSON.stringify({
  error: { code: 'provider_protocol_error', message: 'y'.repeat(4 * 1024 * 1024) },
});

const ROLE = JSON.stringify({
  object: 'chat.completion.chunk',
  model: 'community/general',
  choices: [{ index: 0, delta: { role: 'assistant' } }],
});

/**
 * A 200 chat answer that reports a `provider_protocol_error` with 4 MiB of words (`y`): `'json'`
 * as the whole JSON body, `'stream'` as an error event after the stream's first chunk.
 */
export function hugeErrorIn200(as: 'json' | 'stream'): Response {
  if (as === 'json') return new Response(HUGE, { headers: { 'content-type': 'application/json' } });
  return new Response(`data: ${ROLE}\n\ndata: ${HUGE}\n\ndata: [DONE]\n\n`, {
    headers: { 'content-type': 'text/event-stream' },
  });
}

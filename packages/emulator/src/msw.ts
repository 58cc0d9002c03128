import { type HttpHandler, http } from 'msw';
import type { Emulator } from './emulator';

/** The origin requests are rewritten to before they reach `emulator.fetch`. */
const EMULATOR_ORIGIN = 'http://emulator.invalid';

/**
 * Frames a body of unknown length as chunked, as a real server does, so that a body that fails
 * half-way (`stream_cut`) reaches the client as a cut connection rather than a normal end.
 */
function chunked(response: Response): Response {
  if (!response.body || response.headers.has('content-length')) return response;
  const headers = new Headers(response.headers);
  headers.set('transfer-encoding', 'chunked');
  return new Response(response.body, { status: response.status, headers });
}

/**
 * The client's body as a stream the emulator reads as it arrives, so a stalled upload meets its
 * `requestTimeoutMs` and an oversized one is refused without being held whole. Its cancel returns
 * at once: msw's own body settles a cancel only when the client's upload ends, so an answer given
 * without reading the body (no key, too large, a deadline) would wait for an upload that stalled.
 */
function forwardedBody(source: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let cancelled = false;
  return new ReadableStream<Uint8Array>(
    {
      pull: async (controller) => {
        // A failing upload errors this stream with its error: the emulator's call then rejects.
        const { done, value } = await reader.read();
        if (cancelled) return;
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel: (reason) => {
        cancelled = true;
        reader.cancel(reason).catch(() => undefined);
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * msw handlers that send every request under `baseURL` to `emulator.fetch`, e.g.
 * `setupServer(...gatewayHandlers(emulator))`. A dropped connection becomes a network error; a
 * request its client aborts ends quietly (the client has its AbortError).
 */
export function gatewayHandlers(
  emulator: Emulator,
  baseURL = 'https://gateway.test/v1',
): HttpHandler[] {
  const base = baseURL.replace(/\/+$/, '');
  const basePath = new URL(base).pathname.replace(/\/+$/, '');
  return [
    http.all(`${base}/*`, async ({ request }) => {
      const url = new URL(request.url);
      const rest = url.pathname.slice(basePath.length);
      const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
      try {
        const forwarded = new Request(`${EMULATOR_ORIGIN}/v1${rest}${url.search}`, {
          method: request.method,
          headers: request.headers,
          body: hasBody && request.body ? forwardedBody(request.body) : undefined,
          signal: request.signal,
          duplex: 'half',
        } as RequestInit);
        return chunked(await emulator.fetch(forwarded));
      } catch (error) {
        // A dropped connection, or a request its client aborted (held, slow, cut by a deadline):
        // the client already has its AbortError, so the answer only has to end without an
        // exception, which msw would report as a failed handler lookup.
        if (error instanceof TypeError || request.signal.aborted) return Response.error();
        throw error;
      }
    }),
  ];
}

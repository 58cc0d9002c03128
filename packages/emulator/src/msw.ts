import { type HttpHandler, http } from 'msw';
import type { Emulator } from './emulator';

/** The origin requests are rewritten to before they reach `emulator.fetch`. */
const EMULATOR_ORIGIN = 'http://emulator.invalid';

/**
 * msw handlers that send every request under `baseURL` to `emulator.fetch`, e.g.
 * `setupServer(...gatewayHandlers(emulator))`. A dropped connection becomes a network error.
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
      const forwarded = new Request(`${EMULATOR_ORIGIN}/v1${rest}${url.search}`, {
        method: request.method,
        headers: request.headers,
        body: hasBody ? await request.arrayBuffer() : undefined,
        signal: request.signal,
      });
      try {
        return await emulator.fetch(forwarded);
      } catch (error) {
        if (error instanceof TypeError) return Response.error();
        throw error;
      }
    }),
  ];
}

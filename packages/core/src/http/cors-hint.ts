/**
 * In a browser a request refused by CORS fails exactly like an unreachable host (`TypeError:
 * Failed to fetch`, no detail: the page may not learn why). The `network_error` message then says
 * that CORS may be the cause. Detected by `window` and `document` (Deno, Bun, workers and edge
 * runtimes have no `document`), with no `node:` import.
 */
export function corsHint(): string {
  const global = globalThis as {
    window?: unknown;
    document?: unknown;
    location?: { origin?: unknown };
  };
  if (typeof global.window === 'undefined' || typeof global.document === 'undefined') return '';
  const origin = typeof global.location?.origin === 'string' ? global.location.origin : undefined;
  return ` (in a browser this is also what a request refused by CORS looks like: the gateway must allow the page's origin${
    origin === undefined ? '' : ` ${origin}`
  } — for the emulator, start it with --cors or the cors option)`;
}

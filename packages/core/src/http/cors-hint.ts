/**
 * In a browser a request refused by CORS fails exactly like an unreachable host (`TypeError:
 * Failed to fetch`, no detail: the page may not learn why). The `network_error` message then says
 * that CORS may be the cause. A browser is a page (`window` and `document`) or a worker
 * (`WorkerGlobalScope`) whose user agent is a browser's: Deno, Bun and edge runtimes have workers
 * too but no CORS, and name themselves in `navigator.userAgent`. No `node:` import.
 */
export function corsHint(): string {
  const global = globalThis as {
    window?: unknown;
    document?: unknown;
    WorkerGlobalScope?: unknown;
    navigator?: { userAgent?: unknown };
    location?: { origin?: unknown };
  };
  const page = typeof global.window !== 'undefined' && typeof global.document !== 'undefined';
  const userAgent = global.navigator?.userAgent;
  const worker =
    typeof global.WorkerGlobalScope !== 'undefined' &&
    typeof userAgent === 'string' &&
    userAgent.startsWith('Mozilla/');
  if (!page && !worker) return '';
  const origin = typeof global.location?.origin === 'string' ? global.location.origin : undefined;
  return ` (in a browser this is also what a request refused by CORS looks like: the gateway must allow the ${
    page ? "page's" : "worker's"
  } origin${origin === undefined ? '' : ` ${origin}`} — for the emulator, start it with --cors or the cors option)`;
}

/**
 * CORS for a browser app calling the emulator from another origin (a dev server on another port).
 * `true` allows every origin; a list allows those origins only (exact `scheme://host:port`).
 * Preflights (`OPTIONS` with `Access-Control-Request-Method`) are answered here, before the key
 * check: a browser never sends credentials or custom headers with a preflight.
 */
export type CorsOption = true | readonly string[];

/** Request headers a browser app sends: the key, JSON bodies, and the emulator's fault header. */
const ALLOWED_HEADERS = ['authorization', 'content-type', 'accept', 'x-emulator-fault'];
/** Response headers a browser app may read besides the CORS-safelisted ones. */
const EXPOSED_HEADERS = ['retry-after', 'x-service-model', 'x-emulator-fault'];
const ALLOWED_METHODS = 'GET, POST, OPTIONS';

/** Parses the CLI's `--cors` value: `*` (any origin) or a comma-separated list of origins. */
export function parseCorsOrigins(value: string): CorsOption {
  if (value.trim() === '*') return true;
  const origins = value
    .split(',')
    .map((origin) => origin.trim())
    .filter((origin) => origin !== '');
  if (origins.length === 0) throw new Error(`--cors needs '*' or origins, got '${value}'`);
  for (const origin of origins) {
    let parsed: URL;
    try {
      parsed = new URL(origin);
    } catch {
      throw new Error(`--cors: '${origin}' is not an origin like http://localhost:5173`);
    }
    // What a browser sends is the URL's origin: a host in capitals, a default port or an IPv6
    // address written long are the same origin; a path, query or fragment is none.
    const bare = parsed.pathname === '/' && parsed.search === '' && parsed.hash === '';
    if (!bare || parsed.origin === 'null' || !/^[a-z][a-z\d+.-]*:\/\//i.test(origin)) {
      throw new Error(`--cors: '${origin}' is not an origin (scheme://host[:port], no path)`);
    }
  }
  return origins.map((origin) => new URL(origin).origin);
}

/**
 * The `cors` option as given in code (`startEmulator`, `emulate`, `withCors`), checked as the CLI's
 * `--cors` is: `true`, or a list of origins (a trailing `/` dropped). Anything else would start a
 * server whose every preflight fails in silence (`'*'` in a list, `localhost:5173`), or whose
 * answers to a page fail (`null`): refused before anything listens.
 */
export function checkedCorsOption(cors: unknown): CorsOption {
  if (cors === true) return true;
  const given = Array.isArray(cors) ? cors : undefined;
  if (given === undefined || given.length === 0 || !given.every((o) => typeof o === 'string')) {
    throw new TypeError(
      `cors must be true or a list of origins like ['http://localhost:5173'], got ${describe(cors)}`,
    );
  }
  if (given.includes('*')) {
    throw new TypeError("cors: '*' is the CLI's word for any origin; in code, give cors: true");
  }
  try {
    return parseCorsOrigins(given.join(','));
  } catch (error) {
    throw new TypeError((error as Error).message.replace('--cors', 'cors'));
  }
}

function describe(value: unknown): string {
  if (Array.isArray(value))
    return value.length === 0 ? 'an empty list' : 'a list with a non-string';
  return typeof value === 'string' ? `the string '${value}'` : String(value);
}

function allowedOrigin(cors: CorsOption, origin: string | null): string | undefined {
  if (origin === null) return undefined;
  if (cors === true) return origin;
  return cors.includes(origin) ? origin : undefined;
}

/** Wraps a fetch handler with CORS: preflights answered, `Access-Control-Allow-Origin` added. */
export function withCors(
  handle: (request: Request) => Promise<Response>,
  given: CorsOption,
): (request: Request) => Promise<Response> {
  const cors = checkedCorsOption(given);
  return async (request) => {
    const origin = request.headers.get('origin');
    const allowed = allowedOrigin(cors, origin);
    const isPreflight =
      request.method === 'OPTIONS' && request.headers.has('access-control-request-method');
    if (isPreflight) {
      await request.body?.cancel().catch(() => undefined);
      if (allowed === undefined) {
        return new Response(`Origin ${origin ?? '(none)'} is not allowed by the emulator's cors`, {
          status: 403,
          headers: { 'content-type': 'text/plain; charset=utf-8', vary: 'Origin' },
        });
      }
      // Headers a caller adds to its calls (core's `headers`) are allowed too: echoing the
      // requested list keeps a test's own headers working without configuring them.
      const requested = (request.headers.get('access-control-request-headers') ?? '')
        .split(',')
        .map((name) => name.trim().toLowerCase())
        .filter((name) => name !== '' && !ALLOWED_HEADERS.includes(name));
      return new Response(null, {
        status: 204,
        headers: {
          'access-control-allow-origin': allowed,
          'access-control-allow-methods': ALLOWED_METHODS,
          'access-control-allow-headers': [...ALLOWED_HEADERS, ...requested].join(', '),
          'access-control-max-age': '600',
          vary: 'Origin, Access-Control-Request-Headers',
        },
      });
    }
    const response = await handle(request);
    if (allowed === undefined) return response;
    const headers = new Headers(response.headers);
    headers.set('access-control-allow-origin', allowed);
    headers.set('access-control-expose-headers', EXPOSED_HEADERS.join(', '));
    headers.append('vary', 'Origin');
    return new Response(response.body, {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
  };
}

import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * CORS for the origins `allowedOrigins` names: without these headers a browser lets a page of an
 * allowed origin pass the Origin check but neither send its JSON POST (the preflight fails) nor
 * read the answer. Only an allowed origin is ever named back (never `*`), and no credentials are
 * allowed: the bearer token goes in `Authorization`, which a page sets itself.
 */

/** What the MCP client must read from an answer: the session it was given, the version agreed. */
const EXPOSED_HEADERS = 'mcp-session-id, mcp-protocol-version';

/** The headers an answer to `origin` carries (refusals too: the page can read why). */
export function allowCrossOrigin(res: ServerResponse, origin: string): void {
  res.setHeader('access-control-allow-origin', origin);
  res.setHeader('access-control-expose-headers', EXPOSED_HEADERS);
  res.setHeader('vary', 'Origin');
}

/** A browser's preflight: OPTIONS asking which method and headers the real request may use. */
export function isPreflight(req: IncomingMessage): boolean {
  return req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
}

/**
 * Answers a preflight of an allowed origin (before the token check: a browser never sends
 * `Authorization` on it). The headers it asks for are granted as asked: an origin the operator
 * allowed may send what any non-browser client may.
 */
export function answerPreflight(req: IncomingMessage, res: ServerResponse): void {
  const asked = req.headers['access-control-request-headers'];
  res
    .writeHead(204, {
      'access-control-allow-methods': 'GET, POST, DELETE',
      ...(asked === undefined ? {} : { 'access-control-allow-headers': asked }),
      'access-control-max-age': '600',
    })
    .end();
}

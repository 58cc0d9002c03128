import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { classifyAddress } from './address-class';
import { allowCrossOrigin, answerPreflight, isPreflight } from './http-cors';

/** JSON-RPC's code for a body that is not JSON (the MCP SDK's transport answers it so too). */
export const PARSE_ERROR = -32700;

/**
 * A JSON-RPC error answer outside any session (the MCP SDK's shape): `code` -32000, the
 * implementation's own, save where JSON-RPC names one (`PARSE_ERROR`).
 */
export function refuse(
  res: ServerResponse,
  status: number,
  message: string,
  headers = {},
  code = -32000,
): void {
  res
    .writeHead(status, { 'content-type': 'application/json', ...headers })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** Why a request without the server's token (or with another) is refused, and what to send. */
export const BEARER_TOKEN_REQUIRED =
  'Forbidden: this server takes a static bearer token, not OAuth: send "Authorization: Bearer <token>" with the token infergate-mcp was started with (--token / INFERGATE_MCP_TOKEN)';

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * The `Host` header's name without its port, as URLs write it: lower case, an IPv6 address in
 * brackets (`LOCALHOST:3000` → `localhost`, `[::1]:80` → `[::1]`).
 */
function hostName(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  try {
    return new URL(`http://${header}`).hostname;
  } catch {
    return undefined;
  }
}

/**
 * An allowed host as `hostName` writes the header's: host names are case-insensitive, so
 * `Example.com` allows `Host: example.com`; a bare IPv6 address (`::1`) is put in brackets.
 */
function allowedName(name: string): string {
  const trimmed = name.trim();
  const ipv6 = (trimmed.match(/:/g)?.length ?? 0) > 1 && !trimmed.startsWith('[');
  const bare = ipv6 ? `[${trimmed}]` : trimmed;
  return hostName(bare) ?? trimmed.toLowerCase();
}

/**
 * Whether the interface a server binds is loopback: `localhost` in any case, or an address in
 * `127.0.0.0/8` or `::1` in any form (`0:0:0:0:0:0:0:1`, `[::1]`, `::ffff:127.0.0.2`). The one rule
 * for the HTTP server's Host checks and the command's warning about serving without a token.
 */
export function isLoopbackBind(host: string): boolean {
  const name = allowedName(host);
  return name === 'localhost' || classifyAddress(name.replace(/^\[|\]$/g, '')) === 'loopback';
}

/**
 * An origin as URLs write it (scheme and host in lower case, no default port), so that
 * `http://LocalHost:5173` allows what a browser sends as `http://localhost:5173`.
 */
function originName(origin: string): string {
  try {
    return new URL(origin.trim()).origin;
  } catch {
    return origin.trim().toLowerCase();
  }
}

interface HttpAccessOptions {
  /** The interface the server is bound to (loopback: only loopback names in `Host`). */
  host: string;
  /** The port the server listens on, once it does (its own origins carry it). */
  port: () => number;
  allowedHosts?: readonly string[];
  allowedOrigins?: readonly string[];
  token?: string;
}

/**
 * Who may call: the `Host` header (DNS-rebinding protection), the browser `Origin` and the bearer
 * token. `answered` answers a request that fails a check, or the CORS preflight of an allowed
 * origin, and says whether it did; an allowed origin's answers carry its CORS headers.
 */
export function httpAccess(options: HttpAccessOptions) {
  const loopback = isLoopbackBind(options.host);
  const bound = allowedName(options.host);
  // The bound address names the server itself, never a rebound name: always allowed (a server on
  // 127.0.0.2 answers `Host: 127.0.0.2`). Not an unspecified one: browsers send 0.0.0.0 to
  // loopback, so `Host: 0.0.0.0` is a page reaching in, not the server's own name.
  const own = classifyAddress(bound.replace(/^\[|\]$/g, '')) === 'unspecified' ? [] : [bound];
  const allowedHosts = (options.allowedHosts ?? (loopback ? LOOPBACK_HOSTS : undefined))
    ?.map(allowedName)
    .concat(own);
  const allowedOrigins = new Set((options.allowedOrigins ?? []).map(originName));
  // On loopback, a page the server itself would serve (`http://localhost:<its port>`, and the same
  // on 127.0.0.1, [::1] and the bound address) is the server's own origin, not a rebound one.
  const ownOrigins = loopback
    ? () =>
        [...new Set([...LOOPBACK_HOSTS, bound])].map((name) => `http://${name}:${options.port()}`)
    : () => [];
  const tokenDigest = options.token === undefined ? undefined : digest(options.token);

  const authorised = (req: IncomingMessage): boolean => {
    if (tokenDigest === undefined) return true;
    const match = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
    // Compared as digests of equal length, in constant time.
    return match !== null && timingSafeEqual(digest(match[1]!.trim()), tokenDigest);
  };

  return {
    answered(req: IncomingMessage, res: ServerResponse): boolean {
      const name = hostName(req.headers.host);
      if (allowedHosts !== undefined && (name === undefined || !allowedHosts.includes(name))) {
        refuse(res, 403, 'Forbidden: Host not allowed');
        return true;
      }
      // A browser sends its origin serialized (lower case, no default port), as `originName` writes
      // the allowed ones; only its case is evened here.
      const origin = req.headers.origin?.toLowerCase();
      const own = origin !== undefined && ownOrigins().includes(origin);
      if (origin !== undefined && !allowedOrigins.has(origin) && !own) {
        refuse(res, 403, 'Forbidden: Origin not allowed');
        return true;
      }
      // Another origin, allowed: the browser needs CORS to send to this server and read it.
      if (origin !== undefined && !own) {
        allowCrossOrigin(res, req.headers.origin!);
        if (isPreflight(req)) {
          answerPreflight(req, res);
          return true;
        }
      }
      if (!authorised(req)) {
        // 403, not 401: MCP clients that speak OAuth (the Inspector, VS Code, mcp-remote) take any
        // 401 for the start of the MCP authorization flow, whatever its WWW-Authenticate says, and
        // look for an authorization server this server does not have. A 403 reaches the user as
        // this message, which says what to send.
        refuse(res, 403, BEARER_TOKEN_REQUIRED);
        return true;
      }
      return false;
    },
  };
}

// docs/gateway-protocol.md §11 (a 23 MiB image or audio file, as base64, fits in one request body).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ListsEveryKey, refusal, refuseUnknownOptions } from '@infergate/core/internal';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { type GatewayMcpServer, isOwnClientKey } from './gateway-mcp-server';
import { httpAccess, PARSE_ERROR, refuse } from './http-access';
import { checkHttpServerOptions } from './http-options';
import { HttpSessions } from './http-sessions';

export interface HttpServerOptions {
  /** Port to listen on. Default 8788; `0` picks a free one. */
  port?: number;
  /** Interface to bind. Default `127.0.0.1` (loopback only). */
  host?: string;
  /** The endpoint's path. Default `/mcp`. */
  path?: string;
  /**
   * A bearer token clients must send (`Authorization: Bearer …`). It is this server's own secret:
   * never the gateway's key. Default: none.
   */
  token?: string;
  /**
   * Browser origins allowed to call (e.g. `http://localhost:5173`; scheme and host in any case). A request that carries any
   * other `Origin` is refused (DNS-rebinding protection); requests without one (non-browser
   * clients) pass. An allowed origin gets CORS: its preflight answered (before the token), its
   * answers readable (`mcp-session-id` exposed). Default: none.
   */
  allowedOrigins?: readonly string[];
  /**
   * Host names (without port) the `Host` header may name, compared without regard to case (an
   * IPv6 address with or without brackets). Default: `localhost`, `127.0.0.1` and
   * `[::1]` when bound to loopback (`localhost` in any case, 127.0.0.0/8, `::1` in any form), so a
   * DNS-rebound name is refused, and any host otherwise. The bound `host` itself (unless `0.0.0.0`
   * or `::`) is always allowed.
   */
  allowedHosts?: readonly string[];
  /**
   * Open sessions at most, counted from the moment an `initialize` is accepted (a session whose
   * first catalog read is still pending holds its slot); a new one beyond is refused with 503,
   * `Retry-After: 60` and `Too many open sessions: …` naming the limit and the count. Default 100.
   */
  maxSessions?: number;
  /**
   * A session with nothing in flight (no tool call running, no GET stream open) for this long,
   * counted from the end of its last request or stream, is closed (ms); its next request gets 404
   * `Session not found`. Many clients never end their sessions. Default 1800000 (30 min); 0: never.
   */
  sessionIdleMs?: number;
}

/** Every key `startHttpServer` takes (a misspelt `token` must not leave the endpoint open). */
const HTTP_SERVER_OPTION_KEYS = [
  'port',
  'host',
  'path',
  'token',
  'allowedOrigins',
  'allowedHosts',
  'maxSessions',
  'sessionIdleMs',
] as const satisfies readonly (keyof HttpServerOptions)[];
true satisfies ListsEveryKey<HttpServerOptions, typeof HTTP_SERVER_OPTION_KEYS>;

export interface RunningHttpServer {
  /** The endpoint's URL, e.g. `http://127.0.0.1:8788/mcp`. */
  url: string;
  /** Open MCP sessions, those whose `initialize` is still being answered included. */
  readonly sessions: number;
  /** Closes every session and the listening socket (the gateway MCP server stays usable). */
  close(): Promise<void>;
}

/** A JSON-RPC body holds at most a 23 MiB file as base64 (~31 MiB), plus the rest. */
const MAX_BODY_BYTES = 40 * 1024 * 1024;
/** How long an idle kept-alive connection stays open (longer than a client's own idle timer). */
const KEEP_ALIVE_MS = 65_000;

/**
 * What a body over the limit is told: it holds a 23 MiB file as base64, and a larger file is
 * refused however it is given (a URL download has the same limit), so it names no argument.
 */
const BODY_TOO_LARGE = `Request body over ${MAX_BODY_BYTES} bytes (40 MiB), this server's limit per message: enough for a 23 MiB file as base64, and 23 MiB is the most a file may be however it is given (a URL too): send a smaller file, or fewer or shorter texts per call`;

class BodyTooLarge extends Error {}

/** The body as JSON; a body over the limit is refused unread when its `Content-Length` says so. */
function readJsonBody(req: IncomingMessage): Promise<unknown> {
  if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) {
    return Promise.reject(new BodyTooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) {
        chunks.push(chunk);
        return;
      }
      // The stream keeps flowing: the rest is read (and dropped) by `refuseTooLarge`.
      req.off('data', onData).off('end', onEnd);
      chunks.length = 0;
      reject(new BodyTooLarge());
    };
    const onEnd = () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch (error) {
        reject(error);
      }
    };
    req.on('data', onData).once('end', onEnd).once('error', reject);
  });
}

/**
 * Answers 413 with `Connection: close` once the body is read to its end, dropped as it comes: a
 * socket closed while its client still sends makes the client see a reset (this answer and its
 * next call on the kept-alive connection lost), not the 413. A body whose `Content-Length` says
 * it is over twice the limit is answered at once; one that sends more than that (with no
 * `Content-Length`) loses its connection there. Node closes the socket after the answer.
 */
function refuseTooLarge(req: IncomingMessage, res: ServerResponse): void {
  const answer = () => refuse(res, 413, BODY_TOO_LARGE, { connection: 'close' });
  if (req.complete || Number(req.headers['content-length'] ?? 0) > 2 * MAX_BODY_BYTES) {
    answer();
    return;
  }
  let dropped = 0;
  req
    .on('data', (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > 2 * MAX_BODY_BYTES) req.socket.destroy();
    })
    .once('end', answer)
    .resume();
}

/**
 * The endpoint's routing, once a request passed the access checks: POST carries JSON-RPC (an
 * `initialize` without a session opens one), GET and DELETE need an open session.
 */
async function route(
  req: IncomingMessage,
  res: ServerResponse,
  sessions: HttpSessions,
): Promise<void> {
  const sessionId = req.headers['mcp-session-id'];
  const existing = sessions.use(sessionId, res);
  if (req.method === 'POST') {
    let body: unknown;
    try {
      body = await readJsonBody(req);
    } catch (error) {
      return error instanceof BodyTooLarge
        ? refuseTooLarge(req, res)
        : refuse(res, 400, 'Parse error: the body is not JSON', {}, PARSE_ERROR);
    }
    if (existing !== undefined) return sessions.handle(existing, req, res, body);
    if (sessionId !== undefined) return refuse(res, 404, 'Session not found');
    if (!isInitializeRequest(body)) {
      return refuse(res, 400, 'Bad Request: no session id, and not an initialize request');
    }
    return sessions.open(req, res, body);
  }
  if (req.method === 'GET' || req.method === 'DELETE') {
    if (existing === undefined) {
      return refuse(res, sessionId === undefined ? 400 : 404, 'Session not found');
    }
    return sessions.handle(existing, req, res);
  }
  return refuse(res, 405, 'Method not allowed', { allow: 'GET, POST, DELETE' });
}

/**
 * Serves the gateway MCP server over Streamable HTTP: one MCP session (its own `McpServer` and
 * transport) per client, all on the gateway server's one client and key budget. Sessions get no
 * `*_path` arguments: a remote client may not read this machine's files. The pieces: access
 * checks (`http-access.ts`), sessions and their idle sweep (`http-sessions.ts`), routing (`route`).
 */
export async function startHttpServer(
  gateway: GatewayMcpServer,
  options: HttpServerOptions = {},
): Promise<RunningHttpServer> {
  // Before anything listens: `tokn` would otherwise serve without authentication.
  refuseUnknownOptions(options, HTTP_SERVER_OPTION_KEYS, 'startHttpServer', 'client option');
  checkHttpServerOptions(options);
  // The token is this server's own secret: the gateway key as token would hand every client that
  // authenticates the key itself (and a leaked token the gateway's budget). Neither is quoted.
  if (typeof options.token === 'string' && isOwnClientKey(gateway, options.token)) {
    throw refusal(
      'startHttpServer option',
      'token',
      'must not be the gateway API key (clientOptions.apiKey or INFERGATE_API_KEY): use a random secret of its own',
    );
  }
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const access = httpAccess({
    ...options,
    host,
    port: () => (server.address() as AddressInfo).port,
  });
  const sessions = new HttpSessions(gateway, {
    idleMs: options.sessionIdleMs ?? 30 * 60_000,
    maxSessions: options.maxSessions ?? 100,
  });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== path) return refuse(res, 404, `Not found: the MCP endpoint is ${path}`);
    if (access.answered(req, res)) return;
    return route(req, res, sessions);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) refuse(res, 500, 'Internal server error');
      else res.end();
    });
  });
  // An idle kept-alive connection is closed after a minute, not Node's 5 s: a client whose own
  // idle timer runs late (a busy process; undici's coarse timers) would send its next POST on a
  // socket the server just closed, and see a reset instead of an answer.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8788, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  let closed: Promise<void> | undefined;
  return {
    url: `http://${shownHost}:${port}${path}`,
    get sessions() {
      return sessions.size;
    },
    close() {
      closed ??= (async () => {
        await sessions.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      })();
      return closed;
    },
  };
}

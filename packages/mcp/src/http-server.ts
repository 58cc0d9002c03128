import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { GatewayMcpServer } from './gateway-mcp-server';

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
   * Browser origins allowed to call (e.g. `http://localhost:5173`). A request that carries any
   * other `Origin` is refused (DNS-rebinding protection); requests without one (non-browser
   * clients) pass. Default: none.
   */
  allowedOrigins?: readonly string[];
  /**
   * Host names (without port) the `Host` header may name. Default: `localhost`, `127.0.0.1` and
   * `[::1]` when bound to loopback (so a DNS-rebound name is refused), and any host otherwise.
   */
  allowedHosts?: readonly string[];
  /** Open sessions at most; a new one beyond is refused with 503. Default 100. */
  maxSessions?: number;
  /**
   * A session that has sent nothing for this long is closed (ms); its client starts a new one on
   * its next request. Many clients never end their sessions. Default 1800000 (30 min); 0: never.
   */
  sessionIdleMs?: number;
}

export interface RunningHttpServer {
  /** The endpoint's URL, e.g. `http://127.0.0.1:8788/mcp`. */
  url: string;
  /** Open MCP sessions. */
  readonly sessions: number;
  /** Closes every session and the listening socket (the gateway MCP server stays usable). */
  close(): Promise<void>;
}

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];
/** A JSON-RPC body holds at most a 23 MiB file as base64 (~31 MiB), plus the rest. */
const MAX_BODY_BYTES = 40 * 1024 * 1024;

const isLoopback = (host: string) =>
  host === 'localhost' || host === '::1' || host === '[::1]' || /^127\./.test(host);

function refuse(res: ServerResponse, status: number, message: string, headers = {}): void {
  res
    .writeHead(status, { 'content-type': 'application/json', ...headers })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** The `Host` header's name without its port (`[::1]:80` → `[::1]`). */
function hostName(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  try {
    return new URL(`http://${header}`).hostname;
  } catch {
    return undefined;
  }
}

async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new RangeError('body too large');
    chunks.push(chunk);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/**
 * Serves the gateway MCP server over Streamable HTTP: one MCP session (its own `McpServer` and
 * transport) per client, all on the gateway server's one client and key budget. Sessions get no
 * `*_path` arguments: a remote client may not read this machine's files.
 */
export async function startHttpServer(
  gateway: GatewayMcpServer,
  options: HttpServerOptions = {},
): Promise<RunningHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const allowedHosts = options.allowedHosts ?? (isLoopback(host) ? LOOPBACK_HOSTS : undefined);
  const allowedOrigins = new Set(options.allowedOrigins ?? []);
  const tokenDigest = options.token === undefined ? undefined : digest(options.token);
  const maxSessions = options.maxSessions ?? 100;
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const lastSeen = new Map<string, number>();
  const idleMs = options.sessionIdleMs ?? 30 * 60_000;
  const sweep =
    idleMs > 0
      ? setInterval(
          () => {
            const now = Date.now();
            for (const [id, seen] of lastSeen) {
              if (now - seen >= idleMs) void transports.get(id)?.close();
            }
          },
          Math.min(idleMs, 60_000),
        )
      : undefined;
  sweep?.unref();

  const authorised = (req: IncomingMessage): boolean => {
    if (tokenDigest === undefined) return true;
    const match = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
    // Compared as digests of equal length, in constant time.
    return match !== null && timingSafeEqual(digest(match[1]!.trim()), tokenDigest);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== path) return refuse(res, 404, `Not found: the MCP endpoint is ${path}`);
    const name = hostName(req.headers.host);
    if (allowedHosts !== undefined && (name === undefined || !allowedHosts.includes(name))) {
      return refuse(res, 403, 'Forbidden: Host not allowed');
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(origin)) {
      return refuse(res, 403, 'Forbidden: Origin not allowed');
    }
    if (!authorised(req)) {
      return refuse(res, 401, 'Unauthorized: a bearer token is required', {
        'www-authenticate': 'Bearer',
      });
    }
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
    if (existing !== undefined) lastSeen.set(sessionId as string, Date.now());

    if (req.method === 'POST') {
      let body: unknown;
      try {
        body = await readJsonBody(req);
      } catch (error) {
        return error instanceof RangeError
          ? refuse(res, 413, `Request body over ${MAX_BODY_BYTES} bytes`)
          : refuse(res, 400, 'Parse error: the body is not JSON');
      }
      if (existing !== undefined) return existing.handleRequest(req, res, body);
      if (sessionId !== undefined) return refuse(res, 404, 'Session not found');
      if (!isInitializeRequest(body)) {
        return refuse(res, 400, 'Bad Request: no session id, and not an initialize request');
      }
      if (transports.size >= maxSessions) return refuse(res, 503, 'Too many open sessions');
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          transports.set(id, transport);
          lastSeen.set(id, Date.now());
        },
      });
      transport.onclose = () => {
        if (transport.sessionId === undefined) return;
        transports.delete(transport.sessionId);
        lastSeen.delete(transport.sessionId);
      };
      const session = await gateway.connect(transport, { files: false });
      await transport.handleRequest(req, res, body);
      // Refused before a session id was given (a wrong Accept or Content-Type): no close will
      // ever come for it, so it is closed here rather than kept forever and never counted.
      if (transport.sessionId === undefined) await session.close();
      return;
    }
    if (req.method === 'GET' || req.method === 'DELETE') {
      if (existing === undefined) {
        return refuse(res, sessionId === undefined ? 400 : 404, 'Session not found');
      }
      return existing.handleRequest(req, res);
    }
    return refuse(res, 405, 'Method not allowed', { allow: 'GET, POST, DELETE' });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) refuse(res, 500, 'Internal server error');
      else res.end();
    });
  });
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
      return transports.size;
    },
    close() {
      closed ??= (async () => {
        if (sweep !== undefined) clearInterval(sweep);
        await Promise.all([...transports.values()].map((transport) => transport.close()));
        transports.clear();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      })();
      return closed;
    },
  };
}

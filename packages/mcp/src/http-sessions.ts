import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { monotonicNow } from '@infergate/core/internal';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  ErrorCode,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type RequestId,
  RequestIdSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { GatewayMcpServer } from './gateway-mcp-server';
import { refuse } from './http-access';

/** One open session: its transport, and what it has going on. */
export interface Session {
  readonly transport: StreamableHTTPServerTransport;
  /** HTTP requests on it not answered yet: POSTs whose answer is pending, open GET streams. */
  busy: number;
  /** When its last request or stream ended (monotonic clock). */
  lastSeen: number;
  /**
   * Each JSON-RPC request id the transport still holds a stream for, and the POST that carried it:
   * to answer its requests if the session is closed, to cancel them if their client goes, and to
   * refuse a second request of the same id meanwhile (the transport routes answers by bare id).
   */
  readonly pending: Map<RequestId, Exchange>;
}

/** 400 with a JSON-RPC `Invalid Request` error, as the SDK's transport answers a malformed POST. */
function refuseRequest(res: ServerResponse, message: string): void {
  res.writeHead(400, { 'content-type': 'application/json' }).end(
    JSON.stringify({
      jsonrpc: '2.0',
      error: { code: ErrorCode.InvalidRequest, message },
      id: null,
    }),
  );
}

/** One POST's JSON-RPC requests: all of their ids, and those not answered yet. */
interface Exchange {
  readonly ids: readonly RequestId[];
  readonly unanswered: Set<RequestId>;
}

/**
 * The ids of the JSON-RPC requests in a POST body (a message or a batch), by the SDK's own guard:
 * what its transport counts as a request (to be answered on this POST's stream) is counted here.
 */
function requestIds(body: unknown): RequestId[] {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  return messages.filter(isJSONRPCRequest).map((request) => request.id);
}

/**
 * Marks a request answered once its answer (result or error) is handed to the transport: its
 * handler has ended, nothing is left to cancel. A POST's ids leave `pending` with its last answer,
 * when the transport itself lets go of them (until then, a batch's answered id still names its
 * stream there).
 */
function forgetWhenAnswered(
  transport: StreamableHTTPServerTransport,
  pending: Map<RequestId, Exchange>,
): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if (
      (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) &&
      message.id !== undefined
    ) {
      const exchange = pending.get(message.id);
      exchange?.unanswered.delete(message.id);
      if (exchange?.unanswered.size === 0) {
        for (const id of exchange.ids) pending.delete(id);
      }
    }
    return send(message, options);
  };
}

/**
 * The ids of the requests a POST body's `notifications/cancelled` name (a message or a batch).
 */
function cancelledIds(body: unknown): RequestId[] {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  return messages
    .filter(isJSONRPCNotification)
    .filter((message) => message.method === 'notifications/cancelled')
    .map((message) => RequestIdSchema.safeParse(message.params?.requestId))
    .flatMap((id) => (id.success ? [id.data] : []));
}

/** Why the client went, when its POST's stream closed before the answer. */
const CLIENT_GONE = 'the client closed its connection before the answer';

/**
 * Cancels a request: through the SDK's own path, as if the client had sent
 * `notifications/cancelled` (its handler's AbortSignal fires; the SDK then sends nothing for it),
 * then answers it with an error nobody reads. That answer is what lets the transport release the
 * request's stream, its id, and its batch's answers kept for it; unanswered, they stay until the
 * session closes. (A client that cancelled must already take an answer arriving after its cancel:
 * the protocol allows for one sent before the cancel came; the SDK's client drops it.)
 */
function cancel(session: Session, requestId: RequestId, reason: string): Promise<void> {
  session.transport.onmessage?.({
    jsonrpc: '2.0',
    method: 'notifications/cancelled',
    params: { requestId, reason },
  });
  return session.transport
    .send({
      jsonrpc: '2.0',
      id: requestId,
      error: { code: ErrorCode.ConnectionClosed, message: `Cancelled: ${reason}` },
    })
    .catch(() => undefined); // its stream is gone: the transport says so once it let go
}

/**
 * The `Retry-After` (seconds) of a 503 for too many sessions. A slot frees when a client ends its
 * session (at any moment) or when the idle sweep closes one (it runs at most a minute apart): a
 * minute is when a retry first has a fair chance, without telling a client to wait out the 30
 * minutes a session may still have before it counts as idle.
 */
export const SESSION_RETRY_AFTER_S = 60;

/** What an `initialize` beyond the cap is told: the limit, how many are open, what frees one. */
function tooManySessions(open: number, max: number): string {
  return `Too many open sessions: ${open} open of at most ${max} (maxSessions); retry after ${SESSION_RETRY_AFTER_S} s, or end an unused session (DELETE with its mcp-session-id)`;
}

/**
 * The open MCP sessions of the HTTP server: one transport (and `McpServer`) per client, found by
 * its `mcp-session-id`; a session idle for `idleMs` is closed (many clients never end theirs).
 * Idle means nothing in flight (no tool call running, no GET stream open) for `idleMs`, counted
 * from the end of its last request or stream: a long tool call or a client listening for
 * `list_changed` keeps its session. At most `maxSessions` at once, counted from the moment an
 * `initialize` is accepted: a session still waiting in `connect` (for the first catalog read, up
 * to 5 s) holds its slot.
 */
export class HttpSessions {
  readonly #gateway: GatewayMcpServer;
  readonly #maxSessions: number;
  readonly #sessions = new Map<string, Session>();
  readonly #sweep: ReturnType<typeof setInterval> | undefined;
  /** Initializes accepted whose session is not in `#sessions` yet. */
  #opening = 0;

  constructor(gateway: GatewayMcpServer, options: { idleMs: number; maxSessions: number }) {
    const { idleMs } = options;
    this.#gateway = gateway;
    this.#maxSessions = options.maxSessions;
    this.#sweep =
      idleMs > 0 ? setInterval(() => this.#closeIdle(idleMs), Math.min(idleMs, 60_000)) : undefined;
    this.#sweep?.unref();
  }

  /** Sessions open, and being opened. */
  get size(): number {
    return this.#sessions.size + this.#opening;
  }

  /**
   * The session `id` names, busy until `res` closes (then seen at that moment); undefined when
   * there is none.
   */
  use(id: string | string[] | undefined, res: ServerResponse): Session | undefined {
    const session = typeof id === 'string' ? this.#sessions.get(id) : undefined;
    if (session === undefined) return undefined;
    session.busy += 1;
    res.once('close', () => {
      session.busy -= 1;
      session.lastSeen = monotonicNow();
    });
    return session;
  }

  /** Hands a request to its session's transport, noting the JSON-RPC requests it carries. */
  async handle(
    session: Session,
    req: IncomingMessage,
    res: ServerResponse,
    body?: unknown,
  ): Promise<void> {
    // A request the client cancelled is done from its view, and may be sent again under the same
    // id (a reconnected client numbering from 0; this body itself): cancelled and answered first,
    // its POST's stream ends and its id is free, instead of both held until the session closes.
    for (const id of cancelledIds(body)) {
      if (session.pending.get(id)?.unanswered.has(id)) {
        void cancel(session, id, 'the client cancelled it');
      }
    }
    const ids = requestIds(body);
    const reused = ids.find((id, at) => session.pending.has(id) || ids.indexOf(id) !== at);
    if (reused !== undefined) {
      // The transport keys its streams by bare id: a second request of an id still open (a client
      // reconnected to the session numbering from 0 again, a batch naming an id twice) would take
      // the first one's answer, or have its own cancelled when the first one's client goes.
      return refuseRequest(
        res,
        `Invalid Request: id ${JSON.stringify(reused)} is already used by a request of this session not answered yet; use another id`,
      );
    }
    const exchange: Exchange = { ids, unanswered: new Set(ids) };
    for (const id of ids) session.pending.set(id, exchange);
    res.once('close', () => {
      // The POST's stream closed with requests of it unanswered: its client went (aborted its
      // fetch, closed, lost its connection). With no event store no answer can reach it later, so
      // each is cancelled. Only this POST's own requests: another POST may use the same id later.
      for (const id of [...exchange.unanswered]) void cancel(session, id, CLIENT_GONE);
    });
    if (req.method === 'DELETE') await this.#answerPending(session, 'the client ended the session');
    await session.transport.handleRequest(req, res, body);
  }

  /**
   * Opens a session for an `initialize` request and answers it, or refuses it with 503 when
   * `maxSessions` are open or being opened. The slot is taken before anything is awaited.
   */
  async open(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    if (this.size >= this.#maxSessions) {
      return refuse(res, 503, tooManySessions(this.size, this.#maxSessions), {
        'retry-after': String(SESSION_RETRY_AFTER_S),
      });
    }
    this.#opening += 1;
    let opening = true;
    // From here the session counts in `#sessions`: the slot passes to it, never counted twice.
    const opened = () => {
      if (opening) this.#opening -= 1;
      opening = false;
    };
    const pending = new Map<RequestId, Exchange>();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.#sessions.set(id, {
          transport,
          busy: 0,
          lastSeen: monotonicNow(),
          pending,
        });
        opened();
      },
    });
    forgetWhenAnswered(transport, pending);
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.#sessions.delete(transport.sessionId);
    };
    try {
      const session = await this.#gateway.connect(transport, { files: false });
      await transport.handleRequest(req, res, body);
      // Refused before a session id was given (a wrong Accept or Content-Type): no close will
      // ever come for it, so it is closed here rather than kept forever and never counted.
      if (transport.sessionId === undefined) await session.close();
    } finally {
      opened();
    }
  }

  /** Closes every session (their pending requests answered with an error) and stops the sweep. */
  async close(): Promise<void> {
    if (this.#sweep !== undefined) clearInterval(this.#sweep);
    await Promise.all(
      [...this.#sessions.values()].map(async (session) => {
        await this.#answerPending(session, 'the server is shutting down');
        await session.transport.close();
      }),
    );
    this.#sessions.clear();
  }

  /**
   * Answers each request the session has not answered with an error: closing its transport
   * alone would end their streams in silence, and the client would wait out its own timeout.
   */
  async #answerPending(session: Session, reason: string): Promise<void> {
    const message = `Session closed before this request was answered: ${reason}`;
    await Promise.all(
      [...new Set(session.pending.values())]
        .flatMap((exchange) => [...exchange.unanswered])
        .map((id) =>
          session.transport
            .send({ jsonrpc: '2.0', id, error: { code: ErrorCode.ConnectionClosed, message } })
            // Answered meanwhile (its stream is gone): nothing left to tell.
            .catch(() => undefined),
        ),
    );
  }

  /** Idle time on the monotonic clock: a step of the wall clock closes no live session, keeps no idle one. */
  #closeIdle(idleMs: number): void {
    const now = monotonicNow();
    for (const session of this.#sessions.values()) {
      if (session.busy === 0 && now - session.lastSeen >= idleMs) void session.transport.close();
    }
  }
}

import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { monotonicNow } from '@infergate/core/internal';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { GatewayMcpServer } from './gateway-mcp-server';
import { refuse } from './http-access';

/**
 * The open MCP sessions of the HTTP server: one transport (and `McpServer`) per client, found by
 * its `mcp-session-id`; a session idle for `idleMs` is closed (many clients never end theirs).
 * At most `maxSessions` at once, counted from the moment an `initialize` is accepted: a session
 * still waiting in `connect` (for the first catalog read, up to 5 s) holds its slot.
 */
export class HttpSessions {
  readonly #gateway: GatewayMcpServer;
  readonly #maxSessions: number;
  readonly #transports = new Map<string, StreamableHTTPServerTransport>();
  readonly #lastSeen = new Map<string, number>();
  readonly #sweep: ReturnType<typeof setInterval> | undefined;
  /** Initializes accepted whose session is not in `#transports` yet. */
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
    return this.#transports.size + this.#opening;
  }

  /** The session `id` names, marked as seen now; undefined when there is none. */
  use(id: string | string[] | undefined): StreamableHTTPServerTransport | undefined {
    const transport = typeof id === 'string' ? this.#transports.get(id) : undefined;
    if (transport !== undefined) this.#lastSeen.set(id as string, monotonicNow());
    return transport;
  }

  /**
   * Opens a session for an `initialize` request and answers it, or refuses it with 503 when
   * `maxSessions` are open or being opened. The slot is taken before anything is awaited.
   */
  async open(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    if (this.size >= this.#maxSessions) return refuse(res, 503, 'Too many open sessions');
    this.#opening += 1;
    let opening = true;
    // From here the session counts in `#transports`: the slot passes to it, never counted twice.
    const opened = () => {
      if (opening) this.#opening -= 1;
      opening = false;
    };
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.#transports.set(id, transport);
        this.#lastSeen.set(id, monotonicNow());
        opened();
      },
    });
    transport.onclose = () => {
      if (transport.sessionId === undefined) return;
      this.#transports.delete(transport.sessionId);
      this.#lastSeen.delete(transport.sessionId);
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

  /** Closes every session and stops the idle sweep. */
  async close(): Promise<void> {
    if (this.#sweep !== undefined) clearInterval(this.#sweep);
    await Promise.all([...this.#transports.values()].map((transport) => transport.close()));
    this.#transports.clear();
  }

  /** Idle time on the monotonic clock: a step of the wall clock closes no live session, keeps no idle one. */
  #closeIdle(idleMs: number): void {
    const now = monotonicNow();
    for (const [id, seen] of this.#lastSeen) {
      if (now - seen >= idleMs) void this.#transports.get(id)?.close();
    }
  }
}

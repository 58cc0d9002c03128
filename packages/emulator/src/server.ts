// docs/gateway-protocol.md §2.5 (a request's slot, freed when its client goes away).
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CorsOption, withCors } from './cors';
import { answerExactPath, createEmulator, type Emulator } from './emulator';
import { refuseUnknownOptions } from './field-names';
import { fullAccessKey } from './full-access-key';
import type { ScenarioInput } from './scenario';

export interface StartEmulatorOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to listen on (default `127.0.0.1`). */
  host?: string;
  /** Scenario merged over `defaultScenario()`. */
  scenario?: ScenarioInput;
  /** Serve an existing emulator instead of creating one from `scenario`. */
  emulator?: Emulator;
  /**
   * Lets browser apps on other origins call the server: `true` for any origin, or a list of
   * origins (`['http://localhost:5173']`). Preflights are answered with 204; responses carry
   * `Access-Control-Allow-Origin` and expose `Retry-After` and `X-Service-Model`. Default: off.
   */
  cors?: CorsOption | false;
}

/** Every key `startEmulator` takes. */
const START_EMULATOR_OPTION_KEYS = [
  'port',
  'host',
  'scenario',
  'emulator',
  'cors',
] as const satisfies readonly (keyof StartEmulatorOptions)[];
true satisfies Exclude<
  keyof StartEmulatorOptions,
  (typeof START_EMULATOR_OPTION_KEYS)[number]
> extends never
  ? true
  : false;

export interface RunningEmulator {
  /** Base URL ending in `/v1`, e.g. `http://127.0.0.1:41234/v1`. */
  url: string;
  /** A key of the scenario allowed to use everything (`DEFAULT_KEYS.full` by default). */
  apiKey: string;
  emulator: Emulator;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
}

/** Request headers that belong to the connection, not to the request. */
const HOP_BY_HOP = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'expect',
  'upgrade',
  'te',
  'trailer',
  'proxy-connection',
]);

/** A Node request as a fetch `Request`, and `detach()` to let go of its body once answered. */
function toRequest(req: IncomingMessage, origin: string, signal: AbortSignal) {
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    if (!HOP_BY_HOP.has(name.toLowerCase())) headers.append(name, req.rawHeaders[i + 1]!);
  }
  // The declared size lets the emulator refuse an oversized body before reading it.
  const length = req.headers['content-length'];
  if (length !== undefined) headers.set('content-length', length);
  const method = req.method ?? 'GET';
  const body = method !== 'GET' && method !== 'HEAD' ? bodyStream(req) : undefined;
  const request = new Request(`${origin}${req.url ?? '/'}`, {
    method,
    headers,
    body: body?.stream,
    signal,
    duplex: 'half',
  } as RequestInit);
  return { request, detach: () => body?.detach() };
}

/**
 * The Node request body as a web stream read on demand: the emulator checks the key (and the
 * declared size) first and pulls the body only if it wants it, chunk by chunk under its size cap.
 * `detach()` stops the stream from touching `req` again: an answer given without reading the body
 * (a 429 before the body) must not leave a listener that pauses `req` at its next chunk, or the
 * rest is never discarded, `'end'` never comes, and `lingerThenClose` closes the connection 5 s
 * later — by then carrying the client's next request (issue 45: healthy streams cut in B9).
 */
function bodyStream(req: IncomingMessage): {
  stream: ReadableStream<Uint8Array>;
  detach: () => void;
} {
  let open = true;
  let control: ReadableStreamDefaultController<Uint8Array> | undefined;
  const onData = (chunk: Buffer) => {
    if (!open) return;
    control?.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    if ((control?.desiredSize ?? 0) <= 0) req.pause();
  };
  const onEnd = () => {
    if (open) control?.close();
    open = false;
  };
  const onError = (error: Error) => {
    if (open) control?.error(error);
    open = false;
  };
  const stop = () => {
    open = false;
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('error', onError);
  };
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        control = controller;
        req.pause();
        req.on('data', onData);
        req.once('end', onEnd);
        req.once('error', onError);
      },
      pull() {
        req.resume();
      },
      cancel() {
        // Left unread: `serve` answers, then discards the rest and closes (lingerThenClose).
        stop();
        req.pause();
      },
    },
    { highWaterMark: 0 },
  );
  const detach = () => {
    if (open) control?.error(new TypeError('The request was answered before its body was read'));
    stop();
  };
  return { stream, detach };
}

/** How much of a refused body is discarded (never kept) so the client can read the answer. */
const LINGER_BYTES = 64 * 1024 * 1024;
const LINGER_MS = 5_000;

/**
 * The body was refused unread (no key, too large, a fault): answer at once, then discard what the
 * client still sends — never buffered — and close the connection after `LINGER_BYTES` or
 * `LINGER_MS`, whichever comes first, unless the whole body arrives before. (Closing at once, or
 * `Connection: close`, would make a client that is still uploading fail with EPIPE before it reads
 * the answer.) Once the whole body has arrived the connection is sound, and a keep-alive client
 * may already be sending its next request on it (a retry after a 429): a late close would cut
 * that request, so nothing closes a connection whose request is complete.
 */
function lingerThenClose(req: IncomingMessage): void {
  let discarded = 0;
  const close = () => {
    // `req.complete` is the parser's word that the body is all in, even if `'end'` was missed.
    if (!req.complete) req.socket.destroy();
    stop();
  };
  const timer = setTimeout(close, LINGER_MS);
  timer.unref?.();
  // Counted on the socket: Node's own discarding of an unread body drops 'data' listeners.
  const count = (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > LINGER_BYTES) close();
  };
  const stop = () => {
    clearTimeout(timer);
    req.socket.off('data', count);
  };
  req.socket.on('data', count);
  req.socket.once('close', stop);
  req.once('end', stop);
  req.resume();
}

function waitForDrain(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Bridges one Node request to the fetch handler, streaming the body out as it is produced. */
async function serve(
  handle: (request: Request) => Promise<Response>,
  req: IncomingMessage,
  res: ServerResponse,
  origin: string,
) {
  const aborter = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) aborter.abort();
  });
  const { request, detach } = toRequest(req, origin, aborter.signal);
  let response: Response;
  try {
    response = await handle(request);
  } catch {
    // `drop_connection`, or the client went away: close without an answer.
    req.socket.destroy();
    return;
  } finally {
    detach();
  }
  if (res.destroyed) {
    await response.body?.cancel().catch(() => undefined);
    return;
  }
  res.statusCode = response.status;
  response.headers.forEach((value, name) => {
    res.setHeader(name, value);
  });
  // An unread remainder is drained either way, so the connection's next request gets parsed.
  if (!req.complete) lingerThenClose(req);
  else req.resume();
  if (!response.body) {
    res.end();
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  aborter.signal.addEventListener('abort', () => {
    reader.cancel().catch(() => undefined);
  });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await waitForDrain(res);
      if (res.destroyed) {
        await reader.cancel().catch(() => undefined);
        return;
      }
    }
    res.end();
  } catch {
    // A failing body (`stream_cut`) cuts the connection, as a real gateway would: what was
    // written is flushed, then the socket closes without the chunked terminator.
    const socket = res.socket;
    if (socket && !socket.destroyed) socket.end(() => socket.destroy());
    else res.destroy();
  }
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * The interface to listen on: `127.0.0.1` when left out. An empty or blank one (`host: process.env.HOST`
 * unset to '') is refused before anything listens: Node would listen on every interface, and the URL
 * would be `http://:PORT`.
 */
function listenHost(host: unknown): string {
  if (host === undefined) return '127.0.0.1';
  if (typeof host !== 'string' || host.trim() === '') {
    const got = typeof host === 'string' ? `'${host}'` : String(host);
    throw new TypeError(`startEmulator: host must be an interface name or address, got ${got}`);
  }
  return host;
}

/** Starts a real HTTP server on loopback serving an emulator under `/v1`. */
export async function startEmulator(options: StartEmulatorOptions = {}): Promise<RunningEmulator> {
  // Before anything listens: `hots` would otherwise serve on 127.0.0.1 without a word.
  refuseUnknownOptions(options, START_EMULATOR_OPTION_KEYS, 'startEmulator');
  // Imported here so that the package root stays loadable where `node:http` does not exist.
  const { createServer } = await import('node:http');
  const emulator = options.emulator ?? createEmulator(options.scenario);
  // Before anything listens too: a scenario without a key is refused with nothing left open.
  const apiKey = fullAccessKey(emulator.scenario);
  const host = listenHost(options.host);
  let origin = '';
  const answer = (request: Request) => answerExactPath(emulator, request);
  // (`false`: off, as when left out.)
  const cors = options.cors === false ? undefined : options.cors;
  const handle = cors === undefined ? answer : withCors(answer, cors);
  // An idle connection is never closed by the server (`keepAliveTimeout: 0`, so no `Keep-Alive:
  // timeout` hint either): the client closes its own (undici: after 4 s), so it never sends on a
  // connection the server is closing at that moment, whose request would die unread (ECONNRESET).
  // With a server timeout, however long, a loaded machine still met it: undici's keep-alive clock
  // advances a fixed step per timer tick, and a busy event loop slows it below the server's wall
  // clock (31 s of stall: the server closed, undici still sent on it; issue: the fault matrix's
  // retries after a cut connection, 2 of 3 reaching the emulator).
  const server = createServer({ keepAliveTimeout: 0 }, (req, res) => {
    void serve(handle, req, res, origin);
  });
  await listen(server, options.port ?? 0, host);
  const { port } = server.address() as AddressInfo;
  origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url: `${origin}/v1`,
    apiKey,
    emulator,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

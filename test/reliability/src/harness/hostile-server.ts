import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEmulator, type Emulator } from '@infergate/emulator';

/**
 * A hostile gateway of our own on loopback. Each case lives under its own path prefix
 * (`http://127.0.0.1:P/<case>/v1`): its handler answers what it wants to break and returns
 * `false` for the rest, which a faithful emulator answers (the catalog, the services), so the
 * adapters get past their look-ups and meet the hostile answer where it matters.
 */
export type HostileHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  endpoint: string,
) => boolean | Promise<boolean>;

export interface HostileServer {
  /** Base URL of a case: `http://127.0.0.1:P/<name>/v1`. */
  url(name: string): string;
  origin: string;
  /** Requests each case received, by endpoint (`chat/completions`, `models`, …). */
  seen(name: string): string[];
  close(): Promise<void>;
}

export async function startHostileServer(
  apiKey: string,
  cases: Record<string, HostileHandler>,
): Promise<HostileServer> {
  const emulator: Emulator = createEmulator({
    keys: { [apiKey]: { allowUnshielded: true, offlineFallback: true } },
  });
  const seen = new Map<string, string[]>();
  const server: Server = createServer((req, res) => {
    void route(req, res).catch(() => res.destroy());
  });
  async function route(req: IncomingMessage, res: ServerResponse) {
    const match = /^\/([^/]+)\/v1\/(.*)$/.exec(req.url ?? '');
    const name = match?.[1] ?? '';
    const endpoint = (match?.[2] ?? '').split('?')[0]!;
    const list = seen.get(name) ?? [];
    list.push(endpoint);
    seen.set(name, list);
    const handler = cases[name];
    if (handler && (await handler(req, res, endpoint))) return;
    await delegate(req, res, `/v1/${endpoint}`);
  }
  async function delegate(req: IncomingMessage, res: ServerResponse, path: string) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name))
        headers.set(name, value);
    }
    const response = await emulator.fetch(`http://emulator${path}`, {
      method: req.method,
      headers,
      body: req.method === 'GET' ? undefined : Buffer.concat(chunks),
    });
    res.statusCode = response.status;
    response.headers.forEach((value, name) => {
      res.setHeader(name, value);
    });
    res.end(Buffer.from(await response.arrayBuffer()));
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    url: (name) => `${origin}/${name}/v1`,
    seen: (name) => seen.get(name) ?? [],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Drains a request body (so the socket can be reused), then answers. */
export async function drain(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Answers JSON with a status (and headers). */
export function answerJson(
  res: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body);
}

/** Answers an SSE body made of the given `data:` payloads. */
export function answerSse(res: ServerResponse, events: string[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end(events.map((data) => `data: ${data}\n\n`).join(''));
}

/**
 * Writes `chunk` again and again (minding backpressure) until `maxBytes` are written or the client
 * goes away; then ends the response. An "endless" body for the client under test.
 */
export async function pour(res: ServerResponse, chunk: Buffer, maxBytes: number): Promise<void> {
  let written = 0;
  while (written < maxBytes && !res.destroyed) {
    written += chunk.length;
    if (!res.write(chunk)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.on('drain', done);
        res.on('close', done);
      });
    }
  }
  if (!res.destroyed) res.end();
}

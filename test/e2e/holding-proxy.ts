import { once } from 'node:events';
import {
  createServer,
  request as forward,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** A stream the proxy holds after its first text: the test decides when (and whether) it goes on. */
export interface HeldStream {
  /** Settles once the first event carrying answer text has been passed to the client. */
  reached: Promise<void>;
  /** Settles when the client closed the connection before the stream ended (e.g. Stop). */
  clientClosed: Promise<void>;
  /** Passes on the rest of the stream. */
  release(): void;
}

export interface HoldingProxy {
  /** The gateway base URL to give the app (same path as the target's). */
  url: string;
  /** The next streamed chat answer is held right after its first text, until released. */
  holdNextStream(): HeldStream;
  close(): Promise<void>;
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** True for an SSE event whose first choice carries answer text. */
function carriesText(event: string): boolean {
  for (const line of event.split('\n')) {
    if (!line.startsWith('data:')) continue;
    try {
      const chunk = JSON.parse(line.slice('data:'.length)) as {
        choices?: { delta?: { content?: unknown } }[];
      };
      const content = chunk.choices?.[0]?.delta?.content;
      if (typeof content === 'string' && content.length > 0) return true;
    } catch {
      // [DONE] or a comment
    }
  }
  return false;
}

/**
 * A pass-through HTTP proxy in front of the emulator that can hold one streamed answer mid-way:
 * a test sees a partial answer for as long as it needs, whatever the machine's speed, instead of
 * racing a timed stream.
 */
export async function startHoldingProxy(target: string): Promise<HoldingProxy> {
  const targetURL = new URL(target);
  let armed:
    | (HeldStream & { markReached(): void; markClosed(): void; released: Promise<void> })
    | undefined;

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const upstream = forward(
      {
        host: targetURL.hostname,
        port: targetURL.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: targetURL.host },
      },
      (answer) => {
        const streaming = String(answer.headers['content-type'] ?? '').includes(
          'text/event-stream',
        );
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        const hold = streaming ? armed : undefined;
        if (!hold) {
          answer.pipe(res);
          return;
        }
        armed = undefined;
        res.on('close', () => {
          if (!res.writableFinished) {
            hold.markClosed();
            upstream.destroy();
          }
        });
        let pending = '';
        let holding = false;
        const held: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => {
          if (holding) {
            held.push(chunk);
            return;
          }
          pending += chunk.toString('utf8');
          let end = pending.indexOf('\n\n');
          while (end !== -1 && !holding) {
            const event = pending.slice(0, end + 2);
            pending = pending.slice(end + 2);
            res.write(event);
            if (carriesText(event)) holding = true;
            end = pending.indexOf('\n\n');
          }
          if (holding) {
            held.push(Buffer.from(pending, 'utf8'));
            pending = '';
            hold.markReached();
          }
        });
        answer.on('end', () => {
          void hold.released.then(() => {
            if (res.destroyed) return;
            for (const chunk of held) res.write(chunk);
            res.end(pending);
          });
        });
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}${targetURL.pathname}`,
    holdNextStream() {
      const reached = deferred();
      const closed = deferred();
      const released = deferred();
      armed = {
        reached: reached.promise,
        clientClosed: closed.promise,
        release: released.resolve,
        released: released.promise,
        markReached: reached.resolve,
        markClosed: closed.resolve,
      };
      return armed;
    },
    async close() {
      armed?.release();
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

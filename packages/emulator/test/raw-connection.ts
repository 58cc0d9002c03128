import { connect, type Socket } from 'node:net';

/**
 * One keep-alive TCP connection to a server, written byte by byte as a test wants (a request's
 * headers now, its body later) and read as raw text: what fetch or `http.request` cannot do.
 */
export interface RawConnection {
  write(text: string): void;
  /** Resolves with everything received so far once `done` holds, or rejects if the connection closes first. */
  until(done: (received: string) => boolean): Promise<string>;
  /** Forgets what was received (before the next request's answer). */
  clear(): void;
  readonly closed: boolean;
  destroy(): void;
}

export async function openRawConnection(baseUrl: string): Promise<RawConnection> {
  const { hostname, port } = new URL(baseUrl);
  const socket: Socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let received = '';
  let closed = false;
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const waiter of [...waiters]) waiter();
  };
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
    wake();
  });
  socket.on('error', () => undefined);
  socket.on('close', () => {
    closed = true;
    wake();
  });
  return {
    write: (text) => {
      socket.write(text);
    },
    until: (done) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (done(received)) {
            waiters.delete(check);
            resolve(received);
          } else if (closed) {
            waiters.delete(check);
            reject(new Error(`The server closed the connection; received:\n${received}`));
          }
        };
        waiters.add(check);
        check();
      }),
    clear: () => {
      received = '';
    },
    get closed() {
      return closed;
    },
    destroy: () => socket.destroy(),
  };
}

/** The head of an HTTP/1.1 request with a JSON body of `bodyLength` bytes (keep-alive by default). */
export function postHead(path: string, bodyLength: number, headers: Record<string, string>) {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `POST ${path} HTTP/1.1\r\nHost: emulator\r\ncontent-type: application/json\r\ncontent-length: ${bodyLength}\r\n${lines.join('')}\r\n`;
}

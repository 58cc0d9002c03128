import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP path of the test's own to a Redis port, for one process: `cut()` drops its connections and
 * refuses new ones (that process alone loses Redis, its pub/sub with it), `mend()` lets it through
 * again on the same port.
 */
export interface CutPath {
  url: string;
  cut(): Promise<void>;
  mend(): Promise<void>;
  close(): Promise<void>;
}

export async function pathTo(redisPort: number): Promise<CutPath> {
  const sockets = new Set<Socket>();
  const listen = async (port: number): Promise<Server> => {
    const server = createServer((client) => {
      const upstream = connect(redisPort, '127.0.0.1');
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('error', () => {});
        socket.on('close', () => {
          sockets.delete(socket);
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    return server;
  };
  let server: Server | undefined = await listen(0);
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const port = address.port;
  const cut = async () => {
    const closing = server;
    server = undefined;
    for (const socket of sockets) socket.destroy();
    if (closing) await new Promise((resolve) => closing.close(resolve));
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    cut,
    async mend() {
      server ??= await listen(port);
    },
    close: cut,
  };
}

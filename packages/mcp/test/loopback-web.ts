/**
 * A test's own web server on the loopback interface (a free port, no outside network): the only
 * server the download tests reach.
 */
import { createServer, type Server } from 'node:http';

/** `web` listening on a free port of 127.0.0.1: the port. */
export async function listenOnLoopback(web: Server): Promise<number> {
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  return (web.address() as { port: number }).port;
}

/** `web` closed, its open connections dropped (keep-alive ones would hold it open). */
export function closeLoopback(web: Server): void {
  web.closeAllConnections();
  web.close();
}

/** A loopback port nothing listens on (a server's, closed): a connection to it is refused. */
export async function closedLoopbackPort(): Promise<number> {
  const server = createServer();
  const port = await listenOnLoopback(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

import { isIP, connect as plainConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

/**
 * Which scheme the server at a URL's host and port speaks, asked once when a connection that never
 * worked fails. Node's errors cannot tell: a `redis://` URL on a TLS port shows as a reset
 * connection, a `rediss://` URL on a plain port as a timeout (Redis waits for the end of a line in
 * the TLS greeting). So the server is asked directly, without credentials and without the URL's
 * user: a TLS handshake (nothing sent over it), or an inline `PING`, whose answer (`+PONG`,
 * `-NOAUTH …`) only a Redis speaking plain RESP gives.
 *
 * Resolves with the advice when the scheme does not match, else undefined (also when the server
 * does not answer within `timeoutMs`).
 */
export async function schemeMismatch(url: string, timeoutMs: number): Promise<string | undefined> {
  const { protocol, hostname, port } = new URL(url);
  const host = hostname.replace(/^\[(.*)\]$/, '$1'); // an IPv6 address, without its brackets
  const at = { host, port: Number(port || 6379) };
  if (protocol === 'redis:' && (await speaksTls(at, timeoutMs))) {
    return 'the server at this host and port speaks TLS: use a rediss:// URL';
  }
  if (protocol === 'rediss:' && (await speaksPlainRedis(at, timeoutMs))) {
    return 'the server at this host and port speaks plain Redis, not TLS: use a redis:// URL (or its TLS port)';
  }
  return undefined;
}

interface Address {
  host: string;
  port: number;
}

/** Settles once: with `answer`, or false past `timeoutMs`; the socket is destroyed either way. */
function ask(
  socket: Socket,
  timeoutMs: number,
  listen: (settle: (answer: boolean) => void) => void,
): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => settle(false), timeoutMs);
    function settle(answer: boolean) {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    }
    socket.once('error', () => settle(false));
    socket.once('close', () => settle(false));
    listen(settle);
  });
}

/** A TLS handshake completes (the certificate is not judged here: only the protocol is asked). */
function speaksTls({ host, port }: Address, timeoutMs: number): Promise<boolean> {
  const socket = tlsConnect({
    host,
    port,
    rejectUnauthorized: false,
    ...(isIP(host) === 0 ? { servername: host } : {}),
  });
  return ask(socket, timeoutMs, (settle) => socket.once('secureConnect', () => settle(true)));
}

/** An inline PING is answered with a RESP simple string or error. */
function speaksPlainRedis({ host, port }: Address, timeoutMs: number): Promise<boolean> {
  const socket = plainConnect({ host, port });
  return ask(socket, timeoutMs, (settle) => {
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (chunk: Buffer) => settle(chunk[0] === 0x2b || chunk[0] === 0x2d)); // + or -
  });
}

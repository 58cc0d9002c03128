/**
 * A closed budget lets the process exit, whatever state its connections were in: a TLS setting of
 * the right type that fails at every connection attempt (a servername the certificate does not
 * name), an outage (reconnecting in the background), or a first connection attempt still under way when `close()` was called. Before, an attempt
 * under way at the close ended connected (node-redis had no socket to destroy yet) and held the
 * process open. Each case runs in a child process that must exit by itself: the test waits for its
 * exit event. Needs the built package (the child loads dist).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { type AddressInfo, createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type TlsRedis, tlsRedis } from './tls-certificates';

const child = fileURLToPath(new URL('./close-exits-child.mjs', import.meta.url));
/** A hang guard only (a child that does not exit fails here): cold Node starts on a loaded box. */
const CHILD_TEST_TIMEOUT_MS = 90_000;

let server: TlsRedis;
const children: ChildProcess[] = [];
beforeAll(async () => {
  server = await tlsRedis();
});
afterAll(async () => {
  // (A child that failed its test by not exiting is not left running.)
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill();
  await server?.stop();
});

/** A loopback port nothing listens on (taken, then given back). */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

async function runChild(
  env: Record<string, string>,
): Promise<{ code: number | null; out: string }> {
  const process_ = spawn(process.execPath, [child], {
    env: {
      ...process.env,
      REDIS_URL: server.redis.url,
      CA_FILE: server.certificates.caFile,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(process_);
  let out = '';
  process_.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const [code] = (await once(process_, 'exit')) as [number | null];
  return { code, out: out.trim() };
}

// Each case: the child's settings (one needs a port taken at run time), and how its `ready()` ended
// where the case fixes it (closed while connecting, it may end either way).
it.each([
  [
    'a servername the certificate does not name: ready() refused, and after close() the process exits',
    async () => ({ SERVERNAME: 'not-this-host.invalid', WHEN: 'after-ready' }),
    'configuration_error',
  ],
  [
    'closed during an outage (nothing listens: reconnecting in the background): the process exits',
    async () => ({
      REDIS_URL: `rediss://127.0.0.1:${await freePort()}`,
      // (ready() waits through the outage for one command timeout: kept short.)
      COMMAND_TIMEOUT_MS: '1000',
      WHEN: 'after-ready',
    }),
    'network_error',
  ],
  [
    'closed while its first connection attempt is under way: the process exits',
    async () => ({ WHEN: 'connecting' }),
    undefined,
  ],
] as const)(
  '%s',
  async (_, env: () => Promise<Record<string, string>>, readyEnded) => {
    const { code, out } = await runChild(await env());
    if (readyEnded !== undefined) expect(out).toBe(readyEnded);
    expect(code).toBe(0);
  },
  CHILD_TEST_TIMEOUT_MS,
);

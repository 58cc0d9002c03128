import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realNow, realSetTimeout } from './real-clock';

// Node only: a child process and a port. `redis-server` (Debian's `redis-server` package) must be on PATH.

/** A throwaway redis-server on a free loopback port, without persistence. */
export interface TestRedis {
  /** `redis://127.0.0.1:<port>`, or `rediss://…` when started with TLS. */
  url: string;
  port: number;
  stop(): Promise<void>;
  /** SIGSTOP: the server keeps its connections but answers nothing until `resume`. */
  freeze(): void;
  /** SIGCONT: the server runs the commands it received meanwhile, in order. */
  resume(): void;
  /** Kills the server and starts an empty one on the same port (a restart without persistence). */
  restart(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** The server's certificate and key and the CA that signed it (files), for a TLS-only server. */
export interface ServerTls {
  certFile: string;
  keyFile: string;
  caFile: string;
}

/**
 * The RDB file a server may write: a replica's full sync writes one even without `save`. In the
 * temporary folder, never the working directory (a package folder under test), and one name per
 * server started, removed when it stops: a restarted or later server on the port starts empty.
 */
const rdbFile = () => `infergate-test-${randomUUID()}.rdb`;
const removeRdb = (file: string) => rmSync(join(tmpdir(), file), { force: true });

function serverArgs(port: number, tls: ServerTls | undefined, rdb: string): string[] {
  const files = ['--dir', tmpdir(), '--dbfilename', rdb];
  const common = ['--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...files];
  if (!tls) return ['--port', String(port), ...common];
  // TLS only (no plain port), clients not asked for a certificate: as managed Redis services are.
  return [
    ...['--port', '0', '--tls-port', String(port), ...common],
    ...['--tls-cert-file', tls.certFile, '--tls-key-file', tls.keyFile],
    ...['--tls-ca-cert-file', tls.caFile, '--tls-auth-clients', 'no'],
  ];
}

/** Why a redis-server did not start, with what it printed; `portTaken` when its port was in use. */
class RedisStartError extends Error {
  constructor(
    code: number | null,
    readonly output: string,
  ) {
    super(`redis-server exited with ${code}: ${output.trim().split('\n').slice(-3).join(' | ')}`);
  }
  get portTaken(): boolean {
    return this.output.includes('Address already in use');
  }
}

function spawnServer(port: number, tls?: ServerTls): Promise<ChildProcess> {
  const rdb = rdbFile();
  const child: ChildProcess = spawn('redis-server', serverArgs(port, tls, rdb), {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.once('exit', () => removeRdb(rdb));
  return new Promise<ChildProcess>((resolve, reject) => {
    let seen = '';
    child.once('error', reject);
    child.once('exit', (code) => reject(new RedisStartError(code, seen)));
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes('Ready to accept connections')) {
        child.stdout?.removeAllListeners('data');
        child.stdout?.resume();
        resolve(child);
      }
    });
  });
}

/**
 * A server on a free port of our choosing. Another process can take that port between our probe
 * and redis-server's bind (loopback clients use the same range); then we pick again.
 */
async function spawnOnFreePort(tls?: ServerTls): Promise<{ child: ChildProcess; port: number }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      return { child: await spawnServer(port, tls), port };
    } catch (error) {
      if (!(error instanceof RedisStartError && error.portTaken) || attempt === 5) throw error;
    }
  }
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGCONT');
  child.kill('SIGKILL');
  await exited;
}

/**
 * Starts `redis-server` on `port` (a free loopback port by default), TLS-only with `tls`; resolves
 * once it accepts connections. `stop()` it after the tests.
 */
export async function startRedis(port?: number, tls?: ServerTls): Promise<TestRedis> {
  const started =
    port === undefined ? await spawnOnFreePort(tls) : { child: await spawnServer(port, tls), port };
  const chosen = started.port;
  let child = started.child;
  return {
    url: `${tls ? 'rediss' : 'redis'}://127.0.0.1:${chosen}`,
    port: chosen,
    stop: () => kill(child),
    freeze: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
    async restart() {
      await kill(child);
      child = await spawnServer(chosen, tls);
    },
  };
}

/**
 * Resolves once `check` holds: asked now, then every 10 ms, for what sends no event (a Redis key,
 * a budget's stats; the emulator's own state is waited on by `until` from
 * `@infergate/emulator/testing`). Rejects naming `what` after `timeoutMs` (default 30 s): a safety
 * net, never the assertion.
 */
export async function pollUntil(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 30_000,
): Promise<void> {
  // On the real clock, as `until`'s safety net: a test that fakes timers never stops it.
  const end = realNow() + timeoutMs;
  while (!(await check())) {
    if (realNow() > end)
      throw new Error(`pollUntil: still waiting for ${what} after ${timeoutMs} ms`);
    await new Promise((resolve) => realSetTimeout(resolve, 10));
  }
}

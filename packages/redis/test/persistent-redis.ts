import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A redis-server whose `SAVE` writes a snapshot that `restart()` loads (a new server life, the
 *  state of the snapshot): an RDB restore. */
export interface PersistentRedis {
  url: string;
  port: number;
  restart(): Promise<void>;
  stop(): Promise<void>;
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

function spawnServer(port: number, rdb: string): Promise<ChildProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  const child = spawn('redis-server', [...args, '--dir', tmpdir(), '--dbfilename', rdb], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return new Promise((resolve, reject) => {
    let seen = '';
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${seen}`)));
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

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

export async function startPersistentRedis(): Promise<PersistentRedis> {
  const rdb = `infergate-test-${randomUUID()}.rdb`;
  const port = await freePort();
  let child = await spawnServer(port, rdb);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async restart() {
      await kill(child);
      child = await spawnServer(port, rdb);
    },
    async stop() {
      await kill(child);
      rmSync(join(tmpdir(), rdb), { force: true });
    },
  };
}

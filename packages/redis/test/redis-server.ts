import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

/** A throwaway redis-server on a free loopback port, without persistence. */
export interface TestRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
  /** SIGSTOP: the server keeps its connections but answers nothing until `resume`. */
  pause(): void;
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

function spawnServer(port: number): Promise<ChildProcess> {
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise<ChildProcess>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}`)));
    let seen = '';
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
  child.kill('SIGCONT');
  child.kill('SIGKILL');
  await exited;
}

export async function startRedis(port?: number): Promise<TestRedis> {
  const chosen = port ?? (await freePort());
  let child = await spawnServer(chosen);
  return {
    url: `redis://127.0.0.1:${chosen}`,
    port: chosen,
    stop: () => kill(child),
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
    async restart() {
      await kill(child);
      child = await spawnServer(chosen);
    },
  };
}

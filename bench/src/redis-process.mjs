/**
 * A throwaway `redis-server` for the Redis benchmarks (B7, B8, B8s): a free loopback port, no
 * persistence, plus an admin connection for the counters (INFO) and for watching the leases.
 * Needs Debian's `redis-server` on PATH (`bash scripts/ensure-redis.sh`).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { createClient } from 'redis';

async function freePort() {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address();
  probe.close();
  return port;
}

/** Starts the server: `{ url, port, admin, commandCounts(), stop() }`. */
export async function startRedisServer() {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  child.once('error', (error) => {
    throw new Error(
      `redis-server could not start (bash scripts/ensure-redis.sh): ${error.message}`,
    );
  });
  let seen = '';
  for await (const chunk of child.stdout) {
    seen += chunk;
    if (seen.includes('Ready to accept connections')) break;
  }
  child.stdout.resume();
  const url = `redis://127.0.0.1:${port}`;
  const admin = createClient({ url });
  admin.on('error', () => {});
  await admin.connect();
  return {
    url,
    port,
    admin,
    /**
     * What the server has run so far (`INFO commandstats`): `roundTrips`, the commands clients
     * sent that a budget sends (`EVAL`, `SUBSCRIBE`, `UNSUBSCRIBE`), and `all`, every command
     * including those the scripts ran.
     */
    async commandCounts() {
      const commandstats = await admin.info('commandstats');
      let roundTrips = 0;
      let all = 0;
      for (const [, name, calls] of commandstats.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
        all += Number(calls);
        if (['eval', 'evalsha', 'subscribe', 'unsubscribe'].includes(name))
          roundTrips += Number(calls);
      }
      return { roundTrips, all };
    },
    async stop() {
      await admin.close().catch(() => {});
      child.kill('SIGKILL');
    },
  };
}

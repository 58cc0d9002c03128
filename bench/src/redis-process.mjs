/**
 * A throwaway `redis-server` for the Redis benchmarks (B7, B8, B8s): a free loopback port, no
 * persistence, plus an admin connection for the counters (INFO) and for watching the leases.
 * Needs Debian's `redis-server` on PATH (`bash scripts/ensure-redis.sh`).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRedis } from '@infergate/emulator/testing/redis';
import { createClient } from 'redis';
import { unmeasuredTarget } from './results.mjs';

/** Whether `redis-server` is on PATH (B7, B8 and B8s need it: bash scripts/ensure-redis.sh). */
export function hasRedisServer() {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A suite's result when `redis-server` is missing: no table, its targets "not measured". */
export function withoutRedis(suite) {
  return {
    sections: [],
    targets: [
      unmeasuredTarget(
        `${suite}.redis-server`,
        `${suite} needs redis-server`,
        'not measured: no redis-server (bash scripts/ensure-redis.sh)',
      ),
    ],
    data: {},
  };
}

/**
 * A throwaway CA and a certificate it signed for 127.0.0.1 (the `openssl` CLI), for a TLS-only
 * server: `{ certFile, keyFile, caFile, remove() }` (remove deletes them once the server stopped).
 */
export function makeCertificates() {
  const dir = mkdtempSync(join(tmpdir(), 'infergate-bench-tls-'));
  const run = (args) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'];
  run(['req', '-x509', ...ec, '-subj', '/CN=bench CA', '-keyout', 'ca.key', '-out', 'ca.crt']);
  run([
    'req',
    ...ec.slice(0, -2),
    '-subj',
    '/CN=localhost',
    '-keyout',
    'server.key',
    '-out',
    'server.csr',
  ]);
  writeFileSync(join(dir, 'san.cnf'), 'subjectAltName=IP:127.0.0.1\n');
  run([
    ...['x509', '-req', '-in', 'server.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key'],
    ...['-CAcreateserial', '-out', 'server.crt', '-days', '1', '-extfile', 'san.cnf'],
  ]);
  return {
    certFile: join(dir, 'server.crt'),
    keyFile: join(dir, 'server.key'),
    caFile: join(dir, 'ca.crt'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * Starts the server: `{ url, port, admin, commandCounts(), stop() }`; TLS only (`rediss://`) when
 * given `tls` (from `makeCertificates`).
 */
export async function startRedisServer({ tls } = {}) {
  // The test kit's server: it picks another port when its first is taken before it binds.
  const server = await startRedis(undefined, tls).catch((error) => {
    throw new Error(
      `redis-server could not start (bash scripts/ensure-redis.sh): ${error.message}`,
    );
  });
  const { url, port } = server;
  const ca = tls ? readFileSync(tls.caFile, 'utf8') : undefined;
  const admin = createClient({ url, ...(tls ? { socket: { tls: true, ca } } : {}) });
  admin.on('error', () => {});
  await admin.connect();
  return {
    url,
    port,
    admin,
    /** The CA certificate (PEM) a client of a TLS server passes as `tls.ca`. */
    ca,
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
      await server.stop();
    },
  };
}

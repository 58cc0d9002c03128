// Starts the emulator (one key, cap 4, 50 ms latency) and, unless REDIS_URL is set, a throwaway
// redis-server; then 3 worker processes × 10 concurrent calls share the key through Redis. It
// exits 1 with one line when a worker fails or the gateway saw more than it should have.
import { fork, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { startEmulator } from '@infergate/emulator';

const WORKERS = 3;
const CALLS = 10;
/** The emulator's default cap per key: what the shared budget must keep to. */
const KEY_CAP = 4;

/** A failure this example explains in one line (no stack trace). */
class Failure extends Error {}

/** Attempts at starting redis-server, each on another free port. */
const REDIS_START_ATTEMPTS = 5;

/** redis-server could not bind its port: another process took it first. */
class PortTaken extends Failure {}

/**
 * A loopback port the OS had free a moment ago. redis-server cannot be asked for one (its
 * `--port 0` turns TCP off), so the port is taken here, read, and let go.
 */
async function freePort() {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address();
  probe.close();
  await once(probe, 'close');
  return port;
}

async function localRedis() {
  for (let attempt = 1; ; attempt++) {
    try {
      return await redisServer(await freePort());
    } catch (error) {
      // Another process bound the port between our probe and redis-server's start: take another.
      if (!(error instanceof PortTaken) || attempt === REDIS_START_ATTEMPTS) throw error;
    }
  }
}

async function redisServer(port) {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  // Without a listener, a missing redis-server is an unhandled 'error' event and a stack trace.
  const spawnFailed = once(child, 'error').then(([error]) => {
    throw error.code === 'ENOENT'
      ? new Failure(
          'redis-server is not on PATH: install it (bash scripts/ensure-redis.sh in a clone of the repository, or Debian’s redis-server package), or set REDIS_URL',
        )
      : error;
  });
  const ready = (async () => {
    let seen = '';
    for await (const chunk of child.stdout) {
      seen += chunk;
      if (seen.includes('Ready to accept connections')) return;
    }
    const Why = seen.includes('Address already in use') ? PortTaken : Failure;
    throw new Why(`redis-server exited before it was ready:\n${seen.trim()}`);
  })();
  await Promise.race([ready, spawnFailed]);
  child.stdout.resume();
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill() };
}

/** Runs the workers; resolves to the names of those that did not exit 0. */
async function runWorkers(env) {
  const workers = Array.from({ length: WORKERS }, (_, i) =>
    fork(new URL('./worker.mjs', import.meta.url), [String(i + 1)], { env }),
  );
  const exits = await Promise.all(workers.map((worker) => once(worker, 'exit')));
  return exits
    .map(([code, signal], i) => (code === 0 ? undefined : `worker ${i + 1} (${signal ?? code})`))
    .filter((name) => name !== undefined);
}

async function main() {
  const redis = process.env.REDIS_URL
    ? { url: process.env.REDIS_URL, stop() {} }
    : await localRedis();
  // (Inside the try: a failed start still stops redis-server, which would keep this process up.)
  let gateway;
  try {
    gateway = await startEmulator({ port: 0, scenario: { latencyMs: 50 } });
    const failed = await runWorkers({
      ...process.env,
      BASE_URL: gateway.url,
      API_KEY: gateway.apiKey,
      REDIS_URL: redis.url,
      CALLS: String(CALLS),
    });
    if (failed.length > 0) throw new Failure(`${failed.join(', ')} failed: see above`);
    const { counters } = gateway.emulator;
    const chat = counters.requests.chat;
    const maxInflight = counters.maxInflight[gateway.apiKey] ?? 0;
    const rejections = counters.concurrencyRejections;
    console.log(
      `${chat} chat calls from ${WORKERS} processes; max in flight on the key: ${maxInflight}; gateway 429s: ${rejections}`,
    );
    // The README's claim: the shared budget keeps the key within its cap, so nothing is refused
    // (a 429 is retried, so every call still answers, but it costs a request).
    if (rejections > 0 || maxInflight > KEY_CAP || chat !== WORKERS * CALLS) {
      throw new Failure(
        `the gateway saw more than the README says: expected ${WORKERS * CALLS} chat calls, at most ${KEY_CAP} in flight and 0 429s`,
      );
    }
  } finally {
    await gateway?.close();
    redis.stop();
  }
}

try {
  await main();
} catch (error) {
  process.exitCode = 1;
  console.error(`multi-process: ${error instanceof Failure ? error.message : error.stack}`);
}

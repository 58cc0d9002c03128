// Starts the emulator (one key, cap 4, 50 ms latency) and, unless REDIS_URL is set, a throwaway
// redis-server; then 3 worker processes × 10 concurrent calls share the key through Redis. It
// exits 1 with one line when a worker fails or the gateway saw more than it should have.
import { fork, spawn } from 'node:child_process';
import { once } from 'node:events';
import { startEmulator } from '@infergate/emulator';

const WORKERS = 3;
const CALLS = 10;
/** The emulator's default cap per key: what the shared budget must keep to. */
const KEY_CAP = 4;

/** A failure this example explains in one line (no stack trace). */
class Failure extends Error {}

async function localRedis() {
  const port = 6390 + Math.floor(Math.random() * 500);
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
    throw new Failure(`redis-server exited before it was ready:\n${seen.trim()}`);
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
  const gateway = await startEmulator({ port: 0, scenario: { latencyMs: 50 } });
  try {
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
    await gateway.close();
    redis.stop();
  }
}

try {
  await main();
} catch (error) {
  process.exitCode = 1;
  console.error(`multi-process: ${error instanceof Failure ? error.message : error.stack}`);
}

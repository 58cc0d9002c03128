// Starts the emulator (one key, cap 4, 50 ms latency) and, unless REDIS_URL is set, a throwaway
// redis-server; then 3 worker processes × 10 concurrent calls share the key through Redis.
import { fork, spawn } from 'node:child_process';
import { once } from 'node:events';
import { startEmulator } from '@infergate/emulator';

const WORKERS = 3;
const CALLS = 10;

async function localRedis() {
  const port = 6390 + Math.floor(Math.random() * 500);
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let seen = '';
  for await (const chunk of child.stdout) {
    seen += chunk;
    if (seen.includes('Ready to accept connections')) break;
  }
  child.stdout.resume();
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill() };
}

const redis = process.env.REDIS_URL
  ? { url: process.env.REDIS_URL, stop() {} }
  : await localRedis();
const gateway = await startEmulator({ port: 0, scenario: { latencyMs: 50 } });
try {
  const env = {
    ...process.env,
    BASE_URL: gateway.url,
    API_KEY: gateway.apiKey,
    REDIS_URL: redis.url,
    CALLS: String(CALLS),
  };
  const workers = Array.from({ length: WORKERS }, (_, i) =>
    fork(new URL('./worker.mjs', import.meta.url), [String(i + 1)], { env }),
  );
  await Promise.all(workers.map((w) => once(w, 'exit')));
  const { counters } = gateway.emulator;
  console.log(
    `${counters.requests.chat} chat calls from ${WORKERS} processes; max in flight on the key: ${counters.maxInflight[gateway.apiKey]}; gateway 429s: ${counters.concurrencyRejections}`,
  );
} finally {
  await gateway.close();
  redis.stop();
}

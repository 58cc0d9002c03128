// One process of B7: CALLERS loops share REQUESTS chat calls on one key, with the in-process budget
// or a Redis budget (REDIS_URL set). Warms up, prints "ready", starts on a line on stdin, prints a
// JSON summary.
import { createGatewayClient } from '@infergate/core';
import { createRedisBudget } from '@infergate/redis';
import { CHAT_MODEL } from './canned-gateway.mjs';

const { BASE_URL, API_KEY, REDIS_URL, CALLERS, REQUESTS } = process.env;
const budget = REDIS_URL ? createRedisBudget({ url: REDIS_URL }) : undefined;
const client = createGatewayClient({
  baseURL: BASE_URL,
  apiKey: API_KEY,
  ...(budget ? { budget } : {}),
});
const call = (p) => client.chat({ model: CHAT_MODEL, messages: [{ role: 'user', content: p }] });
await call('warm up');
const tripsBefore = budget?.stats.roundTrips ?? 0;
process.stdout.write('ready\n');
process.stdin.once('data', async () => {
  let next = 0;
  let failures = 0;
  /** Each call's time from asking to answer: queue wait (budget) + the gateway's latency. */
  const callMs = [];
  await Promise.all(
    Array.from({ length: Number(CALLERS) }, async () => {
      while (next < Number(REQUESTS)) {
        const i = next++;
        const began = performance.now();
        await call(`request ${i}`).catch(() => failures++);
        callMs.push(performance.now() - began);
      }
    }),
  );
  const roundTrips = (budget?.stats.roundTrips ?? 0) - tripsBefore;
  callMs.sort((a, b) => a - b);
  const meanMs = callMs.reduce((sum, ms) => sum + ms, 0) / Math.max(1, callMs.length);
  const p95Ms = callMs[Math.floor(callMs.length * 0.95)] ?? 0;
  process.stdout.write(`${JSON.stringify({ failures, roundTrips, meanMs, p95Ms })}\n`);
  await budget?.close();
  process.exit(0);
});

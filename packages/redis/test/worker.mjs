// One worker process of the multi-process tests: CALLERS concurrent chat calls on one key, through
// a Redis budget. Prints one JSON line with its results. With HOLD=1 it starts one call and waits
// to be killed mid-request (the emulator's latency keeps the request in flight). Otherwise it
// prints `ready`, then waits for a line on stdin so that every worker starts its calls together.
import { createGatewayClient } from '@infergate/core';
import { createRedisBudget } from '../dist/index.js';

const { BASE_URL, API_KEY, REDIS_URL, CALLERS = '1', HOLD, TTL_MS = '120000' } = process.env;
// Generous margins: the test asserts that no call fell back (Redis counted as down) and that no more
// than 4 calls were in flight (a lease expired mid-call would free a fifth slot), so a worker
// starved for seconds on a loaded machine (at its first connect, or mid-call) must stay within both.
const budget = createRedisBudget({
  url: REDIS_URL,
  leaseTtlMs: Number(TTL_MS),
  commandTimeoutMs: 60_000,
});
const client = createGatewayClient({ baseURL: BASE_URL, apiKey: API_KEY, budget, maxRetries: 0 });
const call = async (i) => {
  const started = performance.now();
  try {
    await client.chat({
      model: 'community/general',
      messages: [{ role: 'user', content: `n${i}` }],
    });
    return { ok: true, ms: performance.now() - started };
  } catch (error) {
    return { ok: false, code: error?.code ?? String(error), ms: performance.now() - started };
  }
};
if (HOLD) {
  call(0);
  process.stdout.write('holding\n');
} else {
  process.stdout.write('ready\n');
  await new Promise((resolve) => process.stdin.once('data', resolve));
  const results = await Promise.all(Array.from({ length: Number(CALLERS) }, (_, i) => call(i)));
  process.stdout.write(`${JSON.stringify({ results, stats: budget.stats })}\n`);
  await budget.close();
}

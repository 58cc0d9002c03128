// One short-lived process of B8s (a serverless instance). Env: BASE_URL, API_KEY, REDIS_URL (else
// the in-process budget), REDIS_CA (PEM file for rediss://), TTL_MS, CALLS, MODE:
//   close — makes its calls, `await budget.close()`, exits;
//   exit  — makes its calls and exits at once, without closing (process.exit);
//   kill  — prints "holding" once its last call holds its lease, and waits to be SIGKILLed;
//   cold  — only the cold start: creates the budget, takes one lease (no call), gives it back.
// Prints one JSON line: { firstLeaseMs (budget created → first lease granted), ok, failed }.
import { readFileSync } from 'node:fs';
import { createGatewayClient, createInProcessBudget } from '@infergate/core';
import { createRedisBudget } from '@infergate/redis';
import { CHAT_MODEL } from './canned-gateway.mjs';

const { BASE_URL, API_KEY, REDIS_URL, REDIS_CA, TTL_MS, CALLS, MODE } = process.env;
const calls = Number(CALLS ?? 1);

const started = performance.now();
const budget = REDIS_URL
  ? createRedisBudget({
      url: REDIS_URL,
      ...(TTL_MS ? { leaseTtlMs: Number(TTL_MS) } : {}),
      ...(REDIS_CA ? { tls: { ca: readFileSync(REDIS_CA, 'utf8') } } : {}),
    })
  : createInProcessBudget();
let firstLeaseMs;
let callIndex = 0;
/** The budget as the client sees it, timing the first lease (connect + first acquire). */
const timed = {
  async acquire(request) {
    const lease = await budget.acquire(request);
    firstLeaseMs ??= performance.now() - started;
    if (MODE === 'kill' && callIndex === calls - 1) process.stdout.write('holding\n');
    return lease;
  },
};

const report = (extra) =>
  process.stdout.write(`${JSON.stringify({ mode: MODE, firstLeaseMs, ...extra })}\n`);

if (MODE === 'cold') {
  const lease = await timed.acquire({
    id: 'cold-start',
    limit: 4,
    signal: new AbortController().signal,
    deadline: Date.now() + 60_000,
  });
  lease.release();
  report({});
  await budget.close?.();
  process.exit(0);
}

const client = createGatewayClient({ baseURL: BASE_URL, apiKey: API_KEY, budget: timed });
let ok = 0;
let failed = 0;
for (callIndex = 0; callIndex < calls; callIndex++) {
  try {
    await client.chat({
      model: CHAT_MODEL,
      messages: [{ role: 'user', content: `call ${callIndex}` }],
    });
    ok += 1;
  } catch {
    failed += 1;
  }
}
report({ ok, failed });
// Killed mid-call, normally; a call that ended first waits for the kill all the same.
if (MODE === 'kill') await new Promise(() => setInterval(() => {}, 60_000));
if (MODE === 'close') await budget.close?.();
process.exit(0);

// One process of B8's fleet: CALLERS loops share REQUESTS chat calls on one key, with the
// in-process budget (no REDIS_URL), one Redis budget for the process, or one Redis budget per
// caller (BUDGET_PER_CALLER=1: every caller waits in Redis itself, the herd case). Connects and
// warms up every client, prints "ready", starts on a line on stdin, prints a JSON summary.
import { createGatewayClient } from '@infergate/core';
import { createRedisBudget } from '@infergate/redis';
import { CHAT_MODEL } from './canned-gateway.mjs';

const { BASE_URL, API_KEY, REDIS_URL, CALLERS, REQUESTS, BUDGET_PER_CALLER } = process.env;
const callers = Number(CALLERS);
const budgetCount = REDIS_URL ? (BUDGET_PER_CALLER === '1' ? callers : 1) : 0;
const budgets = Array.from({ length: budgetCount }, () => createRedisBudget({ url: REDIS_URL }));
// (A catalog read at the warm-up lasts the run: 10 minutes, not the default minute, which a slow
// warm-up of 800 clients on a loaded machine plus the run can outlast.)
const clients = (budgets.length > 0 ? budgets : [undefined]).map((budget) =>
  createGatewayClient({
    baseURL: BASE_URL,
    apiKey: API_KEY,
    catalogTtlMs: 600_000,
    ...(budget ? { budget } : {}),
  }),
);
const call = (client, p) =>
  client.chat({ model: CHAT_MODEL, messages: [{ role: 'user', content: p }] });

// One after the other: 800 budgets connecting at once on a loaded 2-core machine would measure
// the machine, not the budget (each connects once; the run starts when all are ready).
// (A connection not answered within commandTimeoutMs on a loaded machine is an outage the budget
// ends by itself: ready() is asked again, at most 5 times, so every budget starts on Redis.)
for (const budget of budgets) {
  for (let tries = 1; ; tries++) {
    const error = await budget.ready().then(
      () => undefined,
      (e) => e,
    );
    if (error === undefined) break;
    if (tries === 5) throw error;
  }
}
// Every client warms up, not only the first: a client's first chat call also reads the catalog
// (`GET /models`, once per client and catalogTtlMs, a gateway request that takes a slot of the
// key like a chat call), which the floor and the fleet (one client each) do here too. With only
// the first warmed, the herd's 800 clients made 800 catalog reads during the run: 2,800 gateway
// requests against the floor's 2,000 (bench/HISTORY.md, issue 54).
await call(clients[0], 'warm up');
await Promise.all(clients.slice(1).map((client) => call(client, 'warm up')));
const trips = () => budgets.reduce((n, b) => n + b.stats.roundTrips, 0);
const tripsBefore = trips();
process.stdout.write('ready\n');
process.stdin.once('data', async () => {
  let next = 0;
  let failures = 0;
  /** Each call's time from asking to answer: queue wait (budget) + the gateway's latency. */
  const callMs = [];
  await Promise.all(
    Array.from({ length: callers }, async (_, caller) => {
      const client = clients[caller % clients.length];
      while (next < Number(REQUESTS)) {
        const i = next++;
        const began = performance.now();
        await call(client, `request ${i}`).catch(() => failures++);
        callMs.push(performance.now() - began);
      }
    }),
  );
  callMs.sort((a, b) => a - b);
  const summary = {
    failures,
    calls: callMs.length,
    roundTrips: trips() - tripsBefore,
    fallbackAcquires: budgets.reduce((n, b) => n + b.stats.fallbackAcquires, 0),
    meanMs: callMs.reduce((sum, ms) => sum + ms, 0) / Math.max(1, callMs.length),
    p95Ms: callMs[Math.floor(callMs.length * 0.95)] ?? 0,
  };
  process.stdout.write(`${JSON.stringify(summary)}\n`);
  await Promise.all(budgets.map((b) => b.close()));
  process.exit(0);
});

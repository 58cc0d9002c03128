// One process of stale-handover.test.ts: a Redis budget that, on a line on stdin, takes one lease
// of ID (limit 4), says `granted` when it has it, releases it and prints its stats.
import { createRedisBudget } from '../dist/index.js';

const { REDIS_URL, ID, TTL_MS } = process.env;
const budget = createRedisBudget({
  url: REDIS_URL,
  leaseTtlMs: Number(TTL_MS),
  commandTimeoutMs: 60_000,
});
await budget.ready();
process.stdout.write('ready\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
const signal = new AbortController().signal;
const lease = await budget.acquire({ id: ID, limit: 4, signal, deadline: Date.now() + 600_000 });
process.stdout.write('granted\n');
lease.release();
await budget.close();
process.stdout.write(`${JSON.stringify(budget.stats)}\n`);

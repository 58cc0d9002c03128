// One process of stale-handover.test.ts: a Redis budget that, on a line on stdin, takes one lease
// of ID (limit 4), says `granted` when it has it, releases it and prints its stats.
// Its monotonic clock (`performance.now()`, what the budget times a handover's freshness by) is
// driven by the test: CLOCK_FILE holds the ms the test stepped it by while the process was paused.
// Its polls are MAX_POLL_MS apart at least while near the head of the line (TTL/3 behind it), and
// its command timeout is far longer than any step: no poll nor timeout is due while the test runs.
import { readFileSync } from 'node:fs';
import { createRedisBudget } from '../dist/index.js';

const { REDIS_URL, ID, TTL_MS, CLOCK_FILE, MAX_POLL_MS } = process.env;
const monotonic = performance.now.bind(performance);
performance.now = () => monotonic() + Number(readFileSync(CLOCK_FILE, 'utf8') || 0);
const budget = createRedisBudget({
  url: REDIS_URL,
  leaseTtlMs: Number(TTL_MS),
  commandTimeoutMs: 3_600_000,
  maxPollIntervalMs: Number(MAX_POLL_MS),
});
await budget.ready();
process.stdout.write('ready\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
const signal = new AbortController().signal;
const lease = await budget.acquire({ id: ID, limit: 4, signal, deadline: Date.now() + 3_600_000 });
process.stdout.write('granted\n');
lease.release();
await budget.close();
process.stdout.write(`${JSON.stringify(budget.stats)}\n`);

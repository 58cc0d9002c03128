// A child process of close-lets-process-exit.test.ts: creates a budget on REDIS_URL with the CA in
// CA_FILE (and SERVERNAME, COMMAND_TIMEOUT_MS, if set), then closes it, either once `ready()` settled (WHEN=after-ready)
// or while its first connection attempt is under way (WHEN=connecting). Prints one line (how
// `ready()` ended), then must exit by itself: nothing of the budget may hold the process open.
import { readFileSync } from 'node:fs';
import { createRedisBudget } from '../dist/index.js';

const { REDIS_URL, CA_FILE, SERVERNAME, WHEN, COMMAND_TIMEOUT_MS = '10000' } = process.env;
const tls = { ca: readFileSync(CA_FILE, 'utf8') };
if (SERVERNAME) tls.servername = SERVERNAME;
const budget = createRedisBudget({
  url: REDIS_URL,
  tls,
  commandTimeoutMs: Number(COMMAND_TIMEOUT_MS),
  warn: () => {},
});
const ready = budget.ready().then(
  () => 'ready',
  (error) => String(error.code),
);
if (WHEN === 'after-ready') await ready;
await budget.close();
console.log(await ready);

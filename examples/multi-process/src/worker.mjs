// One worker process: its own gateway client, sharing the key's budget of 4 through Redis.
import { createGatewayClient } from '@infergate/core';
import { createRedisBudget } from '@infergate/redis';

const name = `worker ${process.argv[2]}`;
let budget;
try {
  budget = createRedisBudget({ url: process.env.REDIS_URL });
  const client = createGatewayClient({
    baseURL: process.env.BASE_URL,
    apiKey: process.env.API_KEY,
    budget,
  });
  const answers = await Promise.all(
    Array.from({ length: Number(process.env.CALLS) }, (_, i) =>
      client.chat({
        model: 'community/general',
        messages: [{ role: 'user', content: `${name}, call ${i}` }],
      }),
    ),
  );
  console.log(
    `${name}: ${answers.length} answers, e.g. "${answers[0].response.choices[0]?.message?.content}"`,
  );
} catch (error) {
  // One line (the gateway's code when there is one); the stack with DEBUG=1. main.mjs sees exit 1.
  process.exitCode = 1;
  const code = typeof error?.code === 'string' ? ` [${error.code}]` : '';
  console.error(`${name} failed: ${error?.name ?? 'Error'}${code}: ${error?.message ?? error}`);
  if (process.env.DEBUG) console.error(error);
} finally {
  // Closed on every path, a failed call's too: until then the budget keeps trying to reach Redis,
  // and that keeps the process running.
  await budget?.close();
}
// Answers alone do not show the point: with Redis unreachable, each process runs its calls on a
// budget of its own (the failure policy's fallback), which the other processes do not see; on so
// many calls the gateway then refuses some (429), so a call may fail too.
const fallbackAcquires = budget?.stats.fallbackAcquires ?? 0;
if (fallbackAcquires > 0) {
  process.exitCode = 1;
  console.error(
    `${name} failed: ${fallbackAcquires} of its requests ran on its in-process budget, not shared through Redis (unreachable at REDIS_URL?)`,
  );
}

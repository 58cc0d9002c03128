// One worker process: its own gateway client, sharing the key's budget of 4 through Redis.
import { createGatewayClient } from '@infergate/core';
import { createRedisBudget } from '@infergate/redis';

const name = `worker ${process.argv[2]}`;
const budget = createRedisBudget({ url: process.env.REDIS_URL });
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
await budget.close();

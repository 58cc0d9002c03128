// ESM import of the packed @infergate/redis: clients share one key's budget on a real redis-server.
import assert from 'node:assert/strict';
import { createGatewayClient } from '@infergate/core';
import { startRedis } from '@infergate/emulator/testing/redis';
import { createRedisBudget } from '@infergate/redis';

// The packed test kit's redis-server: it picks another port when its first is taken before it binds.
const server = await startRedis();
const budget = createRedisBudget({ url: server.url, warn: (m) => assert.fail(m) });
try {
  const clients = [createGatewayClient({ budget }), createGatewayClient({ budget })];
  const answers = await Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      clients[i % 2].chat({
        model: 'community/general',
        messages: [{ role: 'user', content: `n${i}` }],
      }),
    ),
  );
  assert.equal(answers.length, 8);
  assert.ok(budget.stats.roundTrips > 0, 'the budget went through Redis');
  assert.equal(budget.stats.fallbackAcquires, 0);
} finally {
  await budget.close();
  await server.stop();
}
console.log('redis (esm): ok');

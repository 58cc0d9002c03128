// ESM import of the packed @infergate/redis: clients share one key's budget on a real redis-server.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { createGatewayClient } from '@infergate/core';
import { createRedisBudget } from '@infergate/redis';

const probe = createServer().listen(0, '127.0.0.1');
await once(probe, 'listening');
const { port } = probe.address();
probe.close();
const server = spawn(
  'redis-server',
  ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
let seen = '';
for await (const chunk of server.stdout) {
  seen += chunk;
  if (seen.includes('Ready to accept connections')) break;
}
server.stdout.resume();
const budget = createRedisBudget({ url: `redis://127.0.0.1:${port}`, warn: (m) => assert.fail(m) });
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
  server.kill('SIGKILL');
}
console.log('redis (esm): ok');

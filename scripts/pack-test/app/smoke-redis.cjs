// CJS require of the packed @infergate/redis: with Redis unreachable, the documented policy holds
// (the 'error' policy fails the call with a typed error; the default falls back and warns once).
const assert = require('node:assert/strict');
const { createGatewayClient, isGatewayError } = require('@infergate/core');
const { createRedisBudget } = require('@infergate/redis');

(async () => {
  const ask = { model: 'community/general', messages: [{ role: 'user', content: 'hi' }] };
  const strict = createRedisBudget({
    url: 'redis://127.0.0.1:1',
    onRedisFailure: 'error',
    commandTimeoutMs: 500,
  });
  const refused = await createGatewayClient({ budget: strict })
    .chat(ask)
    .catch((error) => error);
  assert.ok(isGatewayError(refused), String(refused));
  await strict.close();
  const warnings = [];
  const lenient = createRedisBudget({
    url: 'redis://127.0.0.1:1',
    commandTimeoutMs: 500,
    warn: (m) => warnings.push(m),
  });
  const { response } = await createGatewayClient({ budget: lenient }).chat(ask);
  assert.equal(typeof response.choices[0].message.content, 'string');
  assert.equal(warnings.length, 1);
  await lenient.close();
  console.log('redis (cjs): ok');
})().catch((error) => {
  console.error(error);
  process.exit(1);
});

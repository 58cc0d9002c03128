// ESM import of the packed @infergate/core, one chat call against the emulator.
import assert from 'node:assert/strict';
import { createGatewayClient, isGatewayError } from '@infergate/core';

const gateway = createGatewayClient(); // INFERGATE_BASE_URL, INFERGATE_API_KEY
const { response, servedModel } = await gateway.chat({
  model: 'community/general',
  messages: [{ role: 'user', content: 'Hello from the pack test' }],
});
assert.equal(typeof response.choices[0].message.content, 'string');
assert.ok(servedModel);
const refused = await gateway.model('no/such-model').catch((error) => error);
assert.ok(isGatewayError(refused) && refused.code === 'model_not_found', String(refused));
console.log('core (esm): ok');

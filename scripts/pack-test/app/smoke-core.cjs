// CJS require of the packed @infergate/core, one streamed chat call against the emulator.
const assert = require('node:assert/strict');
const { createGatewayClient } = require('@infergate/core');

(async () => {
  const stream = await createGatewayClient().chatStream({
    model: 'community/general',
    messages: [{ role: 'user', content: 'Hello from the pack test' }],
  });
  const { text, finishReason } = await stream.result();
  assert.ok(text.length > 0 && finishReason, 'streamed answer');
  console.log('core (cjs): ok');
})().catch((error) => {
  console.error(error);
  process.exit(1);
});

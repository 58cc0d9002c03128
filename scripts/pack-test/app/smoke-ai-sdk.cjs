// CJS require of the packed @infergate/ai-sdk (`ai` itself is ESM-only: Node 22 requires it).
const assert = require('node:assert/strict');
const { createGateway } = require('@infergate/ai-sdk');
const { generateText } = require('ai');

(async () => {
  const provider = createGateway();
  const { text } = await generateText({ model: provider('community/general'), prompt: 'Hello' });
  assert.ok(text.length > 0);
  console.log('ai-sdk (cjs): ok');
})().catch((error) => {
  console.error(error);
  process.exit(1);
});

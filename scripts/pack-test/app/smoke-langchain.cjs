// CJS require of the packed @infergate/langchain beside the installed @langchain/core.
const assert = require('node:assert/strict');
const { AIMessage } = require('@langchain/core/messages');
const { GatewayChatModel } = require('@infergate/langchain');

(async () => {
  const answer = await new GatewayChatModel('community/general').invoke('Hello');
  assert.ok(answer instanceof AIMessage, 'an AIMessage of the same @langchain/core');
  assert.ok(String(answer.content).length > 0);
  console.log('langchain (cjs): ok');
})().catch((error) => {
  console.error(error);
  process.exit(1);
});

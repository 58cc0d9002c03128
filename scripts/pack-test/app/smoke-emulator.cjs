// CJS require of the packed @infergate/emulator: a second server from the API, and one from the test kit.
const assert = require('node:assert/strict');
const { startEmulator } = require('@infergate/emulator');
const { emulate } = require('@infergate/emulator/testing');

(async () => {
  const server = await startEmulator({ port: 0 });
  const response = await fetch(`${server.url}/models`, {
    headers: { authorization: `Bearer ${server.apiKey}` },
  });
  assert.equal(response.status, 200);
  await server.close();
  const gateway = await emulate({ as: 'http' });
  const listed = await fetch(`${gateway.baseURL}/models`, {
    headers: { authorization: `Bearer ${gateway.apiKey}` },
  });
  assert.equal(listed.status, 200);
  await gateway.close();
  console.log('emulator (cjs): ok');
})().catch((error) => {
  console.error(error);
  process.exit(1);
});

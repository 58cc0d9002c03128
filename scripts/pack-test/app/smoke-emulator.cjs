// CJS require of the packed @infergate/emulator: a second server from the API.
const assert = require('node:assert/strict');
const { startEmulator } = require('@infergate/emulator');

(async () => {
  const server = await startEmulator({ port: 0 });
  const response = await fetch(`${server.url}/models`, {
    headers: { authorization: `Bearer ${server.apiKey}` },
  });
  assert.equal(response.status, 200);
  await server.close();
  console.log('emulator (cjs): ok');
})().catch((error) => {
  console.error(error);
  process.exit(1);
});

// ESM import of the packed @infergate/emulator, its fixtures and test kit entries (the CLI already runs).
import assert from 'node:assert/strict';
import { createEmulator, DEFAULT_KEYS } from '@infergate/emulator';
import * as fixtures from '@infergate/emulator/fixtures';
import { emulate } from '@infergate/emulator/testing';
import { startRedis } from '@infergate/emulator/testing/redis';

const emulator = createEmulator();
const key = DEFAULT_KEYS.full;
const response = await emulator.fetch(
  new Request('http://emulator.test/v1/models', { headers: { authorization: `Bearer ${key}` } }),
);
assert.equal(response.status, 200);
assert.ok(Object.keys(fixtures).length > 0);
const gateway = await emulate({ as: 'http' });
assert.equal(
  (
    await fetch(`${gateway.baseURL}/models`, {
      headers: { authorization: `Bearer ${gateway.apiKey}` },
    })
  ).status,
  200,
);
await gateway.close();
assert.equal(typeof startRedis, 'function');
console.log('emulator (esm): ok');

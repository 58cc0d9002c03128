// ESM import of the packed @infergate/emulator and its fixtures entry (the CLI already runs).
import assert from 'node:assert/strict';
import { createEmulator, DEFAULT_KEYS } from '@infergate/emulator';
import * as fixtures from '@infergate/emulator/fixtures';

const emulator = createEmulator();
const key = DEFAULT_KEYS.full;
const response = await emulator.fetch(
  new Request('http://emulator.test/v1/models', { headers: { authorization: `Bearer ${key}` } }),
);
assert.equal(response.status, 200);
assert.ok(Object.keys(fixtures).length > 0);
console.log('emulator (esm): ok');

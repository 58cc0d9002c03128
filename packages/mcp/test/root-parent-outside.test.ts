/**
 * mcp README: a path is read only under an allowed root. The root's parent directory is not under
 * it, and a missing file there is answered as outside, like an existing one: an answer saying "does
 * not exist" would tell the client what exists beside the root.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Harness, startHarness, textOf } from './harness';

let harness: Harness;
let client: Client;
beforeAll(async () => {
  harness = await startHarness();
  client = await harness.connect();
});
afterAll(() => harness.close());

it("refuses the root's parent and a missing file in it as outside the allowed roots, sending nothing", async () => {
  for (const path of ['..', '../', '../missing.png', 'photos/../..', '../outside']) {
    const result = await client.callTool({ name: 'ocr', arguments: { image_path: path } });
    expect(result.isError, path).toBe(true);
    expect(textOf(result), path).toContain(`${path} is outside the allowed roots`);
  }
  const audio = await client.callTool({
    name: 'transcribe',
    arguments: { audio_path: '../missing.wav' },
  });
  expect(textOf(audio)).toContain('../missing.wav is outside the allowed roots');
  expect(harness.gateway.emulator.counters.requests.ocr).toBe(0);
  expect(harness.gateway.emulator.counters.requests.transcriptions).toBe(0);
});

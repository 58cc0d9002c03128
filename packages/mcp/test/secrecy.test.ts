/** The gateway's API key never crosses the MCP transport: not in results, errors or notifications. */
import { inspect } from 'node:util';
import { pngWithText, wavWithSpeech } from '@infergate/emulator/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, textOf, wire } from './harness';

const WRONG_KEY = 'ig-wrong-secret-key-9876';
let harness: Harness;
let wrong: Harness;
beforeAll(async () => {
  harness = await startHarness();
  wrong = await startHarness({ server: { clientOptions: { apiKey: WRONG_KEY } } });
});
afterAll(async () => {
  await harness.close();
  await wrong.close();
});

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

describe('the API key', () => {
  it('appears in no message of any tool, resource, progress or error', async () => {
    const client = await harness.connect();
    const progress = { onprogress: () => {} };
    const calls: [string, Record<string, unknown>][] = [
      ['translate', { text: 'hi', target_language: 'de' }],
      ['translate', { text: 'x'.repeat(5000), target_language: 'de' }],
      ['ocr', { image_base64: b64(pngWithText('ok')) }],
      ['ocr', { image_base64: '!!not base64!!' }],
      ['ocr', { image_path: '../../etc/passwd' }],
      ['transcribe', { audio_base64: b64(wavWithSpeech('hello')), translate: true }],
      ['embed', { texts: ['a', 'b'], engine: 'all-minilm-l6-v2' }],
      ['embed', { texts: ['a'], engine: 'no-such-engine' }],
      ['similarity', { query: 'a', texts: ['a', 'b'], engine: 'all-minilm-l6-v2' }],
      ['list_models', {}],
      ['ask_model', { model: 'community/general', prompt: '[[words:100]]' }],
      ['ask_model', { model: 'community/plain', prompt: 'hi', json: true }],
      ['ask_model', { model: 'my/unknown', prompt: 'hi' }],
    ];
    for (const [name, args] of calls)
      await client.callTool({ name, arguments: args }, undefined, progress);
    harness.gateway.emulator.injectFault({ fault: 'upstream_html', endpoint: 'translations' });
    await client.callTool({ name: 'translate', arguments: { text: 'hi', target_language: 'de' } });
    await client.readResource({ uri: 'infergate://models' });
    await client.readResource({ uri: 'infergate://services' });

    const wrongClient = await wrong.connect();
    const refused = await wrongClient.callTool({ name: 'list_models', arguments: {} });
    expect(refused.structuredContent).toMatchObject({ error: { code: 'invalid_api_key' } });
    expect(textOf(refused)).toContain('INFERGATE_API_KEY');
    await expect(wrongClient.readResource({ uri: 'infergate://models' })).rejects.toThrow();

    expect(wire.length).toBeGreaterThan(40);
    for (const secret of [harness.gateway.apiKey, WRONG_KEY]) {
      expect(wire.filter((message) => message.includes(secret))).toEqual([]);
      expect(inspect(harness.mcp, { depth: 5 })).not.toContain(secret);
    }
    expect(inspect(wrong.mcp, { depth: 5 })).not.toContain(WRONG_KEY);
  });
});

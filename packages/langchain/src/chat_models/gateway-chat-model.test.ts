import { inspect } from 'node:util';
import { emulate } from '@infergate/emulator/testing';
import { load } from '@langchain/core/load';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { API_KEY as KEY } from '../../test/helpers';
import { GatewayEmbeddings } from '../embeddings/gateway-embeddings';
import { GatewayTranslator } from '../runnables/gateway-translator';
import { createTranslateTool } from '../tools/gateway-tools';
import { GatewayChatModel } from './gateway-chat-model';

async function connection() {
  return (await emulate({ apiKey: KEY, baseURL: 'https://chat-model-key.test/v1' })).connection;
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('GatewayChatModel keeps the key out of every view', () => {
  it('util.inspect with showHidden shows no key (model, bound model, other classes)', async () => {
    const model = new GatewayChatModel('community/general', await connection());
    await model.invoke('hi'); // after use too
    const objects = [
      model,
      model.bindTools([
        { type: 'function', function: { name: 'f', parameters: { type: 'object' } } },
      ]),
      new GatewayEmbeddings(await connection()),
      new GatewayTranslator({ ...connection(), targetLanguage: 'en' }),
      createTranslateTool(await connection()),
    ];
    for (const object of objects) {
      expect(inspect(object, { showHidden: true, depth: 10 })).not.toContain(KEY);
      expect(JSON.stringify({ ...object })).not.toContain(KEY);
    }
    expect(Object.getOwnPropertyNames(model)).not.toContain('apiKey');
  });

  it('serialises the key as the INFERGATE_API_KEY secret and restores it from the environment', async () => {
    const model = new GatewayChatModel('community/general', await connection());
    expect(inspect(model, { showHidden: true, getters: true, depth: 10 })).not.toContain(KEY);
    const json = JSON.stringify(model.toJSON());
    expect(json).not.toContain(KEY);
    expect(JSON.parse(json).kwargs.api_key ?? JSON.parse(json).kwargs.apiKey).toEqual({
      lc: 1,
      type: 'secret',
      id: ['INFERGATE_API_KEY'],
    });
    vi.stubEnv('INFERGATE_API_KEY', 'sk-from-the-environment');
    const restored = await load<GatewayChatModel>(json, {
      secretsFromEnv: true,
      optionalImportsMap: { 'infergate/chat_models': { GatewayChatModel } },
    });
    expect(restored).toBeInstanceOf(GatewayChatModel);
    expect(restored.model).toBe('community/general');
    // The restored model holds the key again (its own JSON names the secret) without showing it.
    expect(JSON.stringify(restored.toJSON())).toContain('INFERGATE_API_KEY');
    expect(inspect(restored, { showHidden: true, getters: true, depth: 10 })).not.toContain(
      'sk-from-the-environment',
    );
  });
});

describe('a malformed base URL is named where it was set', () => {
  it('INFERGATE_BASE_URL, when it came from the environment; baseURL, when given', async () => {
    vi.stubEnv('INFERGATE_BASE_URL', 'gateway.example/v1');
    vi.stubEnv('INFERGATE_API_KEY', KEY);
    const fromEnv = await new GatewayChatModel('community/general', { maxRetries: 0 })
      .invoke('hi')
      .catch((e: unknown) => e);
    expect((fromEnv as Error).message).toMatch(
      /^INFERGATE_BASE_URL \(environment variable\) is not an absolute URL/,
    );
    const given = await Promise.resolve()
      .then(() =>
        new GatewayChatModel('community/general', { baseURL: 'gateway.example/v1' }).invoke('hi'),
      )
      .catch((e: unknown) => e);
    expect((given as Error).message).toMatch(/^baseURL is not an absolute URL/);
  });
});

import { createEmulator, type Emulator } from '@infergate/emulator';
import { caught } from '@infergate/emulator/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createGatewayClient, isGatewayError } from '../src/index';
import { DEFAULT_KEYS, hi } from './helpers';

// The base URL and the key are read when a call needs them (docs/gateway-protocol.md §2.1, §2.2):
// a client made at module level, before the environment is loaded (dotenv, a test's setup), works
// once it is; a call failing for a setting found nowhere does not break the next ones; options
// given to createGatewayClient win over the environment.

let emulator: Emulator;
/** The origin of each request the emulator was sent. */
let origins: string[];
const fetch: typeof globalThis.fetch = (input, init) => {
  origins.push(new URL(input instanceof Request ? input.url : String(input)).origin);
  return emulator.fetch(input, init);
};

beforeEach(() => {
  emulator = createEmulator();
  origins = [];
  vi.stubEnv('INFERGATE_BASE_URL', '');
  vi.stubEnv('INFERGATE_API_KEY', '');
});

afterEach(() => {
  vi.unstubAllEnvs();
});

const requests = () => Object.values(emulator.counters.requests).reduce((sum, n) => sum + n, 0);

describe('settings read when a call needs them', () => {
  it('a client made before INFERGATE_BASE_URL and INFERGATE_API_KEY are set works once they are', async () => {
    const client = createGatewayClient({ fetch });
    expect(client.baseURL).toBe('');
    const noURL = await caught(() => client.chat(hi()), isGatewayError);
    expect(noURL).toMatchObject({ code: 'configuration_error', field: 'baseURL' });
    expect(noURL.message).toContain('INFERGATE_BASE_URL');
    vi.stubEnv('INFERGATE_BASE_URL', 'https://env-settings.test');
    expect(client.baseURL).toBe('https://env-settings.test/v1');
    const noKey = await caught(() => client.chat(hi()), isGatewayError);
    expect(noKey).toMatchObject({ code: 'configuration_error', field: 'apiKey' });
    expect(noKey.message).toContain('INFERGATE_API_KEY');
    // Nothing was sent for the calls refused for a missing setting.
    expect(requests()).toBe(0);
    vi.stubEnv('INFERGATE_API_KEY', DEFAULT_KEYS.full);
    // The failed calls left nothing behind: the next one works, chat and stream.
    expect((await client.chat(hi())).answer.text).toBe('Echo: hello there');
    expect((await (await client.chatStream(hi())).result()).text).toBe('Echo: hello there');
    expect(origins.every((origin) => origin === 'https://env-settings.test')).toBe(true);
  });

  it('a failed call for a missing setting does not break later calls of any kind', async () => {
    const client = createGatewayClient({ fetch, baseURL: 'https://env-settings-key.test' });
    for (const call of [
      () => client.models(),
      () => client.chat(hi()),
      () => client.translate({ input: 'hello', target_language: 'uk' }),
    ]) {
      expect(await caught(call, isGatewayError)).toMatchObject({
        code: 'configuration_error',
        field: 'apiKey',
      });
    }
    expect(client.budget.isIdle).toBe(true);
    vi.stubEnv('INFERGATE_API_KEY', DEFAULT_KEYS.full);
    expect((await client.models()).length).toBeGreaterThan(0);
    expect((await client.chat(hi())).answer.text).toBe('Echo: hello there');
    expect((await client.translate({ input: 'hello', target_language: 'uk' })).text).toBeTruthy();
  });

  it('explicit options win over the environment', async () => {
    vi.stubEnv('INFERGATE_BASE_URL', 'https://from-env.test');
    vi.stubEnv('INFERGATE_API_KEY', 'sk-from-env-not-a-key');
    const client = createGatewayClient({
      fetch,
      baseURL: 'https://from-options.test',
      apiKey: DEFAULT_KEYS.full,
    });
    // The key from the options: the environment's would be refused (invalid_api_key).
    expect((await client.chat(hi())).answer.text).toBe('Echo: hello there');
    expect(client.baseURL).toBe('https://from-options.test/v1');
    expect(new Set(origins)).toEqual(new Set(['https://from-options.test']));
    // Only one given: the other from the environment.
    const keyOnly = createGatewayClient({ fetch, apiKey: DEFAULT_KEYS.full });
    expect((await keyOnly.chat(hi())).answer.text).toBe('Echo: hello there');
    expect(origins.at(-1)).toBe('https://from-env.test');
    const urlOnly = createGatewayClient({ fetch, baseURL: 'https://from-options.test' });
    expect((await caught(() => urlOnly.chat(hi()), isGatewayError)).code).toBe('invalid_api_key');
  });
});

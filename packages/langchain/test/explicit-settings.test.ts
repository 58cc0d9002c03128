// The connection fields given explicitly are checked when the model is built (core's rules: a blank
// key is not "from the environment", a header fetch cannot send is named, never quoted); what
// toJSON() writes for the key and a shared client's base URL, and that load() rebuilds it.
import { createGatewayClient, isGatewayError } from '@infergate/core';
import { DEFAULT_KEYS } from '@infergate/emulator';
import { caught, emulate } from '@infergate/emulator/testing';
import { load } from '@langchain/core/load';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { GatewayChatModel } from '../src/index';
import { API_KEY } from './helpers';

const { baseURL: BASE_URL, emulator } = await emulate({ as: 'msw', hooks: { afterAll } });
afterEach(() => vi.unstubAllEnvs());

const requests = () => Object.values(emulator.counters.requests).reduce((sum, n) => sum + n, 0);
const thrown = (run: () => unknown) => caught(run, isGatewayError);
const loadModel = (json: string) =>
  load<GatewayChatModel>(json, {
    secretsMap: { INFERGATE_API_KEY: API_KEY },
    optionalImportsMap: { 'infergate/chat_models': { GatewayChatModel } },
  });

describe('new GatewayChatModel with an apiKey given blank', () => {
  it('is refused, never sending INFERGATE_API_KEY (another tenant’s, perhaps) instead', async () => {
    vi.stubEnv('INFERGATE_API_KEY', DEFAULT_KEYS.shielded);
    const before = requests();
    for (const apiKey of ['', '  ']) {
      const error = await thrown(async () =>
        new GatewayChatModel({ model: 'community/general', baseURL: BASE_URL, apiKey }).invoke(
          'hi',
        ),
      );
      expect(error).toMatchObject({ code: 'configuration_error', field: 'apiKey' });
      expect(error.message).toContain('apiKey is empty');
    }
    expect(requests()).toBe(before);
  });

  it('refuses headers fetch cannot send, naming the header without its value', async () => {
    const error = await thrown(
      () =>
        new GatewayChatModel({
          model: 'community/general',
          baseURL: BASE_URL,
          apiKey: API_KEY,
          headers: { 'x-proxy-key': 'PROXY-SECRET\nx' },
        }),
    );
    expect(error).toMatchObject({ code: 'configuration_error', field: 'headers' });
    expect(error.message).toContain('`x-proxy-key`');
    expect(error.message).not.toContain('PROXY-SECRET');
  });
});

describe('toJSON() and load()', () => {
  it('a shared client whose base URL is not known yet writes none; load() reads INFERGATE_BASE_URL', async () => {
    vi.stubEnv('INFERGATE_BASE_URL', '');
    const client = createGatewayClient({ apiKey: API_KEY });
    const json = JSON.stringify(new GatewayChatModel({ model: 'community/general', client }));
    expect(json).not.toContain('base_url');
    // dotenv ran: the loaded model finds the gateway.
    vi.stubEnv('INFERGATE_BASE_URL', BASE_URL);
    vi.stubEnv('INFERGATE_API_KEY', API_KEY);
    const again = await loadModel(json);
    expect((await again.invoke('hi')).content).toBe('Echo: hi');
  });

  it('writes the secret reference for a key given as apiKey, no entry for one from the environment', async () => {
    vi.stubEnv('INFERGATE_BASE_URL', BASE_URL);
    vi.stubEnv('INFERGATE_API_KEY', API_KEY);
    const fromEnv = JSON.stringify(new GatewayChatModel('community/general'));
    expect(fromEnv).not.toContain('api_key');
    const given = JSON.stringify(new GatewayChatModel('community/general', { apiKey: API_KEY }));
    expect(given).toContain('"api_key":{"lc":1,"type":"secret","id":["INFERGATE_API_KEY"]}');
    expect(given).not.toContain(API_KEY);
    for (const json of [fromEnv, given]) {
      expect((await (await loadModel(json)).invoke('hi')).content).toBe('Echo: hi');
    }
  });
});

import { caught } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient, isGatewayError } from '../index';
import { withSettingNames } from '../internal';

const MCP = { where: 'infergate-mcp', baseURL: '--base-url', apiKey: '--api-key' };

/** A client whose environment gives neither setting. */
function clientWithout(settings: object): ReturnType<typeof createGatewayClient> {
  const saved = { url: process.env.INFERGATE_BASE_URL, key: process.env.INFERGATE_API_KEY };
  delete process.env.INFERGATE_BASE_URL;
  delete process.env.INFERGATE_API_KEY;
  try {
    return createGatewayClient(settings);
  } finally {
    if (saved.url !== undefined) process.env.INFERGATE_BASE_URL = saved.url;
    if (saved.key !== undefined) process.env.INFERGATE_API_KEY = saved.key;
  }
}

/** The error `client.models()` rejects with: a missing or malformed setting, named. */
function refusalOfModels(client: ReturnType<typeof createGatewayClient>) {
  return caught(client.models(), isGatewayError);
}

describe('setting names in messages', () => {
  it('by default, a missing setting is named as createGatewayClient takes it', async () => {
    const error = await refusalOfModels(clientWithout({}));
    expect(error.message).toBe(
      'No gateway base URL: pass `baseURL` to createGatewayClient or set the INFERGATE_BASE_URL environment variable',
    );
  });

  it('withSettingNames: a missing setting is named as the caller configured it', async () => {
    const noURL = await refusalOfModels(clientWithout(withSettingNames({ apiKey: 'k' }, MCP)));
    expect(noURL).toMatchObject({ code: 'configuration_error', field: 'baseURL' });
    expect(noURL.message).toBe(
      'No gateway base URL: pass `--base-url` to infergate-mcp or set the INFERGATE_BASE_URL environment variable',
    );
    const noKey = await refusalOfModels(
      clientWithout(withSettingNames({ baseURL: 'https://gw.example' }, MCP)),
    );
    expect(noKey).toMatchObject({ code: 'configuration_error', field: 'apiKey' });
    expect(noKey.message).toContain('pass `--api-key` to infergate-mcp');
  });

  it('withSettingNames: a malformed base URL is named as the caller configured it', () => {
    const names = { where: 'createGateway', baseURL: 'baseURL', apiKey: 'apiKey' };
    expect(() => createGatewayClient(withSettingNames({ baseURL: 'gw.example' }, MCP))).toThrow(
      /^--base-url is not an absolute URL/,
    );
    expect(() =>
      createGatewayClient(withSettingNames({ baseURL: 'https://u:p@gw.example' }, MCP)),
    ).toThrow('--base-url must not contain credentials; pass --api-key instead');
    expect(() =>
      createGatewayClient(withSettingNames({ baseURL: 'ftp://gw.example' }, names)),
    ).toThrow('baseURL must use http or https');
  });

  it('a malformed INFERGATE_BASE_URL is named as the variable, not as the option', async () => {
    const saved = process.env.INFERGATE_BASE_URL;
    process.env.INFERGATE_BASE_URL = 'https://user:pass@gw.example';
    try {
      const error = await refusalOfModels(
        createGatewayClient(withSettingNames({ apiKey: 'k' }, MCP)),
      );
      expect(error).toMatchObject({ code: 'configuration_error', field: 'baseURL' });
      expect(error.message).toBe(
        'INFERGATE_BASE_URL (environment variable) must not contain credentials; pass --api-key instead',
      );
    } finally {
      if (saved === undefined) delete process.env.INFERGATE_BASE_URL;
      else process.env.INFERGATE_BASE_URL = saved;
    }
  });

  it('the names survive spreading the options (as a caller that adds its own hooks does)', async () => {
    const options = withSettingNames({ apiKey: 'k' }, MCP);
    const error = await refusalOfModels(clientWithout({ ...options, maxRetries: 0 }));
    expect(error.message).toContain('pass `--base-url` to infergate-mcp');
  });

  it('an undefined setting (read from an unset variable) means the default', () => {
    const fromEnv: string | undefined = undefined;
    const client = createGatewayClient({
      baseURL: fromEnv ?? 'https://gw.example',
      apiKey: fromEnv,
    });
    expect(client.baseURL).toBe('https://gw.example/v1');
  });
});

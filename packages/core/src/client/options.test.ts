import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseRetryAfter } from '../http/retry-policy';
import { createGatewayClient, isGatewayError } from '../index';
import { normalizeBaseURL } from './options';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('normalizeBaseURL', () => {
  it.each([
    ['https://gw.example', 'https://gw.example/v1'],
    ['https://gw.example/', 'https://gw.example/v1'],
    ['https://gw.example/v1', 'https://gw.example/v1'],
    ['https://gw.example/v1///', 'https://gw.example/v1'],
    ['  https://gw.example/api  ', 'https://gw.example/api/v1'],
    ['https://gw.example/api/v1/', 'https://gw.example/api/v1'],
    ['http://127.0.0.1:8080/v2', 'http://127.0.0.1:8080/v2'],
    ['HTTPS://GW.EXAMPLE:443/v1', 'https://gw.example/v1'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeBaseURL(input)).toBe(expected);
  });

  it.each([
    'gw.example/v1',
    'ftp://gw.example',
    'https://gw.example/v1?x=1',
    'https://u:p@gw.example',
  ])('refuses %s with configuration_error', (input) => {
    expect(() => normalizeBaseURL(input)).toThrowError(
      expect.objectContaining({ code: 'configuration_error' }),
    );
  });
});

describe('configuration', () => {
  it('reads INFERGATE_BASE_URL and INFERGATE_API_KEY', async () => {
    vi.stubEnv('INFERGATE_BASE_URL', 'https://env.example/');
    vi.stubEnv('INFERGATE_API_KEY', 'env-key');
    let auth: string | null = null;
    const client = createGatewayClient({
      fetch: async (_url, init) => {
        auth = new Headers(init?.headers).get('authorization');
        return Response.json({ object: 'list', data: [] });
      },
    });
    expect(client.baseURL).toBe('https://env.example/v1');
    await client.models();
    expect(auth).toBe('Bearer env-key');
  });

  it('options win over the environment', () => {
    vi.stubEnv('INFERGATE_BASE_URL', 'https://env.example/');
    expect(createGatewayClient({ baseURL: 'https://opt.example', apiKey: 'k' }).baseURL).toBe(
      'https://opt.example/v1',
    );
  });

  it('without a key every call fails with configuration_error naming the variable, sending nothing', async () => {
    vi.stubEnv('INFERGATE_API_KEY', '');
    const fetch = vi.fn();
    const client = createGatewayClient({ baseURL: 'https://gw.example', fetch });
    const error = await client.models().catch((e: unknown) => e);
    expect(isGatewayError(error) && error.code).toBe('configuration_error');
    expect(isGatewayError(error) && error.message).toContain('INFERGATE_API_KEY');
    await expect(
      client.chat({ model: 'm', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toMatchObject({
      code: 'configuration_error',
    });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('without a base URL the error names INFERGATE_BASE_URL', async () => {
    vi.stubEnv('INFERGATE_BASE_URL', '');
    const client = createGatewayClient({ apiKey: 'k' });
    await expect(client.models()).rejects.toMatchObject({
      code: 'configuration_error',
      message: expect.stringContaining('INFERGATE_BASE_URL'),
    });
  });

  it('refuses invalid numeric options at creation', () => {
    expect(() =>
      createGatewayClient({ baseURL: 'https://g', apiKey: 'k', maxConcurrency: 0 }),
    ).toThrowError(/maxConcurrency/);
    expect(() =>
      createGatewayClient({ baseURL: 'https://g', apiKey: 'k', maxRetries: -1 }),
    ).toThrowError(/maxRetries/);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    const now = Date.parse('Sun, 22 Nov 2026 00:00:00 GMT');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('0.5', now)).toBe(500);
    expect(parseRetryAfter('Sun, 22 Nov 2026 00:00:07 GMT', now)).toBe(7000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

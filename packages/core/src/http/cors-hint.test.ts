import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGatewayClient } from '../index';

afterEach(() => {
  vi.unstubAllGlobals();
});

const unreachable = () =>
  createGatewayClient({
    baseURL: 'https://gw.example',
    apiKey: 'k',
    maxRetries: 0,
    fetch: async () => {
      throw new TypeError('Failed to fetch');
    },
  });

describe('network_error in a browser', () => {
  it('mentions CORS and the page origin when window and document exist', async () => {
    vi.stubGlobal('window', {});
    vi.stubGlobal('document', {});
    vi.stubGlobal('location', { origin: 'http://localhost:5173' });
    const error = await unreachable()
      .models()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'network_error' });
    expect((error as Error).message).toContain('CORS');
    expect((error as Error).message).toContain('http://localhost:5173');
  });

  it('does not mention CORS on a server runtime', async () => {
    const error = await unreachable()
      .models()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'network_error' });
    expect((error as Error).message).not.toContain('CORS');
  });
});

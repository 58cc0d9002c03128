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

  it("mentions CORS and the worker's origin in a browser's Web Worker (rv-browser F1)", async () => {
    vi.stubGlobal('WorkerGlobalScope', class {});
    vi.stubGlobal('navigator', { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0' });
    vi.stubGlobal('location', { origin: 'http://localhost:5173' });
    const error = await unreachable()
      .models()
      .catch((e: unknown) => e);
    expect((error as Error).message).toContain("the worker's origin http://localhost:5173");
  });

  it.each(['Deno/2.1.4', 'Bun/1.2.0', 'Cloudflare-Workers'])(
    'does not mention CORS in a worker of a runtime without CORS (%s)',
    async (userAgent) => {
      vi.stubGlobal('WorkerGlobalScope', class {});
      vi.stubGlobal('navigator', { userAgent });
      const error = await unreachable()
        .models()
        .catch((e: unknown) => e);
      expect((error as Error).message).not.toContain('CORS');
    },
  );

  it('does not mention CORS on a server runtime', async () => {
    const error = await unreachable()
      .models()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'network_error' });
    expect((error as Error).message).not.toContain('CORS');
  });
});

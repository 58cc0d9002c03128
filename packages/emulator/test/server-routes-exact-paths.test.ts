import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type RunningEmulator, startEmulator } from '../src/index';
import { call } from './helpers';

// The HTTP server (and so the CLI) routed any path containing `/v1/` and dropped trailing slashes:
// a client whose base URL was wrong (`/openai/v1`, `/v2/v1`) got 200 from the emulator and 404 from
// the real gateway. The server now takes only the endpoint's own path; the fetch handler keeps its
// prefix tolerance (a client may reach it under any base URL, `https://proxy.test/tenants/a/v1`).

let server: RunningEmulator;
beforeAll(async () => {
  server = await startEmulator({ port: 0 });
});
afterAll(() => server.close());

function overHttp(path: string, key: string | null = server.apiKey) {
  const headers: Record<string, string> = key === null ? {} : { authorization: `Bearer ${key}` };
  return fetch(`${new URL(server.url).origin}${path}`, { headers });
}

describe('the HTTP server', () => {
  it.each([
    '/openai/v1/models',
    '/v2/v1/models',
    '/totally/wrong/v1/models',
    '/v1/models/',
    '/v1/models///',
  ])('answers 404 for %s', async (path) => {
    const response = await overHttp(path);
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      `No endpoint GET ${path}`,
    );
  });

  it('answers the exact path, and asks for the key first on any path', async () => {
    expect((await overHttp('/v1/models')).status).toBe(200);
    expect((await overHttp('/openai/v1/models', null)).status).toBe(401);
  });
});

describe('the fetch handler', () => {
  it('still routes under any prefix ending in /v1', async () => {
    const response = await call(createEmulator(), '/models', {}, 'https://proxy.test/tenants/a/v1');
    expect(response.status).toBe(200);
  });
});

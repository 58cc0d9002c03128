/**
 * CORS for `allowedOrigins`: a page of an allowed origin gets its preflight answered (before the
 * token, which a preflight never carries) and can read every answer, refusals included; no other
 * origin is ever named back, and a request without `Origin` gets no CORS headers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHttpServer, startHttpServer } from '../src/index';
import { harnessOfFile, RAW_INITIALIZE, rawRequest } from './harness';

const harness = harnessOfFile();
const APP = 'http://app.example:5173';
const TOKEN = 'cors-test-token-0000';

/** A raw request (node:http lets the test send `Origin` and `OPTIONS` as a browser would). */
const send = (url: string, method: string, headers: Record<string, string>) =>
  rawRequest(url, { method, headers, body: method === 'POST' ? [RAW_INITIALIZE] : [] });

const preflight = {
  origin: APP,
  'access-control-request-method': 'POST',
  'access-control-request-headers': 'authorization, content-type, mcp-protocol-version',
};

let server: RunningHttpServer;
beforeAll(async () => {
  server = await startHttpServer(harness().mcp, {
    port: 0,
    allowedOrigins: [APP],
    token: TOKEN,
  });
});
afterAll(() => server.close());

describe('CORS for allowedOrigins', () => {
  it("answers an allowed origin's preflight without the token", async () => {
    const answer = await send(server.url, 'OPTIONS', preflight);
    expect(answer.status).toBe(204);
    expect(answer.headers).toMatchObject({
      'access-control-allow-origin': APP,
      'access-control-allow-methods': 'GET, POST, DELETE',
      'access-control-allow-headers': 'authorization, content-type, mcp-protocol-version',
      vary: 'Origin',
    });
    expect(answer.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('lets the page read the answer and its session id, and a refusal', async () => {
    const answer = await send(server.url, 'POST', {
      origin: APP,
      authorization: `Bearer ${TOKEN}`,
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['mcp-session-id']).toBeDefined();
    expect(answer.headers['access-control-allow-origin']).toBe(APP);
    expect(answer.headers['access-control-expose-headers']).toContain('mcp-session-id');
    const noToken = await send(server.url, 'POST', { origin: APP });
    expect(noToken.status).toBe(403);
    expect(noToken.headers['access-control-allow-origin']).toBe(APP);
  });

  it('names no other origin, and adds nothing for a request without one', async () => {
    const other = await send(server.url, 'OPTIONS', {
      ...preflight,
      origin: 'http://evil.example',
    });
    expect(other.status).toBe(403);
    expect(other.text).toContain('Forbidden: Origin not allowed');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    const plain = await send(server.url, 'POST', { authorization: `Bearer ${TOKEN}` });
    expect(plain.status).toBe(200);
    expect(Object.keys(plain.headers).filter((name) => name.startsWith('access-control'))).toEqual(
      [],
    );
    // A bare OPTIONS (no preflight) is still no method of the endpoint.
    const bare = await send(server.url, 'OPTIONS', { authorization: `Bearer ${TOKEN}` });
    expect(bare.status).toBe(405);
  });
});

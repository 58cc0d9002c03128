import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../src/index';

const PAGE = 'http://localhost:5173';
let open: RunningEmulator;
let listed: RunningEmulator;
let closed: RunningEmulator;

beforeAll(async () => {
  [open, listed, closed] = await Promise.all([
    startEmulator({ cors: true }),
    startEmulator({ cors: [PAGE] }),
    startEmulator(),
  ]);
});
afterAll(async () => {
  await Promise.all([open.close(), listed.close(), closed.close()]);
});

/** A browser's preflight before a POST with a key, a JSON body and a custom header. */
function preflight(server: RunningEmulator, origin: string) {
  return fetch(`${server.url}/chat/completions`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type, x-team',
    },
  });
}

describe('cors', () => {
  it('answers a preflight with 204 and the methods and headers a call needs', async () => {
    const response = await preflight(open, PAGE);
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    const allowed = response.headers.get('access-control-allow-headers') ?? '';
    for (const header of ['authorization', 'content-type', 'x-emulator-fault', 'x-team']) {
      expect(allowed).toContain(header);
    }
  });

  it('adds Allow-Origin to answers, errors included, and exposes Retry-After and X-Service-Model', async () => {
    const ok = await fetch(`${open.url}/models`, {
      headers: { origin: PAGE, authorization: `Bearer ${open.apiKey}` },
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(PAGE);
    const exposed = ok.headers.get('access-control-expose-headers') ?? '';
    expect(exposed).toContain('retry-after');
    expect(exposed).toContain('x-service-model');
    const refused = await fetch(`${open.url}/models`, { headers: { origin: PAGE } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe(PAGE);
  });

  it('a list allows its origins only', async () => {
    expect((await preflight(listed, PAGE)).status).toBe(204);
    const other = await preflight(listed, 'http://evil.example');
    expect(other.status).toBe(403);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const answer = await fetch(`${listed.url}/models`, {
      headers: { origin: 'http://evil.example', authorization: `Bearer ${listed.apiKey}` },
    });
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('is off by default: no preflight answer, no Allow-Origin', async () => {
    const response = await preflight(closed, PAGE);
    expect(response.status).not.toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});

// docs/gateway-protocol.md §2.2, §2.3: a header name fetch refuses is named, but a name holding a
// space or a colon — a pasted `Authorization: Bearer <token>` line, or a `Bearer <token>` value
// given as a name — is quoted only up to it: its token may be another credential than the
// client's key, which redaction does not know (rv-fix2 F6).
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../src/index';
import { caught } from './helpers';

const OTHER = 'sk-tenant-SECRET42';
const fetch: typeof globalThis.fetch = async () => new Response('{}');
const options = { baseURL: 'https://headers.test/v1', apiKey: 'k1', fetch, catalogTtlMs: 0 };

describe('a pasted header line used as a header name', () => {
  it.each([
    [`Authorization: Bearer ${OTHER}`, '`Authorization: …`'],
    [`X-Api-Key:${OTHER}`, '`X-Api-Key: …`'],
    [`Bearer ${OTHER}`, '`Bearer …`'],
  ])('%s: refused, quoted only up to its space or colon', async (name, shown) => {
    const atCreation = await caught(() =>
      createGatewayClient({ ...options, headers: { [name]: '' } }),
    );
    const client = createGatewayClient(options);
    const perCall = await caught(() =>
      client.chat(
        { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
        { headers: { [name]: '' }, capabilities: ['chat'] },
      ),
    );
    for (const error of [atCreation, perCall]) {
      expect(error).toMatchObject({ code: 'configuration_error', field: 'headers' });
      expect(error.message).toContain(shown);
      expect(error.message).not.toContain('SECRET42');
      expect(JSON.stringify(error)).not.toContain('SECRET42');
    }
  });

  it('a name without a space or colon is still quoted whole', async () => {
    const error = await caught(() =>
      createGatewayClient({ ...options, headers: { 'x-bad(name)': '' } }),
    );
    expect(error.message).toContain('`x-bad(name)` is not a valid header name');
  });
});

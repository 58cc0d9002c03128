// docs/gateway-protocol.md §2.2 (the key), §2.3 (headers), §10.4: options given explicitly are
// checked at creation (a blank key is not "from the environment"; a header fetch cannot send is
// named, never quoted); a header valued null is left out; a custom fetch that resolves to no
// Response is our error.
import { caught, emulate } from '@infergate/emulator/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGatewayClient, isGatewayError } from '../src/index';
import { DEFAULT_KEYS, hi, totalRequests } from './helpers';

afterEach(() => {
  vi.unstubAllEnvs();
});

/** The emulator, and the headers of every request sent to it. */
async function recorded() {
  const gateway = await emulate();
  const sent: Headers[] = [];
  const fetch: typeof globalThis.fetch = (input, init) => {
    sent.push(new Headers(init?.headers));
    return gateway.emulator.fetch(input, init);
  };
  return { gateway, sent, fetch, baseURL: gateway.connection.baseURL };
}

describe('an apiKey given blank', () => {
  it('is refused at creation, never replaced by INFERGATE_API_KEY', async () => {
    const { gateway, fetch, baseURL } = await recorded();
    // Someone else's key in the environment: a blank option must not send it.
    vi.stubEnv('INFERGATE_API_KEY', DEFAULT_KEYS.shielded);
    for (const apiKey of ['', '   ']) {
      const refused = await caught(
        async () => createGatewayClient({ baseURL, apiKey, fetch }).chat(hi()),
        isGatewayError,
      );
      expect(refused).toMatchObject({ code: 'configuration_error', field: 'apiKey' });
      expect(refused.message).toMatch(/^apiKey is empty/);
    }
    expect(totalRequests(gateway.emulator)).toBe(0);
    // undefined still means "from the environment".
    const fromEnv = createGatewayClient({ baseURL, apiKey: undefined, fetch });
    expect((await fromEnv.chat(hi())).answer.text).toBe('Echo: hello there');
  });
});

describe('headers and a key that cannot be sent', () => {
  it('are refused at creation, naming the header and never quoting its value', async () => {
    const { gateway, fetch, baseURL } = await recorded();
    const apiKey = gateway.connection.apiKey;
    const cases = [
      [{ apiKey, headers: { 'x-proxy-key': 'PROXY-SECRET-99\nabc' } }, 'headers', 'x-proxy-key'],
      // (A name with a space is quoted only up to it: the rest may be a pasted credential.)
      [{ apiKey, headers: [['x org', 'v']] as [string, string][] }, 'headers', '`x …`'],
      [{ apiKey: 'sk-test\n1234' }, 'apiKey', 'API key'],
    ] as const;
    for (const [options, field, named] of cases) {
      const refused = await caught(
        async () => createGatewayClient({ baseURL, fetch, ...options }),
        isGatewayError,
      );
      expect(refused).toMatchObject({ code: 'configuration_error', field });
      expect(refused.message).toContain(named);
      expect(refused.message).not.toContain('PROXY-SECRET');
      expect(refused.message).not.toContain('1234');
    }
    expect(totalRequests(gateway.emulator)).toBe(0);
  });

  it("a call's invalid header is refused per call, named without its value", async () => {
    const { gateway, fetch, baseURL } = await recorded();
    const client = createGatewayClient({ baseURL, apiKey: gateway.connection.apiKey, fetch });
    const refused = await caught(
      () => client.chat(hi(), { headers: { 'x-call-key': 'CALL-SECRET\nsplit' } }),
      isGatewayError,
    );
    expect(refused).toMatchObject({ code: 'configuration_error', field: 'headers' });
    expect(refused.message).toContain('`x-call-key`');
    expect(refused.message).not.toContain('CALL-SECRET');
    expect((await client.chat(hi())).answer.text).toBe('Echo: hello there');
  });
});

describe('a header valued null', () => {
  it('is left out, as an undefined one (the client’s and a call’s)', async () => {
    const { gateway, sent, fetch, baseURL } = await recorded();
    const client = createGatewayClient({
      baseURL,
      apiKey: gateway.connection.apiKey,
      fetch,
      headers: { 'x-org': null, 'x-team': undefined, 'x-kept': 'yes' },
    });
    await client.chat(hi(), { headers: { 'x-call': null } });
    await client.chat(hi());
    for (const headers of sent) {
      expect(headers.has('x-org')).toBe(false);
      expect(headers.has('x-call')).toBe(false);
      expect(headers.get('x-kept')).toBe('yes');
    }
    expect(sent.length).toBeGreaterThanOrEqual(2);
  });
});

describe('a custom fetch resolving to no Response', () => {
  it('fails the call with invalid_response saying so, its slot given back', async () => {
    const gateway = await emulate();
    const fetch = (async () => undefined) as unknown as typeof globalThis.fetch;
    const client = createGatewayClient({ ...gateway.connection, fetch, maxRetries: 0 });
    for (const call of [() => client.models(), () => client.chat(hi())]) {
      const error = await caught(call, isGatewayError);
      expect(error.code).toBe('invalid_response');
      expect(error.message).toContain('custom `fetch` resolved to no Response');
    }
    // Given back before the call's promise settled: no wait.
    expect(client.budget.isIdle).toBe(true);
  });
});

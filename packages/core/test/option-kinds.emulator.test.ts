/**
 * Client and call options read by their descriptor's kind: `headers` as fetch takes them (an
 * object, a `Headers`, `[name, value]` pairs; a string was sent as headers `0`, `1`, …, a
 * `Headers` dropped), `baseURL` and `apiKey` as strings (a number threw a bare TypeError), and a
 * chat call's `capabilities` as a list (`'chat'` passed the gate as a string's letters).
 */
import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient, type GatewayHeaders, isGatewayError } from '../src/index';
import { clientOn, hi, totalRequests } from './helpers';

const HEADERS_RULE = 'must be an object of header values, a Headers or [name, value] pairs';

/** A client on `gateway` recording the headers of each chat request it sends. */
function recording(gateway: Awaited<ReturnType<typeof emulate>>, headers?: GatewayHeaders) {
  const sent: Headers[] = [];
  const client = clientOn(gateway, {
    headers,
    fetch: (input, init) => {
      if (String(input).endsWith('/chat/completions')) sent.push(new Headers(init?.headers));
      return gateway.fetch(input, init);
    },
  });
  return { client, sent };
}

describe('headers, by the descriptor kind', () => {
  it.each([
    ['a string', 'x-a: 1'],
    ['a number', 1],
    ['a list of names', ['x-a']],
  ])('client headers given as %s are refused when the client is made', (_name, headers) => {
    expect(() =>
      createGatewayClient({
        baseURL: 'https://g',
        apiKey: 'k',
        headers: headers as unknown as HeadersInit,
      }),
    ).toThrow(
      expect.objectContaining({
        code: 'configuration_error',
        field: 'headers',
        message: expect.stringMatching(/^headers \(client option\) must be an object of header/),
      }),
    );
  });

  it('call headers given as a string are refused before any request, naming them', async () => {
    const gateway = await emulate();
    const { client } = recording(gateway);
    const options = { headers: 'x-a: 1' as unknown as HeadersInit };
    const error = await caught(() => client.chat(hi(), options), isGatewayError);
    expect(error).toMatchObject({
      code: 'invalid_request_error',
      field: 'headers',
      message: `headers (call option) ${HEADERS_RULE}, got a string`,
    });
    expect(totalRequests(gateway.emulator)).toBe(0);
  });

  it.each([
    ['an object', { 'x-a': '1' }],
    ['a Headers', new Headers({ 'x-a': '1' })],
    ['pairs', [['x-a', '1']] as [string, string][]],
  ])('client and call headers given as %s are sent', async (_name, headers) => {
    const gateway = await emulate();
    const { client, sent } = recording(gateway, headers);
    const call = new Headers({ 'x-b': '2' });
    await client.chat(hi(), { headers: Array.isArray(headers) ? [...call] : call });
    await client.chat(hi(), { headers });
    expect(sent.map((h) => [h.get('x-a'), h.get('x-b'), h.get('0')])).toEqual([
      ['1', '2', null],
      ['1', null, null],
    ]);
  });

  it('an entry whose value is undefined is left out, not sent as "undefined"', async () => {
    const gateway = await emulate();
    // Typed as the AI SDK and LangChain give them: no cast needed (`GatewayHeaders`).
    const given: GatewayHeaders = { 'x-org': undefined, 'x-b': 'b' };
    const { client, sent } = recording(gateway, given);
    await client.chat(hi(), { headers: { 'x-call': undefined } });
    const { client: other, sent: sentByOther } = recording(gateway);
    await other.chat(hi(), { headers: given });
    await other.chat(hi(), { headers: [['x-org', undefined]] as unknown as HeadersInit });
    expect(
      [...sent, ...sentByOther].map((h) => [h.has('x-org'), h.has('x-call'), h.get('x-b')]),
    ).toEqual([
      [false, false, 'b'],
      [false, false, 'b'],
      [false, false, null],
    ]);
  });

  it('a name given twice is sent with both values, as fetch sends it', async () => {
    const gateway = await emulate();
    const pairs: [string, string][] = [
      ['x-tag', 'a'],
      ['x-tag', 'b'],
    ];
    const { client, sent } = recording(gateway, pairs);
    await client.chat(hi());
    await client.chat(hi(), { headers: pairs });
    await client.chat(hi(), { headers: { 'X-Tag': 'c', 'x-tag': 'd' } });
    expect(sent.map((h) => h.get('x-tag'))).toEqual(['a, b', 'a, b', 'c, d']);
  });
});

describe('baseURL and apiKey, by the descriptor kind', () => {
  it.each(['baseURL', 'apiKey'])('%s given as a number is a configuration_error', (name) => {
    const options = { baseURL: 'https://g', apiKey: 'k', [name]: 12345 };
    expect(() => createGatewayClient(options)).toThrow(
      expect.objectContaining({
        code: 'configuration_error',
        field: name,
        // Not the number: it may be a key.
        message: `${name} (client option) must be a string, got a number`,
      }),
    );
  });
});

describe("a chat call's capabilities", () => {
  it("'chat' given as a string instead of a list is refused before any request", async () => {
    const gateway = await emulate();
    const client = clientOn(gateway);
    const options = { capabilities: 'chat' as unknown as string[] };
    const error = await caught(() => client.chat(hi(), options), isGatewayError);
    expect(error).toMatchObject({
      code: 'invalid_request_error',
      field: 'capabilities',
      message: 'capabilities (call option) must be a list, got a string',
    });
    expect(totalRequests(gateway.emulator)).toBe(0);
  });
});

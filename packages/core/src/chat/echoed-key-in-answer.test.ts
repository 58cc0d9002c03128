// docs/gateway-protocol.md §2.4 (response headers): a proxy that echoes the API key back in a
// successful answer (a debug header, a body field) hands the key to no caller: what a call gives
// back is redacted as its errors are.
import { emulate, keyEchoingFetch } from '@infergate/emulator/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createGatewayClient } from '../index';

const gateway = await emulate({ hooks: { afterEach, afterAll } });
const ECHO = 'x-debug-authorization';

const echoingFetch = keyEchoingFetch(gateway.connection, ECHO);

const client = createGatewayClient({ ...gateway.connection, fetch: echoingFetch });
const ask = { model: 'community/general', messages: [{ role: 'user' as const, content: 'hi' }] };

describe('a successful answer that echoes the API key', () => {
  it('chat: result.headers and result.response hold it redacted', async () => {
    const result = await client.chat(ask);
    expect(result.headers.get(ECHO)).toBe('Bearer [redacted]');
    expect((result.response as unknown as { debug: string }).debug).toBe('Bearer [redacted]');
    expect(result.answer.text).not.toBe('');
  });

  it('chatStream: the stream’s headers and onHeaders’ hold it redacted', async () => {
    const told: Headers[] = [];
    const stream = await client.chatStream(ask, { onHeaders: ({ headers }) => told.push(headers) });
    await stream.result();
    expect(stream.headers.get(ECHO)).toBe('Bearer [redacted]');
    expect(told.map((headers) => headers.get(ECHO))).toEqual(['Bearer [redacted]']);
  });

  it('a service call: onResponse’s headers and body hold it redacted', async () => {
    const seen: { headers: Headers; body: unknown }[] = [];
    await client.embed(
      { model: 'multilingual-e5-base', input: 'x' },
      { onResponse: (info) => seen.push(info) },
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]?.headers.get(ECHO)).toBe('Bearer [redacted]');
    expect(seen[0]?.body).toMatchObject({ debug: 'Bearer [redacted]' });
  });

  it('an answer without the key is handed on as it came (the same headers object)', async () => {
    const plain = createGatewayClient(gateway.connection);
    const told: Headers[] = [];
    const stream = await plain.chatStream(ask, { onHeaders: ({ headers }) => told.push(headers) });
    await stream.result();
    expect(told[0]).toBe(stream.headers);
  });
});

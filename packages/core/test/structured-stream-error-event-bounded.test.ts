import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../src';
import { caught, hi } from './helpers';

// docs/gateway-protocol.md §10.3: a stream's error event is kept on its error up to the client's
// `maxErrorBodyBytes` (the cut marked, its parsed data only when kept whole) — also when a
// structured stream's start reads it, before any content (its own decoder is given the bound).
// The emulator serves the catalog; a stub answers the chat with the bytes.
const MODEL = 'community/general';
const WORDS = 'y'.repeat(10_000);
const EVENT = JSON.stringify({ error: { code: 'provider_protocol_error', message: WORDS } });
const cutNote = (limit: number) =>
  `…\n[infergate: error body cut after ${limit} bytes (maxErrorBodyBytes)]`;
const schema = { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'object' } } };

describe('a structured stream whose first event is a long error event', () => {
  it('keeps its body cut at maxErrorBodyBytes, its data unset', async () => {
    const gateway = await emulate();
    const { fetch: gatewayFetch } = gateway.connection;
    const fetch: typeof globalThis.fetch = async (input, init) =>
      (init?.method ?? 'GET') === 'GET'
        ? gatewayFetch(input, init)
        : new Response(`data: ${EVENT}\n\n`, { headers: { 'content-type': 'text/event-stream' } });
    const limit = 1024;
    const client = createGatewayClient({
      ...gateway.connection,
      maxRetries: 0,
      maxErrorBodyBytes: limit,
      fetch,
    });
    const error = await caught(async () => {
      const stream = await client.chatStream({ ...hi(MODEL), response_format: schema } as never);
      for await (const _ of stream);
    });
    expect(error.code).toBe('provider_protocol_error');
    expect(error.body?.endsWith(cutNote(limit)), error.body?.slice(-120)).toBe(true);
    expect(error.data).toBeUndefined();
    await gateway.close();
  });
});

// core README (`fetch`): a custom fetch whose Response.body is not a web ReadableStream (a Node
// Readable, as node-fetch v2 gives) is the `fetch` option's fault: whole answers and streams alike
// fail with `configuration_error` (field `fetch`, not retried), and the body is destroyed, so the
// gateway sees the request end and the key's slots are free for the next call.
import { Readable } from 'node:stream';
import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient, type GatewayError, isGatewayError } from '../src/index';
import { hi } from './helpers';

const MODEL = 'community/general';

async function nodeBodies() {
  const gateway = await emulate();
  const bodies: Readable[] = [];
  let chats = 0;
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = await gateway.connection.fetch(input, init);
    if (!String(input).endsWith('/chat/completions')) return response;
    chats += 1;
    const body = Readable.fromWeb(response.body as never);
    bodies.push(body);
    const { ok, status, statusText, headers, url } = response;
    return { ok, status, statusText, headers, url, body } as unknown as Response;
  }) as typeof globalThis.fetch;
  const client = createGatewayClient({ ...gateway.connection, retryBaseDelayMs: 0, fetch });
  return { gateway, client, bodies, chats: () => chats };
}

describe('a custom fetch whose body is not a web ReadableStream', () => {
  for (const kind of ['chat', 'chatStream'] as const) {
    it(`${kind}: configuration_error naming the fetch option, not retried, body destroyed`, async () => {
      const { gateway, client, bodies, chats } = await nodeBodies();
      // More calls than the key's 4 slots: a slot or a gateway request left open would show.
      for (let i = 0; i < 5; i++) {
        const error = await caught(
          kind === 'chat' ? client.chat(hi(MODEL)) : client.chatStream(hi(MODEL)),
        );
        expect(isGatewayError(error), String(error)).toBe(true);
        const { code, field, isRetryable: retryable, message } = error as GatewayError;
        expect({ code, field, retryable }).toEqual({
          code: 'configuration_error',
          field: 'fetch',
          retryable: false,
        });
        expect(message).toContain('not a web ReadableStream');
      }
      expect(chats()).toBe(5);
      expect(bodies.every((body) => body.destroyed)).toBe(true);
      await gateway.untilIdle({ key: gateway.apiKey, timeoutMs: 10_000 });
      expect(client.budget.active).toBe(0);
    });
  }
});

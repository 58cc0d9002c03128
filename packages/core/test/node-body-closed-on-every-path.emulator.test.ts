// core README (`fetch`): a custom fetch whose Response.body is not a web ReadableStream (a Node
// Readable, as node-fetch v2 gives) fails with the same `configuration_error` (field `fetch`, not
// retried) on every path that meets the body — a steered structured chat that refuses it, an answer
// whose Content-Length is over `maxResponseBytes`, the engine lookup of `embed` — and the body is
// destroyed, never left open (the body is closed by whatever kind it is, never assumed to be web).
import { Readable } from 'node:stream';
import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient, type GatewayError, isGatewayError } from '../src/index';
import { hi } from './helpers';

const MODEL = 'community/general';

async function nodeBodies(
  options: {
    contentLength?: string;
    maxResponseBytes?: number;
    maxRetries?: number;
    only?: string;
  } = {},
) {
  const gateway = await emulate();
  const bodies: Readable[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = await gateway.connection.fetch(input, init);
    if (!response.body) return response;
    if (options.only !== undefined && !String(input).endsWith(options.only)) return response;
    const body = Readable.fromWeb(response.body as never);
    bodies.push(body);
    const headers = new Headers(response.headers);
    if (options.contentLength !== undefined) headers.set('content-length', options.contentLength);
    const { ok, status, statusText, url } = response;
    return { ok, status, statusText, headers, url, body } as unknown as Response;
  }) as typeof globalThis.fetch;
  const client = createGatewayClient({
    ...gateway.connection,
    retryBaseDelayMs: 0,
    fetch,
    ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
    ...(options.maxResponseBytes === undefined
      ? {}
      : { maxResponseBytes: options.maxResponseBytes }),
  });
  return { gateway, client, bodies };
}

function expectFetchFault(error: unknown) {
  expect(isGatewayError(error), String(error)).toBe(true);
  const { code, field, isRetryable: retryable } = error as GatewayError;
  expect({ code, field, retryable }).toEqual({
    code: 'configuration_error',
    field: 'fetch',
    retryable: false,
  });
  expect((error as GatewayError).message).toContain('not a web ReadableStream');
}

const schema = {
  type: 'json_schema' as const,
  json_schema: {
    name: 'x',
    schema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
  },
};

describe('a Node body on every path that meets it', () => {
  it('a steered structured chat (json_schema, fallbackModels): configuration_error, bodies destroyed', async () => {
    const { gateway, client, bodies } = await nodeBodies({
      maxRetries: 0,
      only: '/chat/completions',
    });
    for (let i = 0; i < 5; i++) {
      const error = await caught(
        client.chat(
          { ...hi(MODEL), response_format: schema },
          { fallbackModels: ['community/tools'] },
        ),
      );
      expectFetchFault(error);
    }
    expect(bodies.length).toBeGreaterThan(0);
    expect(bodies.every((body) => body.destroyed)).toBe(true);
    await gateway.untilIdle({ key: gateway.apiKey, timeoutMs: 10_000 });
    // (A refused answer's request was cut: its slot comes back once the gateway can have seen it.)
    await client.budget.whenIdle();
    expect(client.budget.active).toBe(0);
  });

  for (const kind of ['chat', 'models'] as const) {
    it(`${kind}: a Content-Length over maxResponseBytes is still the fetch option's fault, not retried, body destroyed`, async () => {
      const { gateway, client, bodies } = await nodeBodies({
        contentLength: '999999',
        maxResponseBytes: 1000,
      });
      const error = await caught(kind === 'chat' ? client.chat(hi(MODEL)) : client.models());
      expectFetchFault(error);
      expect(bodies.length).toBe(1);
      expect(bodies[0]?.destroyed).toBe(true);
      await gateway.untilIdle({ key: gateway.apiKey, timeoutMs: 10_000 });
      expect(client.budget.active).toBe(0);
    });
  }

  it("embed: the engine lookup's configuration_error keeps field `fetch`", async () => {
    const { client, bodies } = await nodeBodies();
    const error = await caught(client.embed({ model: 'community/embed', input: 'x' }));
    expectFetchFault(error);
    expect((error as GatewayError).message).toContain('GET /capabilities');
    expect(bodies.every((body) => body.destroyed)).toBe(true);
  });
});

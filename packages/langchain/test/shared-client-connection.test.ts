import { createGatewayClient, createInProcessBudget } from '@infergate/core';
import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import {
  createGatewayTools,
  GatewayChatModel,
  GatewayEmbeddings,
  GatewayOcrLoader,
  GatewayTranslator,
} from '../src';

/** A shared client of one gateway, and the connection of another. */
async function clientAndOther() {
  const gateway = await emulate();
  const other = await emulate();
  return { gateway, client: createGatewayClient(gateway.connection), other: other.connection };
}

describe('a shared client with connection fields it would ignore is refused, naming them', () => {
  it('new GatewayChatModel({ client, baseURL, apiKey }) of another gateway: refused, nothing sent', async () => {
    const { gateway, client, other } = await clientAndOther();
    const error = await caught(async () => {
      new GatewayChatModel({
        model: 'community/general',
        client,
        baseURL: other.baseURL,
        apiKey: other.apiKey,
      });
    });
    expect(error).toMatchObject({ code: 'configuration_error', field: 'apiKey' });
    expect((error as Error).message).toContain('apiKey, baseURL given with a shared client');
    expect((error as Error).message).not.toContain(other.apiKey);
    expect(gateway.counters.requests.chat).toBe(0);
  });

  it.each([
    [
      'GatewayEmbeddings',
      (fields: object) => new GatewayEmbeddings({ model: 'all-minilm-l6-v2', ...fields }),
    ],
    ['createGatewayTools', (fields: object) => createGatewayTools(fields)],
    [
      'GatewayTranslator',
      (fields: object) => new GatewayTranslator({ targetLanguage: 'uk', ...fields }),
    ],
    [
      'GatewayOcrLoader',
      (fields: object) => new GatewayOcrLoader({ image: new Uint8Array([1]), ...fields }),
    ],
  ] as const)(
    '%s: budget and maxConcurrencyPerKey with a client are refused',
    async (_name, build) => {
      const { client } = await clientAndOther();
      const error = await caught(async () =>
        build({ client, budget: createInProcessBudget(), maxConcurrencyPerKey: 1 }),
      );
      expect(error).toMatchObject({ code: 'configuration_error', field: 'budget' });
      expect((error as Error).message).toContain(
        'budget, maxConcurrencyPerKey given with a shared client',
      );
    },
  );

  it("the client's own base URL is no contradiction: the model answers and serialises it", async () => {
    const { gateway, client } = await clientAndOther();
    const model = new GatewayChatModel({
      model: 'community/general',
      client,
      baseURL: client.baseURL,
    });
    expect((await model.invoke('hi')).text).toBe('Echo: hi');
    expect(model.baseURL).toBe(client.baseURL);
    expect(gateway.counters.requests.chat).toBe(1);
  });

  it.each([
    ['without /v1', (url: string) => url.replace(/\/v1$/, '')],
    ['with a trailing slash', (url: string) => `${url}/`],
  ])("the client's own base URL written %s is no contradiction either", async (_, written) => {
    const { gateway, client } = await clientAndOther();
    const model = new GatewayChatModel({
      model: 'community/general',
      client,
      baseURL: written(client.baseURL),
    });
    expect((await model.invoke('hi')).text).toBe('Echo: hi');
    expect(gateway.counters.requests.chat).toBe(1);
  });
});

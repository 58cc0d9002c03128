// An error answer's X-Service-Model names the model that would have answered, a pool member or a
// fallback (docs/gateway-protocol.md §2.4): GatewayError.servedModel is that model, so a caller
// sees which member failed, not only the model it asked for.
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../src/index';
import { caught, clientOn, hi, withCatalog } from './helpers';

describe("an error answer's served model", () => {
  it('a fallback pool member at its capacity: model_busy names the member', async () => {
    // my/laptop-model is offline; the gateway sends its calls to its fallback, here full.
    const gateway = await emulate({
      scenario: { models: { 'pool-a/llama-3-8b': { capacity: 0 } } },
    });
    const error = await caught(() =>
      clientOn(gateway, { maxRetries: 0 }).chat(hi('my/laptop-model')),
    );
    expect(error.code).toBe('model_busy');
    expect(error.servedModel).toBe('pool-a/llama-3-8b');
    expect(error.requestedModel).toBe('my/laptop-model');
  });

  it('a 502 of a pool member: provider_request_failed names the member', async () => {
    const fetch = withCatalog(
      async () =>
        Response.json(
          {
            error: {
              code: 'provider_request_failed',
              message: 'The provider failed to answer the request',
              type: 'upstream_error',
            },
          },
          { status: 502, headers: { 'x-service-model': 'pool-a/member-2' } },
        ),
      ['pool-a/any'],
    );
    const client = createGatewayClient({
      baseURL: 'https://served-error.test/v1',
      apiKey: 'k',
      fetch,
      maxRetries: 0,
    });
    const error = await caught(() => client.chat(hi('pool-a/any')));
    expect(error.code).toBe('provider_request_failed');
    expect(error.status).toBe(502);
    expect(error.servedModel).toBe('pool-a/member-2');
    expect(error.requestedModel).toBe('pool-a/any');
  });
});

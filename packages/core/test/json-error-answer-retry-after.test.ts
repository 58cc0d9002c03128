import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient, type GatewayError, isGatewayError } from '../src/index';
import { hi } from './helpers';

// docs/gateway-protocol.md §5.3: a 200 whose JSON body is an error is read the same way whole or
// streamed, with its raw body, parsed JSON, headers and Retry-After. The emulator serves the
// catalog; a stub answers /chat/completions with the bytes.
const MODEL = 'community/general';
const body = JSON.stringify({ error: { code: 'model_busy', message: 'busy' } });

async function answering() {
  const gateway = await emulate();
  const { fetch: gatewayFetch } = gateway.connection;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    if (!String(input).endsWith('/chat/completions')) return gatewayFetch(input, init);
    const headers = {
      'content-type': 'application/json',
      'retry-after': '7',
      'x-request-id': 'r-1',
    };
    return new Response(body, { headers });
  };
  return createGatewayClient({ ...gateway.connection, maxRetries: 0, fetch });
}

async function failure(run: () => Promise<unknown>): Promise<GatewayError> {
  try {
    await run();
  } catch (error) {
    if (isGatewayError(error)) return error;
    throw error;
  }
  throw new Error('expected a GatewayError');
}

describe('a 200 JSON error answer', () => {
  it('carries its Retry-After to chat() as to chatStream()', async () => {
    const client = await answering();
    const whole = await failure(() => client.chat(hi(MODEL)));
    const streamed = await failure(() => client.chatStream(hi(MODEL)));
    for (const error of [whole, streamed]) {
      expect(error).toMatchObject({ code: 'model_busy', status: 200, retryAfterMs: 7000, body });
      expect(error.responseHeaders?.['x-request-id']).toBe('r-1');
    }
  });
});

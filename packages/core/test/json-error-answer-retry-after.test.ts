import { describe, expect, it } from 'vitest';
import { caught, chatAnsweredWith, hi } from './helpers';

// docs/gateway-protocol.md §5.3: a 200 whose JSON body is an error is read the same way whole or
// streamed, with its raw body, parsed JSON, headers and Retry-After. The emulator serves the
// catalog; a stub answers /chat/completions with the bytes.
const MODEL = 'community/general';
const body = JSON.stringify({ error: { code: 'model_busy', message: 'busy' } });

describe('a 200 JSON error answer', () => {
  it('carries its Retry-After to chat() as to chatStream()', async () => {
    const client = await chatAnsweredWith(body, {
      'content-type': 'application/json',
      'retry-after': '7',
      'x-request-id': 'r-1',
    });
    const whole = await caught(() => client.chat(hi(MODEL)));
    const streamed = await caught(() => client.chatStream(hi(MODEL)));
    for (const error of [whole, streamed]) {
      expect(error).toMatchObject({ code: 'model_busy', status: 200, retryAfterMs: 7000, body });
      expect(error.responseHeaders?.['x-request-id']).toBe('r-1');
    }
  });
});

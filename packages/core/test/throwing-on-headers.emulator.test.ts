import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from '../src/index';

// `chatStream`'s `onHeaders` is an observer (docs/gateway-protocol.md §5.2): one that throws does
// not fail the call, as a throwing `onResponse` does not. It failed it, leaving the answer's body
// unread and uncancelled, so the gateway kept the request and its slot of the key's 4.

const ask = { model: 'community/streamer', messages: [{ role: 'user' as const, content: 'hi' }] };

describe('a throwing onHeaders', () => {
  it('does not fail the stream, and every request ends', async () => {
    const gateway = await emulate();
    const client = createGatewayClient(gateway.connection);
    let told = 0;
    const onHeaders = () => {
      told++;
      throw new TypeError('the caller’s own bug');
    };
    for (let i = 0; i < 5; i++) {
      const stream = await client.chatStream(ask, { onHeaders });
      const result = await stream.result();
      expect(result.finishReason).toBe('stop');
      expect(result.text.length).toBeGreaterThan(0);
    }
    expect(told).toBe(5);
    await gateway.untilIdle();
    await gateway.close();
  });
});

// docs/gateway-protocol.md §4.7 (stall timeouts): a client's stall timeout its own deadline ends
// first could never fire: refused when the client is made, as a hedge the deadline leaves unsent
// is. A call's own shorter deadline is not refused: a call may shorten its deadline.
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { createGatewayClient } from './client';

const CONNECTION = { baseURL: 'https://gw.test/v1', apiKey: 'sk-test-0000' };

describe('a stall timeout not less than the deadline', () => {
  it.each([
    [{ timeoutMs: 1000, firstChunkTimeoutMs: 9000 }, 'firstChunkTimeoutMs', 9000, 1000],
    [{ timeoutMs: 1000, firstChunkTimeoutMs: 1000 }, 'firstChunkTimeoutMs', 1000, 1000],
    [{ timeoutMs: 1000, chunkTimeoutMs: 5000 }, 'chunkTimeoutMs', 5000, 1000],
    [{ chunkTimeoutMs: 300_000 }, 'chunkTimeoutMs', 300_000, 300_000],
  ])('createGatewayClient(%o) is refused', (options, field, value, deadline) => {
    expect(() => createGatewayClient({ ...CONNECTION, ...options })).toThrow(
      expect.objectContaining({
        code: 'configuration_error',
        field,
        message: `${field} (client option) (${value}) is not less than timeoutMs (${deadline}): the deadline ends the call before the stall timeout is due`,
      }),
    );
  });

  it('a stall timeout within the deadline is taken', () => {
    createGatewayClient({
      ...CONNECTION,
      timeoutMs: 1000,
      firstChunkTimeoutMs: 999,
      chunkTimeoutMs: 500,
    });
  });

  it("a call's shorter deadline over its client's stall timeout is not refused", async () => {
    const gateway = await emulate();
    const client = createGatewayClient({ ...gateway.connection, firstChunkTimeoutMs: 60_000 });
    const answer = await client.chat(
      { model: 'community/general', messages: [{ role: 'user', content: 'hi' }] },
      { timeoutMs: 30_000 },
    );
    expect(answer).toBeTruthy();
    await gateway.close();
  });
});

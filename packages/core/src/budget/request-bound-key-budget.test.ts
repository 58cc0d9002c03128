import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it, vi } from 'vitest';
import { createGatewayClient } from '../client/client';

// As in workerd and edge-runtime: the key's slots are counted by the request-bound semaphore,
// whose code loads with its first acquire.
vi.mock('../call/call-scope', async (original) => ({
  ...(await original<typeof import('../call/call-scope')>()),
  REQUEST_BOUND_IO: true,
}));

describe('the key budget in request-bound runtimes', () => {
  it("two clients on one key share its 4 slots: the second's calls queue behind the first's", async () => {
    const gateway = await emulate();
    const { emulator, connection: options } = gateway;
    // A Worker making a client per deadline, as the runtime tests do.
    const holding = createGatewayClient({ ...options, timeoutMs: 1_500 });
    const waiting = createGatewayClient({ ...options, timeoutMs: 400 });
    const slow = { headers: { 'x-emulator-fault': 'slow_headers; ms=5000' } };
    const hi = { model: 'community/general', messages: [{ role: 'user' as const, content: 'hi' }] };
    const code = (error: { code?: string }) => error.code;
    const holders = Array.from({ length: 4 }, () => holding.chat(hi, slow).catch(code));
    await gateway.untilHeld(4);
    const queued = await Promise.all(
      Array.from({ length: 4 }, () => waiting.chat(hi, slow).catch(code)),
    );
    // Their deadlines passed while they waited: nothing was sent for them, nothing refused.
    expect(queued).toEqual(['timeout', 'timeout', 'timeout', 'timeout']);
    expect(emulator.counters.concurrencyRejections).toBe(0);
    expect(await Promise.all(holders)).toEqual(['timeout', 'timeout', 'timeout', 'timeout']);
  });
});

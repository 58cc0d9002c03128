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
    // A Worker making a client per deadline, as the runtime tests do. Only the waiters' short
    // deadline is the subject; the holders' is a hang guard, and the emulator holds their answers
    // (not a slow header's timer) until the waiters are done, however loaded the machine.
    const holding = createGatewayClient({ ...options, timeoutMs: 60_000 });
    const waiting = createGatewayClient({ ...options, timeoutMs: 400 });
    const hi = { model: 'community/general', messages: [{ role: 'user' as const, content: 'hi' }] };
    const code = (error: { code?: string }) => error.code;
    const release = gateway.hold();
    const holders = Array.from({ length: 4 }, () => holding.chat(hi).then(() => 'answered', code));
    await gateway.untilHeld(4);
    const queued = await Promise.all(Array.from({ length: 4 }, () => waiting.chat(hi).catch(code)));
    // Their deadlines passed while they waited: nothing was sent for them, nothing refused.
    expect(queued).toEqual(['timeout', 'timeout', 'timeout', 'timeout']);
    expect(emulator.counters.requests.chat).toBe(4);
    expect(emulator.counters.concurrencyRejections).toBe(0);
    release();
    expect(await Promise.all(holders)).toEqual(['answered', 'answered', 'answered', 'answered']);
  });
});

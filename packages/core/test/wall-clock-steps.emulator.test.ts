import { caught, emulate } from '@infergate/emulator/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isGatewayError } from '../src/index';
import { clientOn, hi } from './helpers';

// NTP steps and resumed VMs move the wall clock by minutes either way. Only `Date` is faked here:
// timers and `performance.now()` run for real, as they do while the system clock is stepped.
afterEach(() => {
  vi.useRealTimers();
});

const stepWallClock = (ms: number) => vi.setSystemTime(Date.now() + ms);

/**
 * The calls give their capabilities: core's gate then reads no catalog, so the clock steps while
 * their requests are queued or in flight, not while a catalog read is.
 */
const KNOWN = { capabilities: ['chat'] };

describe('deadlines under a stepped wall clock', () => {
  it('a 500 ms deadline fires before a held answer although the clock went 60 s back', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const gateway = await emulate();
    // Held, not slow (3 s once): only the deadline can end the call, however loaded the machine.
    gateway.hold();
    const client = clientOn(gateway);
    const call = caught(() => client.chat(hi(), { ...KNOWN, timeoutMs: 500 }), isGatewayError);
    await gateway.untilHeld(1);
    stepWallClock(-60_000);
    const error = await call;
    expect(error.code).toBe('timeout');
    expect(error.message).toContain('500 ms');
  });

  it('30 s deadlines do not fire early when the clock jumps 60 s ahead', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const gateway = await emulate({ scenario: { latencyMs: 200 } });
    const client = clientOn(gateway);
    const { emulator } = gateway;
    // Six calls on one key: four run, two wait for a slot (a slot handed over checks the deadline).
    const calls = Array.from({ length: 6 }, (_, i) =>
      client.chat(hi(undefined, `call ${i}`), { ...KNOWN, timeoutMs: 30_000 }),
    );
    // A short deadline elsewhere makes the shared deadline timer run while the six are pending.
    const held = await emulate();
    held.hold();
    const slow = clientOn(held);
    const short = caught(() => slow.chat(hi(), { ...KNOWN, timeoutMs: 100 }), isGatewayError);
    stepWallClock(60_000);
    expect((await short).code).toBe('timeout');
    const answers = await Promise.all(calls);
    expect(answers.map((answer) => answer.answer.text)).toEqual(
      Array.from({ length: 6 }, (_, i) => `Echo: call ${i}`),
    );
    expect(emulator.counters.requests.chat).toBe(6);
  });

  it('a retry is still made after the clock jumps ahead during the failed attempt', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const gateway = await emulate({ scenario: { latencyMs: 100 } });
    const client = clientOn(gateway);
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'service_unavailable', endpoint: 'chat', times: 1 });
    const call = client.chat(hi(), { ...KNOWN, timeoutMs: 30_000 });
    stepWallClock(60_000);
    expect((await call).answer.text).toBe('Echo: hello there');
    expect(emulator.counters.requests.chat).toBe(2);
  });
});

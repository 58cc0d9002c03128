import { afterEach, describe, expect, it, vi } from 'vitest';
import { caught, drivenClock, emulate } from '../src/testing/index';

// A wait's safety net (`timeoutMs`, 30 s by default) runs on the real clock: a test that drives
// fake time past it (drivenClock) does not fail a wait whose event comes later in driven time.

const clock = drivenClock(vi);

afterEach(() => {
  vi.useRealTimers();
});

describe('the safety net of the waits', () => {
  it('is not fired by driven time: a request sent 45 s into driven time is still waited for', async () => {
    const gateway = await emulate();
    clock.drive();
    const seen = gateway.untilRequests(1, { endpoint: 'models' }).then(
      () => 'resolved',
      (error: Error) => `rejected: ${error.message}`,
    );
    const sent = new Promise((resolve) => setTimeout(resolve, 45_000)).then(() =>
      gateway.fetch(`${gateway.baseURL}/models`, {
        headers: { authorization: `Bearer ${gateway.apiKey}` },
      }),
    );
    expect((await clock.settledAfter(60_000, sent)).status).toBe(200);
    expect(await seen).toBe('resolved');
  });

  it('still ends a wait on the real clock while timers are driven', async () => {
    const gateway = await emulate();
    clock.drive();
    const error = await caught(gateway.untilHeld(1, { timeoutMs: 10 }));
    expect(error.message).toMatch(/still waiting for 1 request\(s\) held after 10 ms/);
  });
});

import { describe, expect, it, vi } from 'vitest';
import { pollPause, WakeUps } from './wake-ups';

/** A WakeUps whose subscription is confirmed at once; `deliver` plays a message on the channel. */
function wakeUps() {
  let deliver: (token: string) => void = () => {};
  const wake = new WakeUps(
    {
      subscribe: async (_channel, listener) => {
        deliver = listener;
        return true;
      },
    },
    { wakeChannel: (id) => `wake:${id}` },
    () => {},
  );
  return { wake, deliver: (token: string) => deliver(token) };
}

const never = new AbortController().signal;

describe('WakeUps', () => {
  it('wakes the waiter a slot was handed to, and only it', async () => {
    const { wake, deliver } = wakeUps();
    await wake.listen('id');
    wake.expect('a');
    wake.expect('b');
    const a = wake.wait('a', 60_000, never);
    let bWoke = false;
    void wake.wait('b', 60_000, never).then(() => {
      bWoke = true;
    });
    deliver('a');
    expect(await a).toBe('granted');
    await Promise.resolve();
    expect(bWoke).toBe(false);
    wake.pollAll();
  });

  it('keeps a handover that arrives before its waiter waits (the message beat the answer)', async () => {
    const { wake, deliver } = wakeUps();
    await wake.listen('id');
    wake.expect('a');
    deliver('a');
    expect(await wake.wait('a', 60_000, never)).toBe('granted');
  });

  it('ignores a handover to a waiter that already left', async () => {
    const { wake, deliver } = wakeUps();
    await wake.listen('id');
    wake.expect('a');
    wake.done('a');
    deliver('a');
    wake.expect('a');
    expect(await wake.wait('a', 1, never)).toBe('poll');
  });

  it('brings a wait forward when told the earliest lease expires sooner (now near the head)', async () => {
    vi.useFakeTimers();
    try {
      const { wake, deliver } = wakeUps();
      await wake.listen('id');
      wake.expect('a');
      let reason: string | undefined;
      void wake.wait('a', 5000, never).then((r) => {
        reason = r;
      });
      deliver('near 100 a');
      await vi.advanceTimersByTimeAsync(110);
      expect(reason).toBe('poll');
      // Told of a later expiry than its own pause: nothing changes.
      wake.expect('b');
      let later: string | undefined;
      void wake.wait('b', 200, never).then((r) => {
        later = r;
      });
      deliver('near 9000 b');
      await vi.advanceTimersByTimeAsync(210);
      expect(later).toBe('poll');
    } finally {
      vi.useRealTimers();
    }
  });

  it('lets every waiter ask again when the pub/sub connection comes back', async () => {
    const { wake } = wakeUps();
    wake.expect('a');
    const a = wake.wait('a', 60_000, never);
    wake.pollAll();
    expect(await a).toBe('poll');
  });
});

describe('pollPause', () => {
  const base = { maxPoll: 1000, ttl: 15_000, nextChangeMs: undefined, listening: true };

  it('backs off from 50 ms to maxPoll near the head of the queue when no change is pending', () => {
    const pauses = [0, 1, 2, 3, 4, 5, 9].map((n) => pollPause(n, { ...base, nearHead: true }));
    expect(pauses).toEqual([50, 100, 200, 400, 800, 1000, 1000]);
  });

  it('asks again right after the next lease expiry (no message announces it)', () => {
    expect(pollPause(9, { ...base, nearHead: true, nextChangeMs: 120 })).toBe(125);
    expect(pollPause(0, { ...base, nearHead: true, nextChangeMs: 120 })).toBe(125);
  });

  it('near the head and listening, waits for the next change (up to maxPoll): no back-off polls', () => {
    // A release's handover comes with a message: asking sooner would only find the same answer.
    const pauses = [0, 1, 2, 5].map((n) =>
      pollPause(n, { ...base, nearHead: true, nextChangeMs: 14_000 }),
    );
    expect(pauses).toEqual([1000, 1000, 1000, 1000]);
  });

  it('backs off without a confirmed wake channel (a handover would reach nobody)', () => {
    const deaf = { ...base, nearHead: true, listening: false, nextChangeMs: 14_000 };
    expect([0, 1, 5].map((n) => pollPause(n, deaf))).toEqual([50, 100, 1000]);
  });

  it('waits TTL/3 further back: its turn comes with a message', () => {
    expect(pollPause(0, { ...base, nearHead: false, nextChangeMs: 120 })).toBe(5000);
  });
});

import { emulate } from '@infergate/emulator/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clientOn, DEFAULT_KEYS, hi } from './helpers';

const key = DEFAULT_KEYS.full;

afterEach(() => {
  vi.useRealTimers();
});

describe('a slot follows the gateway request, not our reader (the gateway counts requests, not readers)', () => {
  it('4 streams nobody reads release their slots when their bodies end; 4 calls then run at once', async () => {
    const gateway = await emulate({ scenario: { streamChunkDelayMs: 2, latencyMs: 5 } });
    const client = clientOn(gateway);
    const { emulator } = gateway;
    const streams = await Promise.all(
      Array.from({ length: 4 }, () => client.chatStream(hi('community/general', 'one two three'))),
    );
    expect(client.budget.active).toBe(4);
    // Nobody reads: the bodies are read ahead and the slots come back when they end.
    await client.budget.whenIdle();
    expect(emulator.counters.inflight[key] ?? 0).toBe(0);
    emulator.resetCounters();
    await Promise.all(Array.from({ length: 4 }, () => client.chat(hi())));
    expect(emulator.counters.maxInflight[key]).toBe(4);
    // The buffered answers are still whole for a late reader.
    for (const stream of streams) {
      expect((await stream.result()).text).toBe('Echo: one two three');
    }
  });

  it('a stream cancelled before its body ends keeps its slot until the gateway can have seen the close', async () => {
    const gateway = await emulate({ scenario: { streamChunkDelayMs: 20 } });
    const client = clientOn(gateway);
    const { emulator } = gateway;
    const stream = await client.chatStream(hi('community/general', 'a b c d e f g h'));
    expect(client.budget.active).toBe(1);
    await stream.cancel();
    // The gateway counts the request until it sees the connection close (issue 45 point 2).
    expect(client.budget.active).toBe(1);
    await client.budget.whenIdle();
    expect(client.budget.active).toBe(0);
    expect(emulator.counters.inflight[DEFAULT_KEYS.full] ?? 0).toBe(0);
  });

  it('a stream that fails mid-body releases its slot unread, and reports the failure on read', async () => {
    const gateway = await emulate({ scenario: { streamChunkDelayMs: 1 } });
    const client = clientOn(gateway);
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'stream_cut', endpoint: 'chat', afterChunks: 2 });
    const stream = await client.chatStream(hi('community/general', 'a b c d'));
    await client.budget.whenIdle();
    await expect(stream.result()).rejects.toMatchObject({ code: 'stream_incomplete' });
  });
});

describe('sleeping never holds a slot (a waiting call must not take the key from healthy ones)', () => {
  it('4 calls sleeping on Retry-After leave the key to healthy calls, then queue again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const gateway = await emulate();
    const client = clientOn(gateway);
    const { emulator } = gateway;
    emulator.injectFault({
      fault: 'model_busy',
      endpoint: 'chat',
      model: 'community/plain',
      times: 4,
      retryAfter: 5,
    });
    const sleeping = Array.from({ length: 4 }, () => client.chat(hi('community/plain')));
    await vi.advanceTimersByTimeAsync(10);
    expect(emulator.counters.requests.chat).toBe(4);
    expect(client.budget.active).toBe(0);
    const healthy = Array.from({ length: 4 }, () => client.chat(hi()));
    let healthyDone = false;
    void Promise.all(healthy).then(() => {
      healthyDone = true;
    });
    await vi.advanceTimersByTimeAsync(10);
    // Served while the busy calls sleep (5 s): they hold no slot.
    expect(healthyDone).toBe(true);
    expect(emulator.counters.requests.chat).toBe(8);
    await vi.advanceTimersByTimeAsync(5_000);
    await Promise.all(sleeping);
    expect(emulator.counters.requests.chat).toBe(12);
    expect(emulator.counters.maxInflight[key]).toBeLessThanOrEqual(4);
    expect(emulator.counters.concurrencyRejections).toBe(0);
  });

  it('a call sleeping on backoff holds no slot', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const gateway = await emulate();
    const client = clientOn(gateway, { retryBaseDelayMs: 4_000, maxConcurrency: 1 });
    const { emulator } = gateway;
    emulator.injectFault({ fault: 'bad_gateway', endpoint: 'chat', times: 1 });
    const call = client.chat(hi());
    await vi.advanceTimersByTimeAsync(10);
    expect(emulator.counters.requests.chat).toBe(1);
    expect(client.budget.active).toBe(0);
    // The client's own limit of 1 is free too: another call of it runs during the sleep.
    await vi.advanceTimersByTimeAsync(0);
    const other = client.translate({ input: 'hi', target_language: 'uk' });
    await vi.advanceTimersByTimeAsync(10);
    await other;
    await vi.advanceTimersByTimeAsync(4_000);
    expect((await call).response.choices).toHaveLength(1);
    expect(emulator.counters.requests.chat).toBe(2);
  });
});

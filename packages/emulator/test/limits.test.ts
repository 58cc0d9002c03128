import { describe, expect, it, vi } from 'vitest';
import { createEmulator, DEFAULT_KEYS } from '../src/index';
import { call, chat, errorBodyOf, userChat } from './helpers';

const open = userChat('community/streamer', 'hi', { stream: true });

describe('per-key concurrency', () => {
  it('allows 4 requests at once per key and refuses the 5th with 429 + Retry-After', async () => {
    const emulator = createEmulator();
    const running = await Promise.all([1, 2, 3, 4].map(() => chat(emulator, open)));
    expect(running.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const fifth = await call(emulator, '/models');
    expect(fifth.headers.get('retry-after')).toBe('1');
    expect(await errorBodyOf(fifth)).toMatchObject({
      status: 429,
      code: 'client_concurrency_exceeded',
    });
    expect(emulator.counters.concurrencyRejections).toBe(1);
    expect(emulator.counters.requests.models).toBe(1);

    // Another key has its own budget.
    expect((await call(emulator, '/models', { key: DEFAULT_KEYS.nofallback })).status).toBe(200);

    await running[0]!.text();
    expect((await call(emulator, '/models')).status).toBe(200);
    await Promise.all(running.slice(1).map((r) => r.body!.cancel()));
    expect(emulator.counters.inflight[DEFAULT_KEYS.full]).toBe(0);
    expect(emulator.counters.maxInflight[DEFAULT_KEYS.full]).toBe(4);
    expect(emulator.counters.maxInflightTotal).toBe(5); // 4 streams + the other key's request
  });

  it('counts requests waiting on latency as in flight', async () => {
    vi.useFakeTimers();
    try {
      const emulator = createEmulator({ latencyMs: 100 });
      const pending = [1, 2, 3, 4, 5].map(() => call(emulator, '/models'));
      await vi.advanceTimersByTimeAsync(100);
      const statuses = (await Promise.all(pending)).map((r) => r.status);
      expect(statuses.sort()).toEqual([200, 200, 200, 200, 429]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('follows maxConcurrentPerKey and retryAfterSeconds of the scenario', async () => {
    const emulator = createEmulator({ maxConcurrentPerKey: 1, retryAfterSeconds: 9 });
    const first = await chat(emulator, open);
    const second = await call(emulator, '/capabilities');
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toBe('9');
    await first.body!.cancel();
  });
});

describe('counters', () => {
  it('counts every request per endpoint, refused ones included, and resets in place', async () => {
    const emulator = createEmulator();
    const counters = emulator.counters;
    await call(emulator, '/models');
    await call(emulator, '/models', { key: null });
    await chat(emulator, userChat('community/nope', 'x'));
    await call(emulator, '/embeddings', { body: {} });
    await call(emulator, '/ocr', { body: {} });
    await call(emulator, '/audio/transcriptions', { body: {} });
    await call(emulator, '/translations', { body: {} });
    await call(emulator, '/capabilities');
    expect(counters.requests).toEqual({
      models: 2,
      capabilities: 1,
      chat: 1,
      embeddings: 1,
      ocr: 1,
      transcriptions: 1,
      translations: 1,
    });
    expect(counters.maxInflight[DEFAULT_KEYS.full]).toBe(1);
    emulator.resetCounters();
    expect(emulator.counters).toBe(counters);
    expect(Object.values(counters.requests).every((n) => n === 0)).toBe(true);
    expect(counters.maxInflightTotal).toBe(0);
    expect(counters.maxInflight).toEqual({});
    expect(counters.concurrencyRejections).toBe(0);
  });

  it('keeps requests that still run when reset, so they are released cleanly', async () => {
    const emulator = createEmulator();
    const running = await chat(emulator, open);
    emulator.resetCounters();
    expect(emulator.counters.maxInflight[DEFAULT_KEYS.full]).toBe(1);
    await running.text();
    expect(emulator.counters.inflight[DEFAULT_KEYS.full]).toBe(0);
  });

  it('reports the inflight of a model in the listing', async () => {
    const emulator = createEmulator();
    const running = await chat(emulator, open);
    const body = (await (await call(emulator, '/models')).json()) as {
      data: { id: string; inflight: number }[];
    };
    expect(body.data.find((m) => m.id === 'community/streamer')!.inflight).toBe(1);
    expect(body.data.find((m) => m.id === 'community/general')!.inflight).toBe(0);
    await running.body!.cancel();
  });
});

describe('latency and deadline', () => {
  it('answers 504 request_timeout when latency passes the deadline', async () => {
    vi.useFakeTimers();
    try {
      const emulator = createEmulator({ latencyMs: 10_000, requestTimeoutMs: 1_000 });
      const pending = call(emulator, '/models');
      await vi.advanceTimersByTimeAsync(1_000);
      expect(await errorBodyOf(await pending)).toMatchObject({
        status: 504,
        code: 'request_timeout',
      });
      expect(emulator.counters.inflight[DEFAULT_KEYS.full]).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('defaults the deadline to 5 minutes', () => {
    expect(createEmulator().scenario.requestTimeoutMs).toBe(300_000);
  });

  it('waits a latency drawn from {min, max}', async () => {
    vi.useFakeTimers();
    try {
      const emulator = createEmulator({ latencyMs: { min: 200, max: 300 } });
      let done = false;
      const pending = call(emulator, '/models').then(() => {
        done = true;
      });
      await vi.advanceTimersByTimeAsync(199);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(101);
      await pending;
      expect(done).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('rejects with an AbortError when the client aborts during latency', async () => {
    const emulator = createEmulator({ latencyMs: 60_000 });
    const controller = new AbortController();
    const pending = call(emulator, '/models', { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(emulator.counters.inflight[DEFAULT_KEYS.full]).toBe(0);
  });
});

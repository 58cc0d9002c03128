// Issue 45.2: a request we cut (a stall, a hedge's loser, a stream cancelled mid-body) is still
// counted by the gateway until it notices the disconnect. Its slot is kept CUT_REQUEST_GRACE_MS
// longer, so the next request (the call's next hop, a queued call) never makes a fifth at the
// gateway. The gateway here notices a disconnect 30 ms late, as one behind a proxy does: the
// emulator's own in-process fetch would notice at once and hide the race.
import type { Emulator } from '@infergate/emulator';
import { drivenClock, emulate } from '@infergate/emulator/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CUT_REQUEST_GRACE_MS } from '../src/http/slot-source';
import { createGatewayClient } from '../src/index';
import { DEFAULT_KEYS, hi } from './helpers';

const NOTICE_MS = 30;

/** `emulator.fetch` behind a proxy that passes a disconnect on NOTICE_MS late. */
function lateNoticing(emulator: Emulator): typeof fetch {
  return async (input, init) => {
    const upstream = new AbortController();
    const late = () => setTimeout(() => upstream.abort(init?.signal?.reason), NOTICE_MS);
    init?.signal?.addEventListener('abort', late, { once: true });
    const response = await emulator.fetch(new Request(input, { ...init, signal: upstream.signal }));
    const reader = response.body?.getReader();
    if (!reader) return response;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await reader.read().catch(() => ({ done: true as const, value: undefined }));
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      cancel(reason) {
        setTimeout(() => reader.cancel(reason).catch(() => {}), NOTICE_MS);
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('a cut request keeps its slot until the gateway can have seen the close', () => {
  it('the grace outlasts the late notice of this test', () => {
    expect(CUT_REQUEST_GRACE_MS).toBeGreaterThan(NOTICE_MS);
  });

  it('8 calls on a key of 4 whose first model stalls fail over: never a fifth request, no 429', async () => {
    // The stall limit, the late notice and the grace are the subject: fake timers move them all
    // (core reads performance.now()), so the fallback's first chunk never races a loaded machine.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const { emulator } = await emulate({
      scenario: {
        streamChunkDelayMs: 1,
        faults: [{ fault: 'stall_first_chunk', model: 'community/general', ms: 60_000 }],
      },
    });
    const client = createGatewayClient({
      baseURL: 'https://late-notice.test/v1',
      apiKey: DEFAULT_KEYS.full,
      fetch: lateNoticing(emulator),
      maxRetries: 0,
    });
    const options = { fallbackModels: ['community/streamer'], firstChunkTimeoutMs: 300 };
    let settled = false;
    const calls = Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const stream = await client.chatStream(hi('community/general', `call ${i}`), options);
        return (await stream.result()).text;
      }),
    ).finally(() => {
      settled = true;
    });
    // Moved 10 ms at a time (the streams' work runs between the steps) until all 8 settle (about
    // 150 s of the clock here). Bounded at 10 min of it: a hang fails at the last step, naming the
    // wait, not at the suite's timeout.
    for (let moved = 10; !settled && moved < 600_000; moved += 10) {
      await vi.advanceTimersByTimeAsync(10);
    }
    const texts = await drivenClock(vi).settledAfter(10, calls);
    expect(texts).toEqual(Array.from({ length: 8 }, (_, i) => `Echo: call ${i}`));
    expect(emulator.counters.concurrencyRejections).toBe(0);
    expect(emulator.counters.maxInflight[DEFAULT_KEYS.full]).toBeLessThanOrEqual(4);
  });

  it('a stream read to [DONE] is not cut: its key slot comes back at once, though the body ends later', async () => {
    const { emulator } = await emulate({ scenario: { streamChunkDelayMs: 1 } });
    // A gateway (or proxy) that ends the response body after its last event only when the test
    // lets it (`endBody`), after the checks: the body ends later however fast the machine.
    let endBody!: () => void;
    const bodyMayEnd = new Promise<void>((resolve) => {
      endBody = resolve;
    });
    const lateEnd: typeof fetch = async (input, init) => {
      const response = await emulator.fetch(new Request(input, init));
      const reader = response.body?.getReader();
      if (!reader) return response;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const next = await reader.read();
          if (!next.done) return controller.enqueue(next.value);
          await bodyMayEnd;
          controller.close();
        },
      });
      return new Response(body, { status: response.status, headers: response.headers });
    };
    const client = createGatewayClient({
      baseURL: 'https://late-end.test/v1',
      apiKey: DEFAULT_KEYS.full,
      fetch: lateEnd,
    });
    const stream = await client.chatStream(hi('community/general', 'done'), {
      capabilities: ['chat', 'streaming'],
    });
    expect((await stream.result()).text).toBe('Echo: done');
    // (A cut would keep the key's slot CUT_REQUEST_GRACE_MS: every stream would hold it longer.)
    expect(client.budget.active).toBe(0);
    expect(client.budget.isIdle).toBe(true);
    endBody();
  });

  it('a stream that ended before any content was read to its end: not cut, its slot comes back at once', async () => {
    const { emulator } = await emulate();
    // A gateway whose streams' bodies end cleanly before any content (a role-only chunk).
    const empty = 'data: {"choices":[{"index":0,"delta":{"role":"assistant"}}]}\n\n';
    const endsEmpty: typeof fetch = async (input, init) => {
      const response = await emulator.fetch(new Request(input, init));
      if (!response.headers.get('content-type')?.includes('text/event-stream')) return response;
      await response.body?.cancel();
      return new Response(empty, { status: 200, headers: response.headers });
    };
    const client = createGatewayClient({
      baseURL: 'https://ends-empty.test/v1',
      apiKey: DEFAULT_KEYS.full,
      fetch: endsEmpty,
      maxRetries: 0,
    });
    // (A steered stream: its first content is awaited inside the attempt.)
    const error = await client
      .chatStream(hi('community/general', 'empty'), { firstChunkTimeoutMs: 60_000 })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'network_error' });
    expect(client.budget.active).toBe(0);
    expect(client.budget.isIdle).toBe(true);
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEmulator, DEFAULT_KEYS, startEmulator } from '../src/index';
import { caught, drivenClock, untilIdle, untilInflight } from '../src/testing/index';
import { BASE, errorBodyOf } from './helpers';
import { openRawConnection, postHead } from './raw-connection';

// Spec §8: a request lasts at most its time limit, its upload included. A client that sends half a
// body and stalls used to hold its key's slot for as long as its connection stayed open.

const clock = drivenClock(vi);
const key = DEFAULT_KEYS.full;

afterEach(() => {
  vi.useRealTimers();
});

/** A chat body that sends its first bytes, then nothing; `cancelled` once the emulator lets go. */
function stalledBody() {
  const state = { cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"model":"community/general",'));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

function post(
  emulator: ReturnType<typeof createEmulator>,
  body: ReadableStream,
  signal?: AbortSignal,
) {
  return emulator.fetch(`${BASE}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body,
    signal,
    duplex: 'half',
  } as RequestInit);
}

describe('a stalled request upload', () => {
  it('is answered 504 request_timeout when requestTimeoutMs passes, its body cancelled and its slot freed', async () => {
    clock.drive();
    const emulator = createEmulator({ requestTimeoutMs: 1000, latencyMs: 0 });
    const { stream, state } = stalledBody();
    const answer = post(emulator, stream);
    await untilInflight(emulator, 1);
    const response = await clock.settledAfter(1000, answer);
    expect(await errorBodyOf(response)).toMatchObject({ status: 504, code: 'request_timeout' });
    expect(state.cancelled).toBe(true);
    expect(emulator.counters.inflight[key]).toBe(0);
  });

  it('ends when its client aborts: the call rejects, the body is cancelled, the slot is freed', async () => {
    const emulator = createEmulator({ latencyMs: 0 });
    const { stream, state } = stalledBody();
    const controller = new AbortController();
    const answer = post(emulator, stream, controller.signal);
    await untilInflight(emulator, 1);
    controller.abort();
    expect((await caught(answer)).name).toBe('AbortError');
    await untilIdle(emulator);
    expect(state.cancelled).toBe(true);
  });

  // Real time, over the HTTP server: the deadline is 50 ms, and the test waits for the answer's
  // bytes on the socket (an event), not for a delay.
  it('over HTTP: a client that stops sending half-way gets its 504 and its slot back', async () => {
    const server = await startEmulator({ scenario: { requestTimeoutMs: 50, latencyMs: 0 } });
    try {
      const connection = await openRawConnection(server.url);
      const head = postHead('/v1/chat/completions', 1000, { authorization: `Bearer ${key}` });
      connection.write(`${head}{"model":"community/general",`);
      const received = await connection.until((text) => text.includes('request_timeout'));
      expect(received).toMatch(/^HTTP\/1\.1 504 /);
      await untilIdle(server.emulator);
      connection.destroy();
    } finally {
      await server.close();
    }
  });
});

// core README (a stream's end) through streamText: the caller's abortSignal aborting right after
// the adapter took core's finish event, while the gateway still owes the usage (OpenAI's order:
// a usage chunk after the finish, here stalled). streamText ends at once with its `abort` part and
// `onAbort` (the AI SDK's own rule: nothing after an abort); core's call is not cut by it: its
// `done` event carries the usage when it comes within a cut request's grace (100 ms), and ends ok
// without it after the grace. The stall and the grace are the subject: the clock is driven.

import type { GatewayEvent } from '@infergate/core';
import { drivenClock } from '@infergate/emulator/testing';
import { streamText } from 'ai';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { providersOnMsw } from './providers';

const MODEL = 'community/general';
// The openai dialect sends the usage in a chunk of its own after the finish chunk.
const { emulated, gateway } = await providersOnMsw({ models: { [MODEL]: { dialect: 'openai' } } });

// A first answer with a stall limit, on real timers: core's steering loaded before a test fakes them.
const { drive: driveClock, settledAfter } = drivenClock(vi);
beforeAll(async () => {
  await streamText({ model: gateway()(MODEL, { chunkTimeoutMs: 60_000 }), prompt: 'hi' }).text;
});
afterEach(() => {
  vi.useRealTimers();
});

/** For 'hi': role, "Echo: ", "hi", the finish chunk; then the stall, then the usage and [DONE]. */
const CHUNKS_TO_FINISH = 4;

/**
 * streamText of 'hi' whose caller aborts once it sees the raw finish chunk (the adapter took
 * core's finish event with it, in the same batch), the usage stalled `stallMs` after it. `done`:
 * core's `done` event of the call, once sent.
 */
async function abortedAfterFinish(stallMs: number) {
  emulated.emulator.injectFault({
    fault: 'stall_stream',
    model: MODEL,
    afterChunks: CHUNKS_TO_FINISH,
    ms: stallMs,
  });
  driveClock();
  let ended: (event: GatewayEvent) => void = () => {};
  const done = new Promise<GatewayEvent>((resolve) => {
    ended = resolve;
  });
  const abort = new AbortController();
  const seen = { onFinish: false, onAbort: false };
  const result = streamText({
    model: gateway({
      onEvent: (event) => {
        if (event.type === 'done' && event.operation === 'chat') ended(event);
      },
    })(MODEL),
    prompt: 'hi',
    abortSignal: abort.signal,
    includeRawChunks: true,
    onFinish: () => {
      seen.onFinish = true;
    },
    onAbort: () => {
      seen.onAbort = true;
    },
  });
  const parts: string[] = [];
  for await (const part of result.fullStream) {
    parts.push(part.type);
    if (part.type === 'raw' && JSON.stringify(part.rawValue).includes('"finish_reason":"stop"')) {
      abort.abort(new Error('the user left'));
    }
  }
  return { parts, seen, done };
}

describe('streamText aborted right after core handed out the finish', () => {
  it('ends with its abort part, the clock not moved; core reads on: its done event has the usage', async () => {
    const { parts, seen, done } = await abortedAfterFinish(20);
    expect(parts.at(-1)).toBe('abort');
    expect(parts).not.toContain('finish');
    expect(seen).toEqual({ onFinish: false, onAbort: true });
    // The usage comes 20 ms after the abort: within the grace.
    expect(await settledAfter(20, done)).toMatchObject({
      ok: true,
      finishReason: 'stop',
      usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 },
    });
    await emulated.untilIdle();
  });

  it('the usage later than the grace: core ends the call ok without it, 100 ms after the abort', async () => {
    const { parts, done } = await abortedAfterFinish(60_000);
    expect(parts.at(-1)).toBe('abort');
    const event = await settledAfter(100, done);
    expect(event).toMatchObject({ ok: true, finishReason: 'stop' });
    expect(event).not.toHaveProperty('usage');
    expect(emulated.counters.streamsCancelled).toBe(1);
  });
});

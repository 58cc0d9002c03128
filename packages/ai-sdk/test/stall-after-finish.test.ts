// chunkTimeoutMs (docs/gateway-protocol.md §4.7) once the answer is whole: a silence after the
// finish_reason (the usage chunk or [DONE] late) ends streamText's answer as finished, not with
// `timeout`. The limit is the subject: the test drives the clock.

import { drivenClock } from '@infergate/emulator/testing';
import { streamText } from 'ai';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { providersOnMsw } from './providers';

const { emulated, gateway } = await providersOnMsw();

/** Far longer than the test: a silence only our limit can end. */
const FOREVER = 60_000;

// A first answer with a stall limit, on real timers: core's steering loaded before a test fakes them.
const driveClock = drivenClock(vi).drive;
beforeAll(async () => {
  const model = gateway()('community/general', { chunkTimeoutMs: 60_000 });
  await streamText({ model, prompt: 'hi' }).text;
});
afterEach(() => {
  vi.useRealTimers();
});

describe('chunkTimeoutMs after the finish_reason', () => {
  it('a stall where the usage was due ends the stream with its text and finish reason, no error', async () => {
    // Role, three pieces of text, the finish chunk: then silence before the usage chunk.
    emulated.emulator.injectFault({
      fault: 'stall_stream',
      model: 'community/general',
      afterChunks: 5,
      ms: FOREVER,
    });
    driveClock();
    const errors: unknown[] = [];
    const result = streamText({
      model: gateway()('community/general', { chunkTimeoutMs: 50 }),
      prompt: 'hello there',
      maxRetries: 0,
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    let settled = false;
    const parts = (async () => {
      const types: string[] = [];
      for await (const part of result.fullStream) types.push(part.type);
      return types;
    })().finally(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(50);
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(true);
    expect(await parts).not.toContain('error');
    expect(errors).toEqual([]);
    expect(await result.text).toBe('Echo: hello there');
    expect(await result.finishReason).toBe('stop');
  });
});

import { emulate } from '@infergate/emulator/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CallScope } from '../src/call/call-scope';
import { MAX_TIMEOUT_MS } from '../src/call/timer-limit';
import { clientOn, hi } from './helpers';

// Timers take at most 2^31 − 1 ms: Node fires a longer one after 1 ms (with a
// TimeoutOverflowWarning). A call's deadline is clamped once, in CallScope, and the shared
// deadline timer's delay too: a deadline of 2^31 ms or more must not end a call at once.

afterEach(() => {
  vi.restoreAllMocks();
});

/** The delays every setTimeout is given while `run` runs, and the process warnings it caused. */
async function timersDuring(
  run: () => Promise<void>,
): Promise<{ delays: number[]; warnings: string[] }> {
  const delays: number[] = [];
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(warning.name);
  process.on('warning', onWarning);
  const real = globalThis.setTimeout;
  vi.spyOn(globalThis, 'setTimeout').mockImplementation(((
    callback: (...args: unknown[]) => void,
    ms?: number,
    ...args: unknown[]
  ) => {
    delays.push(Number(ms ?? 0));
    return real(callback, ms, ...args);
  }) as typeof setTimeout);
  try {
    await run();
    // (Node emits its warning on the next tick.)
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('warning', onWarning);
    vi.restoreAllMocks();
  }
  return { delays, warnings };
}

describe('a deadline of 2^31 ms or more', () => {
  it('is clamped: no timer longer than 2^31 − 1 ms, no TimeoutOverflowWarning, the call answered', async () => {
    const gateway = await emulate({ scenario: { latencyMs: 20 } });
    const client = clientOn(gateway, { timeoutMs: 2 ** 31 });
    const { delays, warnings } = await timersDuring(async () => {
      // The first call reads the catalog under the same deadline.
      expect((await client.chat(hi())).answer.text).toBe('Echo: hello there');
      for (const timeoutMs of [2 ** 31, 2 ** 40, Number.MAX_SAFE_INTEGER]) {
        expect((await client.chat(hi(), { timeoutMs })).answer.text).toBe('Echo: hello there');
        const stream = await client.chatStream(hi(), { timeoutMs });
        expect((await stream.result()).text).toBe('Echo: hello there');
        // A steered call: one deadline over its plan and walk, its stall clock clamped too.
        const steered = await client.chat(hi(), {
          timeoutMs,
          fallbackModels: ['community/plain'],
          firstChunkTimeoutMs: timeoutMs,
        });
        expect(steered.servedModel).toBe('community/general');
      }
    });
    expect(delays.length).toBeGreaterThan(0);
    expect(delays.filter((ms) => ms > MAX_TIMEOUT_MS)).toEqual([]);
    expect(warnings).not.toContain('TimeoutOverflowWarning');
  });

  it('is clamped in CallScope itself, also with a timer of its own (request-bound runtimes)', async () => {
    for (const perCallTimer of [false, true]) {
      const { delays, warnings } = await timersDuring(async () => {
        const scope = new CallScope(undefined, 2 ** 40, perCallTimer);
        // Not ended by a 1 ms timer set after the scope's: Node runs timers of one delay in the
        // order they were set, and fires an overflowing one after 1 ms (an order, not a clock).
        await new Promise((resolve) => setTimeout(resolve, 1));
        expect(scope.ended).toBe(false);
        expect(scope.remainingMs).toBeGreaterThan(MAX_TIMEOUT_MS - 60_000);
        scope.dispose();
      });
      expect(delays.filter((ms) => ms > MAX_TIMEOUT_MS)).toEqual([]);
      expect(warnings).not.toContain('TimeoutOverflowWarning');
    }
  });
});

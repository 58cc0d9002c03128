import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEmulator, DEFAULT_KEYS, type ScenarioInput } from '../src/index';
import { chat, userChat } from './helpers';

/** Past the longest delay one `setTimeout` holds (2^31 - 1 ms): Node fires a longer one at once. */
const LONG_MS = 2 ** 31;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/**
 * Sends one chat request and lets a minute of fake time pass: the request must still be held
 * (unanswered, its key's slot taken), then the caller's abort ends it and frees the slot.
 */
async function expectHeld(scenario: ScenarioInput, body = userChat('community/general', 'hi')) {
  const emulator = createEmulator({ requestTimeoutMs: 2 ** 33, ...scenario });
  const controller = new AbortController();
  let settled = false;
  const pending = chat(emulator, body, { signal: controller.signal }).finally(() => {
    settled = true;
  });
  await vi.advanceTimersByTimeAsync(60_000);
  expect(settled).toBe(false);
  expect(emulator.counters.inflight[DEFAULT_KEYS.full]).toBe(1);
  controller.abort();
  await expect(pending).rejects.toThrow(/abort/i);
  expect(emulator.counters.inflight[DEFAULT_KEYS.full]).toBe(0);
}

describe('a delay of 2^31 ms or more is held, not answered at once (issue 53, defect 16)', () => {
  it('latencyMs', async () => {
    await expectHeld({ latencyMs: LONG_MS });
  });

  it("a non-streamed answer's firstChunkMs", async () => {
    await expectHeld({ models: { 'community/general': { firstChunkMs: LONG_MS } } });
  });

  it("a streamed answer's firstChunkMs (its headers come at once, its first event never)", async () => {
    const emulator = createEmulator({
      requestTimeoutMs: 2 ** 33,
      models: { 'community/general': { firstChunkMs: LONG_MS } },
    });
    const response = await chat(emulator, userChat('community/general', 'hi', { stream: true }));
    const reader = response.body!.getReader();
    let settled = false;
    const first = reader.read().finally(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(settled).toBe(false);
    await reader.cancel();
    await first;
  });
});

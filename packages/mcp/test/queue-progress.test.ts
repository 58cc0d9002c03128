/**
 * A tool call waiting for one of the key's slots keeps telling so (`queueProgressMs`), so that a
 * client resetting its timeout on progress (the MCP SDK's `resetTimeoutOnProgress`) keeps waiting
 * however long the key stays busy; the reminders stop once it has its slot, or is cancelled. The
 * reminder's timer is the test's: it runs it itself, no wall clock waited on.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Harness, startHarness, textOf } from './harness';

/** A reminder interval no other timer of the server uses: its timer is the one found. */
const QUEUE_PROGRESS_MS = 4_321;

let harness: Harness;
let client: Client;
beforeAll(async () => {
  harness = await startHarness({ server: { queueProgressMs: QUEUE_PROGRESS_MS } });
  client = await harness.connect();
});
afterAll(() => harness.close());
afterEach(() => vi.restoreAllMocks());

/** The reminder timers the server armed, run by the test; which of them were cleared. */
function manualReminders() {
  const armed: { beat: () => void; handle: object }[] = [];
  const cleared: unknown[] = [];
  const realSetInterval = globalThis.setInterval;
  const realClearInterval = globalThis.clearInterval;
  vi.spyOn(globalThis, 'setInterval').mockImplementation(((
    beat: () => void,
    ms?: number,
    ...rest: unknown[]
  ) => {
    if (ms !== QUEUE_PROGRESS_MS) return realSetInterval(beat, ms, ...rest);
    const handle = { unref: () => handle };
    armed.push({ beat, handle });
    return handle;
  }) as typeof setInterval);
  vi.spyOn(globalThis, 'clearInterval').mockImplementation((handle) => {
    cleared.push(handle);
    realClearInterval(handle as Parameters<typeof clearInterval>[0]);
  });
  return { armed, cleared };
}

/** Four translate calls held at the gateway: the key's 4 slots taken until `release()`. */
async function keyBusy() {
  const release = harness.gateway.emulator.holdAnswers('translations');
  const busy = Array.from({ length: 4 }, (_, i) =>
    client.callTool({ name: 'translate', arguments: { text: `busy ${i}`, target_language: 'de' } }),
  );
  await harness.gateway.until((c) => c.inflight[harness.gateway.apiKey] === 4);
  return { release, busy };
}

/** A hang guard for the waits on the server's messages (they come within milliseconds). */
const WAIT_MS = 10_000;
const WAITING = "translation: waiting for one of the gateway key's slots";
const STILL = "translation: still waiting for one of the gateway key's slots";

describe('a call waiting for a slot', () => {
  it('sends progress every queueProgressMs until it has its slot', async () => {
    const { armed, cleared } = manualReminders();
    const { release, busy } = await keyBusy();
    const steps: { progress: number; message?: string }[] = [];
    const queued = client.callTool(
      { name: 'translate', arguments: { text: 'queued', target_language: 'de' } },
      undefined,
      { resetTimeoutOnProgress: true, onprogress: (step) => steps.push(step) },
    );
    await vi.waitFor(() => expect(steps.map((s) => s.message)).toEqual([WAITING]), {
      timeout: WAIT_MS,
    });
    expect(armed).toHaveLength(1);
    for (let i = 0; i < 3; i++) armed[0]!.beat();
    await vi.waitFor(() => expect(steps).toHaveLength(4), { timeout: WAIT_MS });
    expect(steps.map((s) => s.message)).toEqual([WAITING, STILL, STILL, STILL]);

    release();
    expect(textOf(await queued)).toBe('[de] queued');
    await Promise.all(busy);
    // Its slot stopped the reminders: the timer is cleared, and a late beat tells nothing.
    expect(cleared).toContain(armed[0]!.handle);
    armed[0]!.beat();
    await client.ping();
    expect(steps.map((s) => s.message)).toEqual([
      WAITING,
      STILL,
      STILL,
      STILL,
      'translation: sent to the gateway',
      'translation: answered',
    ]);
    // MCP: progress grows with every notification.
    expect(steps.map((s) => s.progress)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('stops the reminders when the waiting call is cancelled', async () => {
    const { armed, cleared } = manualReminders();
    const sentBefore = harness.gateway.emulator.counters.requests.translations ?? 0;
    const { release, busy } = await keyBusy();
    const steps: string[] = [];
    const controller = new AbortController();
    const queued = client.callTool(
      { name: 'translate', arguments: { text: 'never sent', target_language: 'de' } },
      undefined,
      { signal: controller.signal, onprogress: (step) => steps.push(step.message ?? '') },
    );
    await vi.waitFor(() => expect(steps).toEqual([WAITING]), { timeout: WAIT_MS });
    controller.abort('changed my mind');
    await expect(queued).rejects.toThrow();
    await vi.waitFor(() => expect(cleared).toContain(armed[0]!.handle), { timeout: WAIT_MS });
    release();
    await Promise.all(busy);
    // The cancelled call was never sent: only the four that held the key were.
    expect(harness.gateway.emulator.counters.requests.translations).toBe(sentBefore + 4);
  });
});

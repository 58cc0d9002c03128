// One embedMany call (docs/gateway-protocol.md §2.5 the call's deadline, §6 its batches): one
// deadline over its engine look-up and its batches; its batches stop each other without one
// listener per batch on a shared signal.
import { emulate } from '@infergate/emulator/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clientOn, timedOutAt } from './helpers';

afterEach(() => {
  vi.useRealTimers();
});

const ENGINE = 'all-minilm-l6-v2';

describe('an embedMany call', () => {
  it.each([
    [
      'embedMany',
      (client: ReturnType<typeof clientOn>, timeoutMs: number) =>
        client.embedMany(['a', 'b'], { model: ENGINE, timeoutMs }),
    ],
    [
      'embed',
      (client: ReturnType<typeof clientOn>, timeoutMs: number) =>
        client.embed({ input: 'a', model: ENGINE }, { timeoutMs }),
    ],
  ] as const)("%s's timeout counts its engine look-up: one deadline", async (_name, send) => {
    const gateway = await emulate();
    const { emulator } = gateway;
    // The service calls' code loaded first (its import is no step of the call's deadline).
    await clientOn(gateway).embeddingEngines();
    emulator.resetCounters();
    // The deadline is the subject: fake timers move it (core reads performance.now()).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    emulator.injectFault({ fault: 'slow_headers', endpoint: 'capabilities', ms: 1_500 });
    emulator.injectFault({ fault: 'slow_headers', endpoint: 'embeddings', ms: 20_000 });
    const client = clientOn(gateway);
    await timedOutAt(2_000, () => send(client, 2_000));
    expect(emulator.counters.requests.capabilities).toBe(1);
    expect(emulator.counters.requests.embeddings).toBe(1);
    // (Left to end: the slow answers would otherwise keep the test's timers busy.)
    await vi.advanceTimersByTimeAsync(20_000);
  });

  it('of more than 10 batches puts no more than 10 abort listeners on any signal', async () => {
    // Node warns (MaxListenersExceededWarning) past 10 listeners on one signal: counted here, as
    // vitest's workers do not emit that warning.
    const listeners = new Map<EventTarget, number>();
    let most = 0;
    const add = vi.spyOn(AbortSignal.prototype, 'addEventListener');
    const remove = vi.spyOn(AbortSignal.prototype, 'removeEventListener');
    add.mockImplementation(function (this: AbortSignal, ...args) {
      const count = (listeners.get(this) ?? 0) + 1;
      listeners.set(this, count);
      most = Math.max(most, count);
      return EventTarget.prototype.addEventListener.apply(this, args);
    });
    remove.mockImplementation(function (this: AbortSignal, ...args) {
      listeners.set(this, (listeners.get(this) ?? 1) - 1);
      return EventTarget.prototype.removeEventListener.apply(this, args);
    });
    try {
      const gateway = await emulate();
      const client = clientOn(gateway);
      // Answers held: every batch is queued or in flight at once, as against a real network.
      const release = gateway.emulator.holdAnswers('embeddings');
      const texts = Array.from({ length: 64 * 12 }, (_, i) => `text ${i}`);
      const call = client.embedMany(texts, {
        model: ENGINE,
        signal: new AbortController().signal,
      });
      await gateway.untilRequests(4, { endpoint: 'embeddings' });
      release();
      expect(await call).toHaveLength(texts.length);
      expect(gateway.emulator.counters.requests.embeddings).toBe(12);
    } finally {
      add.mockRestore();
      remove.mockRestore();
    }
    expect(most).toBeLessThanOrEqual(10);
  });
});

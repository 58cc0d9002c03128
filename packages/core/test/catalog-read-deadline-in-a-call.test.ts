import { emulate } from '@infergate/emulator/testing';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { failedReadPath } from '../src/internal';
import { caught, clientOn, hi, timedOutAt } from './helpers';

// docs/gateway-protocol.md §3, §10: a chat call's deadline or abort that ends it while its gate
// reads the catalog builds the call's own error; it keeps the read's path (catalog/failed-read.ts),
// so an adapter reports the failure against `GET /models`, not a chat request never sent.
const MODEL = 'community/general';

beforeAll(async () => {
  // (Core loads its steering on a steered call's first use; a module load waits on real timers.)
  await clientOn(await emulate()).chat(hi(MODEL), { fallbackModels: ['community/tools'] });
});

afterEach(() => {
  vi.useRealTimers();
});

describe("a chat call ended during its gate's catalog read", () => {
  it.each([
    ['one model', {}],
    ['with fallbackModels (the steered path)', { fallbackModels: ['community/tools'] }],
  ])('%s: its deadline is marked with /models', async (_, options) => {
    // The deadline is the subject: fake timers move it (core reads performance.now()).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const gateway = await emulate();
    gateway.emulator.injectFault({ fault: 'slow_headers', endpoint: 'models', ms: 20_000 });
    const client = clientOn(gateway);
    const error = await timedOutAt(1_000, () =>
      client.chat(hi(MODEL), { timeoutMs: 1_000, ...options }),
    );
    expect(error.code).toBe('timeout');
    expect(failedReadPath(error)).toBe('/models');
    expect(gateway.emulator.counters.requests.chat).toBe(0);
    // (Left to end: the shared read's own deadline would otherwise keep the test's timers busy.)
    await vi.advanceTimersByTimeAsync(60_000);
  });

  it('its abort is marked with /models', async () => {
    const gateway = await emulate();
    const release = gateway.emulator.holdAnswers('models');
    const client = clientOn(gateway);
    const controller = new AbortController();
    const failed = caught(() => client.chat(hi(MODEL), { signal: controller.signal }));
    await gateway.untilRequests(1, { endpoint: 'models' });
    controller.abort();
    const error = await failed;
    release();
    expect(error.code).toBe('aborted');
    expect(failedReadPath(error)).toBe('/models');
  });
});

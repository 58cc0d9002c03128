import { afterEach, describe, expect, it, vi } from 'vitest';
import { RECHECK_MIN_MS } from '../src/catalog/catalog-watch';
import { caught, driveClock, harness, hi, settledAfter } from './helpers';

// docs/gateway-protocol.md §3.3: a catalog watch (client.watchCatalog) reads the services again
// when a service call of its client is answered `provider_unavailable` — at once, then at most once
// every RECHECK_MIN_MS (one read due at most, whatever the number of failures meanwhile) — and not
// for a chat call's, nor once closed. The interval is the subject: the test drives the clock (core's
// timers and its monotonic clock), it never waits on it.

afterEach(() => {
  vi.useRealTimers();
});

const translation = { input: 'hello', target_language: 'uk' };

/** A client whose translations fail with `provider_unavailable`, watched (no schedule). */
async function watchedWhileTranslationFails() {
  const { client, emulator } = await harness({ maxRetries: 0 });
  // (The service calls' code loads on first use: loaded on real timers; the models list cached.)
  await client.translate(translation);
  await client.chat(hi());
  const lists: unknown[] = [];
  const watch = client.watchCatalog(0, (services) => lists.push(services));
  emulator.injectFault({ fault: 'service_unavailable', endpoint: 'translations' });
  driveClock();
  const reads = () => emulator.counters.requests.capabilities ?? 0;
  /** A translation, failed, once the clock moved `ms`. */
  const failedAfter = async (ms: number) => {
    const error = await settledAfter(
      ms,
      caught(() => client.translate(translation)),
    );
    expect(error.code).toBe('provider_unavailable');
  };
  return { client, emulator, watch, lists, reads, failedAfter };
}

describe('the services re-read a service call’s provider_unavailable asks for', () => {
  it('is one read for a burst of failures, one more once RECHECK_MIN_MS has passed', async () => {
    const { watch, lists, reads, failedAfter } = await watchedWhileTranslationFails();
    // Ten failures within the interval, one after another.
    for (let i = 0; i < 10; i++) await failedAfter((RECHECK_MIN_MS - 1_000) / 10);
    expect(reads()).toBe(1);
    expect(lists).toHaveLength(1);

    // The failures after the first read left one read due, once the interval has passed.
    await settledAfter(1_000, Promise.resolve());
    expect(reads()).toBe(2);
    // And nothing more without a new failure.
    await settledAfter(RECHECK_MIN_MS * 3, Promise.resolve());
    expect(reads()).toBe(2);

    // A failure past the interval is read again at once.
    await failedAfter(0);
    await settledAfter(0, Promise.resolve());
    expect(reads()).toBe(3);
    expect(lists).toHaveLength(3);
    watch.close();
  });

  it('is not asked by a chat call’s provider_unavailable (no news of the services)', async () => {
    const { client, emulator, watch, reads } = await watchedWhileTranslationFails();
    // The model goes offline at the gateway (the cached models list still has it).
    emulator.injectFault({ fault: 'model_offline', model: 'community/general' });
    const error = await settledAfter(
      100,
      caught(() => client.chat(hi())),
    );
    expect(error.code).toBe('provider_unavailable');
    await settledAfter(RECHECK_MIN_MS * 2, Promise.resolve());
    expect(reads()).toBe(0);
    watch.close();
  });

  it('stops with the watch: a read due is dropped, a later failure reads nothing', async () => {
    const { watch, reads, failedAfter } = await watchedWhileTranslationFails();
    await failedAfter(0);
    await failedAfter(0); // a read due in RECHECK_MIN_MS
    await settledAfter(0, Promise.resolve());
    expect(reads()).toBe(1);
    watch.close();
    await settledAfter(RECHECK_MIN_MS * 2, Promise.resolve());
    await failedAfter(0);
    await settledAfter(RECHECK_MIN_MS * 2, Promise.resolve());
    expect(reads()).toBe(1);
  });
});

// The setup of the tests of `embedMany`'s retries (one `doEmbed` is up to 32 gateway requests):
// the providers on msw, warmed on real timers, and a way to fail embeddings requests.
import type { FaultRule } from '@infergate/emulator';
import { drivenClock } from '@infergate/emulator/testing';
import { embedMany } from 'ai';
import { afterEach, beforeAll, vi } from 'vitest';
import { providersOnMsw } from './providers';

/** An engine whose requests take 64 short texts each. */
export const ENGINE = 'all-minilm-l6-v2';

/** `count` short texts. */
export const values = (count: number) => Array.from({ length: count }, (_, i) => `text ${i}`);

/** Call at a test file's top level: its hooks warm the call up once and restore real timers after each test. */
export async function embeddingRetries() {
  const providers = await providersOnMsw({});
  const { emulator, gateway } = providers;
  beforeAll(async () => {
    // Core's and the call's code loaded on real timers (a module load waits on timers).
    await embedMany({ model: gateway().embeddingModel(ENGINE), values: ['warm'] });
    emulator.resetCounters();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  return {
    ...providers,
    clock: drivenClock(vi),
    /** The embeddings requests the emulator has seen. */
    requests: () => emulator.counters.requests.embeddings,
    /** Embeddings requests failing with `rule` (a 429 unless it names its fault), Retry-After 0 unless said. */
    failing: ({
      fault = 'rate_limit',
      ...rule
    }: Omit<FaultRule, 'fault'> & { fault?: FaultRule['fault'] }) => {
      // Retry-After 0 on the 429s only: the emulator refuses `retryAfter` with a fault that has no
      // use for it (a 503 would wait by it instead of the backoff).
      const retryAfter = fault === 'rate_limit' || fault === 'model_busy' ? { retryAfter: 0 } : {};
      emulator.injectFault({ fault, endpoint: 'embeddings', ...retryAfter, ...rule });
    },
  };
}

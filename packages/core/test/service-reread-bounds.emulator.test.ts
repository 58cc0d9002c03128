import { caught, emulate } from '@infergate/emulator/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isGatewayError } from '../src/index';
import { clientOn, engineBackAfterCaching, hi, settledAfter } from './helpers';

// docs/gateway-protocol.md §3.3: a service call the cached list would refuse reads the services
// list again once, and that read is bounded: the models list is left alone, one re-read per call,
// under the call's one deadline, and a failed re-read leaves the cached refusal standing.

afterEach(() => {
  vi.useRealTimers();
});

const translation = { input: 'hello', target_language: 'uk' };

async function translationDown() {
  const gateway = await emulate({
    scenario: { services: { translation: { availableNodes: 0 } } },
  });
  const client = clientOn(gateway);
  return { gateway, emulator: gateway.emulator, client };
}

describe('the re-read of a refused service call', () => {
  it('reads the services list only: the cached models list stays in use', async () => {
    const { emulator, client } = await translationDown();
    await client.chat(hi());
    await client.services(); // caches translation at 0 nodes
    for (let round = 0; round < 3; round++) {
      const refused = await caught(() => client.translate(translation), isGatewayError);
      expect(refused.code).toBe('provider_unavailable');
      await client.chat(hi());
    }
    expect(emulator.counters.requests).toMatchObject({ models: 1, capabilities: 4, chat: 4 });
  });

  it('an embeddings call reads the list again once at most', async () => {
    const { client, emulator } = await engineBackAfterCaching();

    const missing = { model: 'multilingual-e5-base' };
    const refused = await caught(() => client.embedMany(['a'], missing), isGatewayError);
    expect(refused.code).toBe('model_not_found');
    expect(emulator.counters.requests).toMatchObject({ capabilities: 2, embeddings: 0 });
  });

  it('a failed re-read refuses with the cached answer, after one attempt', async () => {
    const { emulator, client } = await translationDown();
    await client.services();
    emulator.injectFault({ fault: 'service_unavailable', endpoint: 'capabilities' });

    const refused = await caught(() => client.translate(translation), isGatewayError);
    expect(refused.code).toBe('provider_unavailable');
    expect(refused.message).toContain('could not be read again');
    expect(emulator.counters.requests).toMatchObject({ capabilities: 2, translations: 0 });
  });

  it('shares the call’s one deadline with the request', async () => {
    // The deadline is the subject: fake timers move it (core reads performance.now()).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const { emulator, client } = await translationDown();
    await client.services();
    emulator.scenario.services.translation.availableNodes = 1;
    emulator.injectFault({ fault: 'slow_headers', endpoint: 'capabilities', ms: 700 });
    emulator.injectFault({ fault: 'slow_headers', endpoint: 'translations', ms: 700 });

    const failed = caught(
      () => client.translate(translation, { timeoutMs: 1_000 }),
      isGatewayError,
    );
    const error = await settledAfter(1_000, failed);
    expect(error.code).toBe('timeout');
    expect(emulator.counters.requests).toMatchObject({ capabilities: 2, translations: 1 });
    // (Left to end: the slow answers' timers would otherwise keep the test's timers busy.)
    await vi.advanceTimersByTimeAsync(5_000);
  });
});

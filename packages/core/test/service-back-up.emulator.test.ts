import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../src/index';
import { clientOn, engineBackAfterCaching } from './helpers';

// docs/gateway-protocol.md §3.3: a call the cached list would refuse (a service at 0 nodes, no
// embedding engine) reads the list again once first, so a service back up is served at once
// rather than refused from the stale copy for up to `catalogTtlMs`.
describe('a service back up after the cached list said it was down', () => {
  it('translate: the refusal reads the list again once; once the service is back it is served', async () => {
    const gateway = await emulate({
      scenario: { services: { translation: { availableNodes: 0 } } },
    });
    const { emulator } = gateway;
    const client = clientOn(gateway);
    await client.services(); // caches the service at 0 nodes
    const request = { input: 'hello', target_language: 'uk' };

    const refused = await caught(() => client.translate(request), isGatewayError);
    expect(refused.code).toBe('provider_unavailable');
    expect(emulator.counters.requests.translations).toBe(0);
    expect(emulator.counters.requests.capabilities).toBe(2);

    emulator.scenario.services.translation.availableNodes = 1;
    expect((await client.translate(request)).text).toBe('[uk] hello');
    expect(emulator.counters.requests.capabilities).toBe(3);
    // The list read then offers the service: the next call reads nothing more.
    await client.translate(request);
    expect(emulator.counters.requests).toMatchObject({ capabilities: 3, translations: 2 });
  });

  it('embeddings: an engine back in the list is found by a call without an engine id', async () => {
    const { client, emulator } = await engineBackAfterCaching();

    expect((await client.resolveEmbeddingEngine(undefined)).id).toBe('all-minilm-l6-v2');
    expect(await client.embedMany(['a', 'b'])).toHaveLength(2);
    expect(emulator.counters.requests).toMatchObject({ capabilities: 2, embeddings: 1 });
  });
});

// docs/gateway-protocol.md §3.3: a call the cached list would refuse (a service at 0 nodes) reads
// the list again once first, so a service that was down a moment ago is served as soon as it is
// back, not refused from the stale copy for up to `catalogTtlMs` (`ai`'s retries included).
import { embed } from 'ai';
import { describe, expect, it } from 'vitest';
import { providersOnMsw } from './providers';

const { emulator, gateway } = await providersOnMsw({});
const ENGINE = 'all-minilm-l6-v2';

describe('a service back up after a refusal', () => {
  it('embed is served once the embeddings service is back, with no request sent while it was down', async () => {
    const provider = gateway();
    const embedOne = () =>
      embed({ model: provider.embeddingModel(ENGINE), value: 'hello', maxRetries: 0 });

    emulator.scenario.services.embeddings.availableNodes = 0;
    await expect(embedOne()).rejects.toMatchObject({
      isRetryable: true,
      data: { code: 'provider_unavailable' },
    });
    expect(emulator.counters.requests.embeddings).toBe(0);

    emulator.scenario.services.embeddings.availableNodes = 2;
    const { embedding } = await embedOne();
    expect(embedding).toHaveLength(384);
    expect(emulator.counters.requests.embeddings).toBe(1);
  });

  it('translate is served once the translation service is back', async () => {
    const provider = gateway();
    emulator.scenario.services.translation.availableNodes = 0;
    await provider.services(); // the list now says the service is down
    await expect(provider.translate({ text: 'hi', targetLanguage: 'de' })).rejects.toMatchObject({
      data: { code: 'provider_unavailable' },
    });
    expect(emulator.counters.requests.translations).toBe(0);

    emulator.scenario.services.translation.availableNodes = 1;
    await expect(provider.translate({ text: 'hi', targetLanguage: 'de' })).resolves.toMatchObject({
      text: '[de] hi',
    });
  });
});

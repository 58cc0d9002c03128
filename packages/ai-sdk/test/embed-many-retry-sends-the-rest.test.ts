// docs/gateway-protocol.md §6 (core cuts a `doEmbed` into requests of 64), §10.5 (`ai` owns the
// retries): when `ai` retries a `doEmbed` whose last request failed, the requests it answered are
// not sent again (core's `KEPT_VECTORS`, held by the batch's options for its tries only).
import { embedMany } from 'ai';
import { embedMany as embedManyV6 } from 'ai-v6';
import { describe, expect, it } from 'vitest';
import { providersOnMsw } from './providers';

const { emulator, gateway, gatewayV3 } = await providersOnMsw({});

const ENGINE = 'all-minilm-l6-v2';
/** 640 one-word texts: one `doEmbed`, which core sends as 10 requests of 64. */
const VALUES = Array.from({ length: 640 }, (_, i) => `v${i}`);

const EMBED_MANY = [
  [
    'ai@7',
    () =>
      embedMany({ model: gateway({ maxConcurrency: 1 }).embeddingModel(ENGINE), values: VALUES }),
  ],
  [
    'ai@6',
    () =>
      embedManyV6({
        model: gatewayV3({ maxConcurrency: 1 }).embeddingModel(ENGINE),
        values: VALUES,
      }),
  ],
] as const;

describe("embedMany: ai's retry of a doEmbed sends only the requests no try answered", () => {
  it.each(EMBED_MANY)('%s: the 10th request busy once, 11 requests in all', async (_, call) => {
    // Retry-After 0: ai retries at once (the subject is what it sends, not when).
    emulator.injectFault({
      fault: 'model_busy',
      endpoint: 'embeddings',
      retryAfter: 0,
      afterRequests: 9,
      times: 1,
    });
    const { embeddings, usage } = await call();
    expect(emulator.counters.requests.embeddings).toBe(11);
    // Every vector in its place, as a call without the failure answers them.
    emulator.clearFaults();
    const clean = await call();
    expect(embeddings).toEqual(clean.embeddings);
    // Each answer whose vectors are returned counted once (one token per text), over both tries.
    expect(usage.tokens).toBe(640);
  });

  it.each(EMBED_MANY)(
    '%s: the retry busy too, then answered: 12 requests, not 30',
    async (_, call) => {
      emulator.injectFault({
        fault: 'model_busy',
        endpoint: 'embeddings',
        retryAfter: 0,
        afterRequests: 9,
        times: 2,
      });
      const { embeddings } = await call();
      expect(embeddings).toHaveLength(640);
      expect(emulator.counters.requests.embeddings).toBe(12);
    },
  );
});

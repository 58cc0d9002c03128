// docs/gateway-protocol.md §6 (one `doEmbed` is up to 32 gateway requests), §10.5 (`ai` owns the
// retries), §2.3 (request headers: none the gateway reads but `authorization`, which is the
// key's): a middleware that adds a header of its own to each try (a request id, an idempotency
// key) leaves `ai`'s retry of a batch the same call: the requests answered are not sent again,
// and each request still has its own 1 + `maxRetries` sends (rv-25b F3).
import { embedMany, wrapEmbeddingModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { ENGINE, embeddingRetries, values } from './embedding-retries';

const { emulator, gateway, requests, failing } = await embeddingRetries();

/** The model, each of whose tries carries a header of its own (`x-request-id: r1`, `r2`, …). */
function taggedPerTry() {
  let tries = 0;
  return wrapEmbeddingModel({
    model: gateway({ maxConcurrency: 1 }).embeddingModel(ENGINE),
    middleware: {
      specificationVersion: 'v4',
      transformParams: async ({ params }) => ({
        ...params,
        headers: { ...params.headers, 'x-request-id': `r${++tries}` },
      }),
    },
  });
}

describe('embedMany through a middleware that adds a per-try header', () => {
  it('six different requests busy once each: every vector, no answered request sent again', async () => {
    // 2048 values, 32 requests of 64 one at a time: the 5th, 10th, … 30th sent are busy once.
    failing({ every: 5, times: 6 });
    const { embeddings } = await embedMany({
      model: taggedPerTry(),
      values: values(2048),
      maxRetries: 2,
    });
    expect(embeddings).toHaveLength(2048);
    expect(emulator.counters.concurrencyRejections).toBe(6);
    // 32 requests and the six busy ones again.
    expect(requests()).toBe(38);
  });
});

// docs/gateway-protocol.md §6 (one `doEmbed` is up to 32 gateway requests), §10.5 (`ai` owns the
// retries): `maxRetries` caps the sends of each gateway request (1 + `maxRetries`), not the rounds
// of a `doEmbed`: one-off failures of different requests, however many, do not use up `ai`'s
// retries of the batch (rv-svc12 F2).
import { caught } from '@infergate/emulator/testing';
import { embedMany } from 'ai';
import { describe, expect, it } from 'vitest';
import { ENGINE, embeddingRetries, values } from './embedding-retries';

const { emulator, gateway, requests, failing } = await embeddingRetries();

describe('embedMany: maxRetries per request, however many requests fail once', () => {
  it('maxRetries 1: three different requests busy once each, every vector', async () => {
    // 2048 values, 32 requests of 64: the 5th, 10th and 15th sent are busy once each.
    failing({ every: 5, times: 3 });
    const { embeddings } = await embedMany({
      model: gateway().embeddingModel(ENGINE),
      values: values(2048),
      maxRetries: 1,
    });
    expect(embeddings).toHaveLength(2048);
    expect(emulator.counters.concurrencyRejections).toBe(3);
    // 32 requests and the three failed ones again, each sent twice at most.
    expect(requests()).toBe(35);
  });

  it('default maxRetries (2): six different requests busy once each, every vector', async () => {
    failing({ every: 5, times: 6 });
    const { embeddings } = await embedMany({
      model: gateway().embeddingModel(ENGINE),
      values: values(2048),
    });
    expect(embeddings).toHaveLength(2048);
    expect(emulator.counters.concurrencyRejections).toBe(6);
    expect(requests()).toBe(38);
  });

  it('maxRetries 1: a request busy twice still ends the call after its 2 sends', async () => {
    // One request at a time: the 5th busy once, then the 10th busy for good.
    failing({ afterRequests: 4, times: 1 });
    failing({ afterRequests: 10 });
    const model = gateway({ maxConcurrency: 1 }).embeddingModel(ENGINE);
    const error = await caught(embedMany({ model, values: values(2048), maxRetries: 1 }));
    expect(error).toMatchObject({ name: 'AI_RetryError', reason: 'maxRetriesExceeded' });
    // 1 … 4, 5 (busy), 5 again, 6 … 9, then the 10th request twice.
    expect(requests()).toBe(12);
  });
});

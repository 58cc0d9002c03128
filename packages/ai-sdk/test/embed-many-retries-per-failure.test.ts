// docs/gateway-protocol.md §6 (one `doEmbed` is up to 32 gateway requests), §10.5 (`ai` owns the
// retries): `embedMany`'s `maxRetries` counts retries of each failure, as with a provider whose
// `doEmbed` is one request, not of every failure among a `doEmbed`'s requests; and no more: a
// request that keeps failing is sent 1 + `maxRetries` times, `maxRetries: 0` retries nothing.
import { embedMany } from 'ai';
import { describe, expect, it } from 'vitest';
import { providersOnMsw } from './providers';

const { emulator, gateway } = await providersOnMsw({});

const ENGINE = 'all-minilm-l6-v2';
const values = (count: number) => Array.from({ length: count }, (_, i) => `text ${i}`);
const requests = () => emulator.counters.requests.embeddings;

describe('embedMany: maxRetries per failure of a gateway request', () => {
  it("three 429s among one doEmbed's 16 requests, each answered on its retry: every vector", async () => {
    // Retry-After 0: retried at once (the subject is how many, not when).
    emulator.injectFault({
      fault: 'rate_limit',
      endpoint: 'embeddings',
      every: 5,
      times: 3,
      retryAfter: 0,
    });
    const all = values(1024);
    const { embeddings } = await embedMany({
      model: gateway().embeddingModel(ENGINE),
      values: all,
    });
    expect(embeddings).toHaveLength(1024);
    expect(emulator.counters.concurrencyRejections).toBe(3);
    // 16 requests and the three failed ones again.
    expect(requests()).toBe(19);
  });

  it('a request failing for good after progress: sent 1 + maxRetries times, then RetryError', async () => {
    // One request in flight at a time: the 3rd busy once (ai retries it), then from the 9th on
    // every request (the 8th batch: a new failure, after progress).
    emulator.injectFault({
      fault: 'rate_limit',
      endpoint: 'embeddings',
      afterRequests: 2,
      times: 1,
      retryAfter: 0,
    });
    emulator.injectFault({
      fault: 'rate_limit',
      endpoint: 'embeddings',
      afterRequests: 8,
      retryAfter: 0,
    });
    const model = gateway({ maxConcurrency: 1 }).embeddingModel(ENGINE);
    const error = await embedMany({ model, values: values(640), maxRetries: 2 }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ name: 'AI_RetryError', reason: 'maxRetriesExceeded' });
    // 1, 2, 3 (busy), 3 again, 4 … 7, 8 (busy) and its 2 retries.
    expect(requests()).toBe(11);
  });

  it('maxRetries 0: a failure after progress is not retried', async () => {
    emulator.injectFault({
      fault: 'rate_limit',
      endpoint: 'embeddings',
      afterRequests: 4,
      times: 1,
      retryAfter: 0,
    });
    const model = gateway({ maxConcurrency: 1 }).embeddingModel(ENGINE);
    const error = await embedMany({ model, values: values(640), maxRetries: 0 }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({
      name: 'AI_APICallError',
      data: { code: 'client_concurrency_exceeded' },
    });
    expect(requests()).toBe(5);
  });
});

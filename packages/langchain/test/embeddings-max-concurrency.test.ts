// LangChain's `maxConcurrency` bounds a GatewayEmbeddings object's requests in flight (as it bounds
// OpenAIEmbeddings' batches), within core's batching: input order, the first failing batch stops
// the others, core's retries only. `onFailedAttempt`, which decides retries core owns, is refused.
import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayEmbeddings, isGatewayError } from '../src/index';
import { API_KEY } from './helpers';

const MODEL = 'multilingual-e5-base';
/** 200 short texts: 4 requests (64, 64, 64, 8). */
const TEXTS = Array.from({ length: 200 }, (_, i) => `text ${i}`);

describe('GatewayEmbeddings maxConcurrency', () => {
  it('maxConcurrency: 1 sends one request at a time, vectors in input order', async () => {
    // The emulator's latency lets requests overlap; its own count of requests in flight is read.
    const gateway = await emulate({ scenario: { latencyMs: 1 } });
    const bounded = new GatewayEmbeddings({
      ...gateway.connection,
      model: MODEL,
      maxConcurrency: 1,
    });
    const vectors = await bounded.embedDocuments(TEXTS);
    expect(gateway.counters.requests.embeddings).toBe(4);
    // Before the fix: 4 (the key's budget; maxConcurrency was ignored).
    expect(gateway.counters.maxInflight[API_KEY]).toBe(1);
    const unbounded = new GatewayEmbeddings({ ...gateway.connection, model: MODEL });
    expect(vectors).toEqual(await unbounded.embedDocuments(TEXTS));
  });

  it("bounds the object's calls together, as LangChain's caller does", async () => {
    const gateway = await emulate({ scenario: { latencyMs: 1 } });
    const embeddings = new GatewayEmbeddings({
      ...gateway.connection,
      model: MODEL,
      maxConcurrency: 2,
    });
    const [documents, query] = await Promise.all([
      embeddings.embedDocuments(TEXTS),
      embeddings.embedQuery('a question'),
    ]);
    expect([documents.length, query.length]).toEqual([200, 768]);
    expect(gateway.counters.requests.embeddings).toBe(5);
    expect(gateway.counters.maxInflight[API_KEY]).toBeLessThanOrEqual(2);
  });

  it('the first failing batch stops the queued ones; only core retries', async () => {
    const gateway = await emulate();
    // Both attempts of the first batch fail (a 502, then its one retry by core).
    gateway.emulator.injectFault({ fault: 'bad_gateway', endpoint: 'embeddings', times: 2 });
    const embeddings = new GatewayEmbeddings({
      ...gateway.connection,
      model: MODEL,
      maxConcurrency: 1,
      maxRetries: 1,
    });
    const error = await caught(embeddings.embedDocuments(TEXTS), isGatewayError);
    expect(error.status).toBe(502);
    // Core's 2 attempts; no retry by LangChain's caller, and the 3 queued batches never sent.
    expect(gateway.counters.requests.embeddings).toBe(2);
  });

  it('a text core refuses is named by its place in the whole list, not in its batch', async () => {
    const gateway = await emulate();
    const embeddings = new GatewayEmbeddings({
      ...gateway.connection,
      model: MODEL,
      maxConcurrency: 1,
    });
    const texts = TEXTS.map((text, i) => (i === 130 ? '' : text));
    const error = await caught(embeddings.embedDocuments(texts), isGatewayError);
    expect([error.code, error.field]).toEqual(['invalid_request_error', 'texts[130]']);
    expect(error.message).toMatch(/^texts\[130\]: is empty/);
    // The batches before it were sent (core checks each batch as it sends it), none after.
    expect(gateway.counters.requests.embeddings).toBe(2);
    const one = await caught(embeddings.embedQuery(''), isGatewayError);
    expect(one.field).toBe('text');
  });
});

describe('GatewayEmbeddings onFailedAttempt', () => {
  it('is refused as the object is made: core does the retrying', async () => {
    const gateway = await emulate();
    const fields = { ...gateway.connection, model: MODEL, onFailedAttempt: () => {} };
    // (Typed out of the fields; a JavaScript caller may still pass it.)
    const error = await caught(async () => new GatewayEmbeddings(fields as never), isGatewayError);
    expect([error.code, error.field]).toEqual(['configuration_error', 'onFailedAttempt']);
    expect(error.message).toContain('onEvent');
    expect(gateway.counters.requests.capabilities).toBe(0);
  });
});

// LangChain's `maxConcurrency` bounds a GatewayEmbeddings call's requests in flight (as it bounds
// OpenAIEmbeddings' batches), passed to core's `embedMany`: its batches, every text checked before
// the first is sent, the first failing batch stops the others, core's retries only.
// `onFailedAttempt`, which decides retries core owns, is refused.
import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { GatewayEmbeddings, type GatewayEmbeddingsFields, isGatewayError } from '../src/index';
import { API_KEY } from './helpers';

const MODEL = 'multilingual-e5-base';
/** 200 short texts: 4 requests (64, 64, 64, 8). */
const TEXTS = Array.from({ length: 200 }, (_, i) => `text ${i}`);

/** GatewayEmbeddings of MODEL with `fields`, on a new emulated gateway. */
async function embeddingsOf(fields: Omit<GatewayEmbeddingsFields, 'model'>) {
  const gateway = await emulate();
  const embeddings = new GatewayEmbeddings({ ...gateway.connection, model: MODEL, ...fields });
  return { gateway, embeddings };
}

describe('GatewayEmbeddings maxConcurrency', () => {
  it('keeps at most that many requests of a call in flight, vectors in input order', async () => {
    const gateway = await emulate();
    const unbounded = new GatewayEmbeddings({ ...gateway.connection, model: MODEL });
    const expected = await unbounded.embedDocuments(TEXTS);
    gateway.reset();
    const bounded = new GatewayEmbeddings({
      ...gateway.connection,
      model: MODEL,
      maxConcurrency: 2,
    });
    // Answers held: without the bound all 4 would be in flight (the key's budget is 4).
    const release = gateway.hold('embeddings');
    const call = bounded.embedDocuments(TEXTS);
    await gateway.untilHeld(2);
    // (Held, these two cannot end: a third sent now would be one too many.)
    expect(gateway.counters.requests.embeddings).toBe(2);
    release();
    expect(await call).toEqual(expected);
    expect(gateway.counters.requests.embeddings).toBe(4);
    expect(gateway.counters.maxInflight[API_KEY]).toBe(2);
  });

  it("bounds each call on its own, under the key's budget", async () => {
    const { gateway, embeddings } = await embeddingsOf({ maxConcurrency: 1 });
    await embeddings.engine();
    const release = gateway.hold('embeddings');
    const calls = Promise.all([embeddings.embedDocuments(TEXTS), embeddings.embedQuery('a')]);
    // One request of each call held: the bound is per call, not per object.
    await gateway.untilHeld(2);
    expect(gateway.counters.requests.embeddings).toBe(2);
    release();
    const [documents, query] = await calls;
    expect([documents.length, query.length]).toEqual([200, 768]);
    expect(gateway.counters.requests.embeddings).toBe(5);
  });

  it('refuses a bad text anywhere in the list before any batch is sent', async () => {
    const { gateway, embeddings } = await embeddingsOf({ maxConcurrency: 1 });
    const texts = TEXTS.map((text, i) => (i === 130 ? '' : text));
    const error = await caught(embeddings.embedDocuments(texts), isGatewayError);
    expect([error.code, error.field]).toEqual(['invalid_request_error', 'texts[130]']);
    expect(error.message).toMatch(/^texts\[130\]: is empty/);
    expect(gateway.counters.requests.embeddings).toBe(0);
  });

  it('the first failing batch stops the queued ones; only core retries', async () => {
    const { gateway, embeddings } = await embeddingsOf({ maxConcurrency: 1, maxRetries: 1 });
    // Both attempts of the first batch fail (a 502, then its one retry by core).
    gateway.emulator.injectFault({ fault: 'bad_gateway', endpoint: 'embeddings', times: 2 });
    const error = await caught(embeddings.embedDocuments(TEXTS), isGatewayError);
    expect(error.status).toBe(502);
    // Core's 2 attempts; no retry by LangChain's caller, and the 3 queued batches never sent.
    expect(gateway.counters.requests.embeddings).toBe(2);
  });

  it.each([0, 2.5, -1, '2'])(
    'refuses %j by core’s rule as the object is made, named as its own field',
    async (value) => {
      const error = await caught(
        () => embeddingsOf({ maxConcurrency: value as number }),
        isGatewayError,
      );
      expect([error.code, error.field]).toEqual(['configuration_error', 'maxConcurrency']);
      expect(error.message).toMatch(
        /^maxConcurrency \(GatewayEmbeddings option\) must be an integer ≥ 1, got /,
      );
    },
  );

  it("takes LangChain's default, Infinity: no bound of its own", async () => {
    const { embeddings } = await embeddingsOf({ maxConcurrency: Number.POSITIVE_INFINITY });
    expect(await embeddings.embedDocuments(TEXTS)).toHaveLength(200);
  });
});

describe('GatewayEmbeddings onFailedAttempt', () => {
  it('is refused as the object is made: core does the retrying', async () => {
    const gateway = await emulate();
    const fields = { ...gateway.connection, model: MODEL, onFailedAttempt: () => {} };
    // (Typed out of the fields; a JavaScript caller may still pass it.)
    const error = await caught(async () => new GatewayEmbeddings(fields as never), isGatewayError);
    expect([error.code, error.field]).toEqual(['configuration_error', 'onFailedAttempt']);
    // Worded as any refused field (core's unknown-option refusal), with why instead of a guess.
    expect(error.message).toMatch(/^unknown option `onFailedAttempt` in new GatewayEmbeddings — /);
    expect(error.message).toContain('onEvent');
    expect(gateway.counters.requests.capabilities).toBe(0);
  });

  it('left undefined (LangChain params spread in) is accepted: it sets nothing', async () => {
    const gateway = await emulate();
    const shared = { maxConcurrency: 2, onFailedAttempt: undefined };
    const fields = { ...gateway.connection, model: MODEL, ...shared, timeoutMs: undefined };
    const embeddings = new GatewayEmbeddings(fields as never);
    expect(await embeddings.embedQuery('hello')).not.toHaveLength(0);
    expect(gateway.counters.requests.embeddings).toBe(1);
  });
});

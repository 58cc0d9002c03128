import { createGatewayClient } from '@infergate/core';
import type { ScenarioInput } from '@infergate/emulator';
import { emulate } from '@infergate/emulator/testing';
import { MemoryVectorStore } from '@langchain/classic/vectorstores/memory';
import { Document } from '@langchain/core/documents';
import { describe, expect, it } from 'vitest';
import { GatewayEmbeddings, isGatewayError } from '../src/index';
import { API_KEY, intercepting, recordingGateway } from './helpers';

type EmbeddingsBody = { input: string[]; model?: string; input_type?: string };

/** A gateway that records every embeddings request body. */
async function recording(scenario?: ScenarioInput) {
  return await recordingGateway<EmbeddingsBody>(scenario, '/embeddings');
}

const ONE_ENGINE = {
  services: { embeddings: { engines: { 'all-minilm-l6-v2': { available: false } } } },
};

describe('GatewayEmbeddings', () => {
  it('splits requests at 65 536 bytes: 64 texts of ~2 KB take ≥ 2 requests', async () => {
    const sizes: number[] = [];
    const connection = intercepting(await emulate(), async (request) => {
      if (request.url.endsWith('/embeddings')) {
        sizes.push(new TextEncoder().encode(await request.text()).byteLength);
      }
      return undefined;
    });
    const embeddings = new GatewayEmbeddings({ ...connection, model: 'multilingual-e5-base' });
    // Two-byte characters: 64 × ~2 KB is about twice the limit.
    const texts = Array.from({ length: 64 }, (_, i) => `${i} ${'é'.repeat(1000)}`);
    const vectors = await embeddings.embedDocuments(texts);
    expect(vectors).toHaveLength(64);
    expect(sizes.length).toBeGreaterThanOrEqual(2);
    for (const size of sizes) expect(size).toBeLessThanOrEqual(65_536);
  });

  it('embeds 1 000 documents in input order, ≤ 64 per request, ≤ 4 in flight', async () => {
    const { emulator, bodies, connection } = await recording({ latencyMs: 1 });
    const embeddings = new GatewayEmbeddings({ ...connection, model: 'multilingual-e5-base' });
    const texts = Array.from(
      { length: 1000 },
      (_, i) => `document number ${i} about topic${i % 37}`,
    );
    const vectors = await embeddings.embedDocuments(texts);
    expect(vectors).toHaveLength(1000);
    expect(bodies.every((body) => body.input.length <= 64)).toBe(true);
    expect(bodies.length).toBeGreaterThanOrEqual(16);
    expect(emulator.counters.maxInflight[API_KEY]).toBeLessThanOrEqual(4);
    expect(emulator.counters.maxInflight[API_KEY]).toBeGreaterThan(1);
    expect(emulator.counters.concurrencyRejections).toBe(0);
    // Order: each vector equals the one the same text gets on its own.
    for (const i of [0, 1, 63, 64, 500, 999]) {
      const [alone] = await embeddings.embedDocuments([texts[i]!]);
      expect(vectors[i]).toEqual(alone);
    }
  });

  it('sends input_type document / query to the multilingual engine only', async () => {
    const { bodies, connection } = await recording();
    const multilingual = new GatewayEmbeddings({ ...connection, model: 'multilingual-e5-base' });
    await multilingual.embedDocuments(['a text']);
    await multilingual.embedQuery('a question');
    const english = new GatewayEmbeddings({ ...connection, model: 'all-minilm-l6-v2' });
    await english.embedDocuments(['a text']);
    await english.embedQuery('a question');
    expect(bodies.map((body) => [body.model, body.input_type])).toEqual([
      ['multilingual-e5-base', 'document'],
      ['multilingual-e5-base', 'query'],
      ['all-minilm-l6-v2', undefined],
      ['all-minilm-l6-v2', undefined],
    ]);
  });

  it('uses the only engine when model is omitted', async () => {
    const { bodies, connection } = await recording(ONE_ENGINE);
    const embeddings = new GatewayEmbeddings(connection);
    const vector = await embeddings.embedQuery('hello');
    expect(vector).toHaveLength(768);
    expect(bodies[0]?.model).toBe('multilingual-e5-base');
  });

  it("keeps the engine its first call took when model is omitted: the only engine's change is refused", async () => {
    const { emulator, bodies, connection } = await recording(ONE_ENGINE);
    // The subject is which engine is asked, not the waits between retries: a 1 ms backoff base.
    const client = createGatewayClient({ ...connection, retryBaseDelayMs: 1 });
    const embeddings = new GatewayEmbeddings({ client });
    expect((await embeddings.embedDocuments(['indexed']))[0]).toHaveLength(768);
    // The operator swaps engines: the multilingual one goes, the English one comes up.
    const engines = emulator.scenario.services.embeddings.engines;
    engines['multilingual-e5-base']!.available = false;
    engines['all-minilm-l6-v2']!.available = true;
    // Each call is refused (the first may be sent on the cached list; once the list is read
    // again none is): never answered by the other engine, whose vectors would not mix.
    for (let call = 0; call < 3; call++) {
      const error = await embeddings.embedQuery('invoice').catch((caught: unknown) => caught);
      expect(isGatewayError(error)).toBe(true);
    }
    const refused = await embeddings.embedQuery('invoice').catch((caught: unknown) => caught);
    expect(isGatewayError(refused) && refused.code).toBe('model_not_found');
    expect((refused as Error).message).toContain('multilingual-e5-base');
    expect(bodies.map((body) => body.model)).not.toContain('all-minilm-l6-v2');
    expect((await embeddings.engine().catch((caught: unknown) => caught)) as Error).toSatisfy(
      isGatewayError,
    );
  });

  it('requires a model when several engines are available, listing their ids', async () => {
    const { emulator, connection } = await recording();
    const embeddings = new GatewayEmbeddings(connection);
    const error = await embeddings.embedDocuments(['x']).catch((caught: unknown) => caught);
    expect(isGatewayError(error)).toBe(true);
    expect((error as Error).message).toMatch(/multilingual-e5-base/);
    expect((error as Error).message).toMatch(/all-minilm-l6-v2/);
    expect(emulator.counters.requests.embeddings).toBe(0);
  });

  it('reads model at each call: set after construction without one, each call sends it', async () => {
    const { bodies, connection } = await recording();
    const embeddings = new GatewayEmbeddings(connection);
    embeddings.model = 'all-minilm-l6-v2';
    expect(await embeddings.embedQuery('hello')).toHaveLength(384);
    embeddings.model = 'multilingual-e5-base';
    expect((await embeddings.embedDocuments(['a text']))[0]).toHaveLength(768);
    expect((await embeddings.engine()).id).toBe('multilingual-e5-base');
    expect(bodies.map((body) => body.model)).toEqual(['all-minilm-l6-v2', 'multilingual-e5-base']);
  });

  it('reads model at each call: changed after a call, the next calls use the engine it names', async () => {
    const { bodies, connection } = await recording();
    const embeddings = new GatewayEmbeddings({ ...connection, model: 'multilingual-e5-base' });
    expect(await embeddings.embedQuery('hello')).toHaveLength(768);
    embeddings.model = 'all-minilm-l6-v2';
    expect(await embeddings.embedQuery('hello')).toHaveLength(384);
    expect((await embeddings.embedDocuments(['a text']))[0]).toHaveLength(384);
    expect(bodies.map((body) => body.model)).toEqual([
      'multilingual-e5-base',
      'all-minilm-l6-v2',
      'all-minilm-l6-v2',
    ]);
  });

  it('refuses a text over the engine limit before sending anything', async () => {
    const { emulator, connection } = await recording();
    const embeddings = new GatewayEmbeddings({ ...connection, model: 'multilingual-e5-base' });
    const long = 'a'.repeat(40 * 1024);
    const error = await embeddings
      .embedDocuments(['short', long])
      .catch((caught: unknown) => caught);
    expect(isGatewayError(error)).toBe(true);
    expect((error as Error).message).toMatch(/\[1\]/);
    expect(emulator.counters.requests.embeddings).toBe(0);
  });

  it('refuses vectors whose length differs between its requests (invalid_response)', async () => {
    // The request from texts[64] on is answered with vectors one number short.
    const gateway = await emulate();
    const connection = intercepting(gateway, async (request) => {
      if (!request.url.endsWith('/embeddings')) return undefined;
      const sent = (await request.clone().json()) as EmbeddingsBody;
      const answer = await gateway.fetch(request);
      const body = (await answer.json()) as { data: { embedding: number[] }[] };
      if (sent.input[0] !== 't0') for (const item of body.data) item.embedding.pop();
      return Response.json(body);
    });
    const embeddings = new GatewayEmbeddings({
      ...connection,
      model: 'all-minilm-l6-v2',
      maxConcurrency: 1,
      maxRetries: 0,
    });
    const texts = Array.from({ length: 100 }, (_, i) => `t${i}`);
    const error = await embeddings.embedDocuments(texts).catch((caught: unknown) => caught);
    expect(isGatewayError(error) && error.code).toBe('invalid_response');
    expect((error as Error).message).toBe(
      'The embeddings answer for texts[64..99] has vectors of length 383, where the answer for texts[0..63] of the same call had length 384',
    );
  });

  it('serves MemoryVectorStore: similaritySearch returns the lexically closest document', async () => {
    const { connection } = await recording();
    const embeddings = new GatewayEmbeddings({ ...connection, model: 'multilingual-e5-base' });
    const store = await MemoryVectorStore.fromDocuments(
      [
        new Document({ pageContent: 'The cat sat on the warm mat', metadata: { id: 'cat' } }),
        new Document({
          pageContent: 'Stock markets fell sharply today',
          metadata: { id: 'markets' },
        }),
        new Document({
          pageContent: 'A recipe for apple pie with cinnamon',
          metadata: { id: 'pie' },
        }),
      ],
      embeddings,
    );
    const [best] = await store.similaritySearch('apple pie cinnamon recipe', 1);
    expect(best?.metadata.id).toBe('pie');
    const [cat] = await store.similaritySearch('where did the cat sit', 1);
    expect(cat?.metadata.id).toBe('cat');
  });
});

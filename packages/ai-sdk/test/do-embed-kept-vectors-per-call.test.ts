// docs/gateway-protocol.md §6 (one `doEmbed` is up to 32 gateway requests), §10.5 (`ai` owns the
// retries): the vectors a failed `doEmbed` keeps (so `ai`'s retry of it sends only the requests no
// try answered) serve a retry of that same call only: the same model, inputType and dimensions
// on the same `values` array, and no call in flight at the same time; each `doEmbed`
// returns its own engine's vectors, in an array of its own (rv-svc12 F1).
import type { GatewayEvent } from '@infergate/core';
import { caught } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { providersOnMsw } from './providers';

const { emulator, gateway } = await providersOnMsw({});

/** Takes `inputType` and `dimensions` 128 to 768 (768 by default). */
const MULTILINGUAL = 'multilingual-e5-base';
/** Vectors of 384 dimensions, no `inputType`. */
const ENGLISH = 'all-minilm-l6-v2';

/** 128 short texts: one `doEmbed`, two requests of 64. A fresh array each time. */
const texts = () => Array.from({ length: 128 }, (_, i) => `text ${i}`);

/** The embeddings requests the emulator has seen. */
const requests = () => emulator.counters.requests.embeddings;

/** The second embeddings request from now fails once with a 502 a retry may fix. */
const secondFailsOnce = () =>
  emulator.injectFault({
    fault: 'bad_gateway',
    endpoint: 'embeddings',
    afterRequests: 1,
    times: 1,
  });

const asQuery = { infergate: { inputType: 'query' } };
const asDocument = { infergate: { inputType: 'document' } };

/** The vectors of a clean `doEmbed` of the texts (a fresh array) on `engine` with `options`. */
async function cleanVectors(engine: string, options: { providerOptions?: typeof asQuery } = {}) {
  const { embeddings } = await gateway()
    .embeddingModel(engine)
    .doEmbed({ values: texts(), ...options });
  return embeddings;
}

describe('doEmbed on a values array a failed doEmbed left vectors for', () => {
  it('the same call again: only the failed request is sent (the kept vectors serve it)', async () => {
    const model = gateway().embeddingModel(MULTILINGUAL);
    const values = texts();
    secondFailsOnce();
    await caught(model.doEmbed({ values, providerOptions: asDocument }));
    const sent = requests();
    const { embeddings } = await model.doEmbed({ values, providerOptions: asDocument });
    expect(requests() - sent).toBe(1);
    expect(embeddings).toEqual(await cleanVectors(MULTILINGUAL, { providerOptions: asDocument }));
  });

  it('inputType query after a document try: query vectors only, both requests sent', async () => {
    const model = gateway().embeddingModel(MULTILINGUAL);
    const values = texts();
    secondFailsOnce();
    await caught(model.doEmbed({ values, providerOptions: asDocument }));
    const sent = requests();
    const { embeddings } = await model.doEmbed({ values, providerOptions: asQuery });
    expect(requests() - sent).toBe(2);
    expect(embeddings).toEqual(await cleanVectors(MULTILINGUAL, { providerOptions: asQuery }));
  });

  it("another engine (another provider) on the array: that engine's vectors only", async () => {
    const values = texts();
    secondFailsOnce();
    await caught(gateway().embeddingModel(MULTILINGUAL).doEmbed({ values }));
    const { embeddings } = await gateway().embeddingModel(ENGLISH).doEmbed({ values });
    expect(embeddings.every((vector) => vector.length === 384)).toBe(true);
    expect(embeddings).toEqual(await cleanVectors(ENGLISH));
  });

  it('other dimensions on the same model: vectors of those dimensions only', async () => {
    const model = gateway().embeddingModel(MULTILINGUAL);
    const values = texts();
    secondFailsOnce();
    await caught(model.doEmbed({ values }));
    const { embeddings } = await model.doEmbed({ values, dimensions: 256 });
    expect(embeddings.every((vector) => vector.length === 256)).toBe(true);
  });
});

describe('doEmbed calls in flight at once on one values array', () => {
  it('two engines: each its own vectors, in an array of its own', async () => {
    const values = texts();
    const [multilingual, english] = await Promise.all([
      gateway().embeddingModel(MULTILINGUAL).doEmbed({ values }),
      gateway().embeddingModel(ENGLISH).doEmbed({ values }),
    ]);
    expect(multilingual.embeddings).not.toBe(english.embeddings);
    expect(multilingual.embeddings).toEqual(await cleanVectors(MULTILINGUAL));
    expect(english.embeddings).toEqual(await cleanVectors(ENGLISH));
  });

  it("the same call twice: a failure of one is not retried on the other's count", async () => {
    let failed!: () => void;
    const failureSeen = new Promise<void>((resolve) => {
      failed = resolve;
    });
    const onEvent = (event: GatewayEvent) => {
      if (event.type === 'done' && event.error !== undefined) failed();
    };
    const model = gateway({ onEvent }).embeddingModel(MULTILINGUAL);
    // 64 texts: one request each.
    const values = texts().slice(0, 64);
    emulator.injectFault({ fault: 'bad_gateway', endpoint: 'embeddings', times: 1 });
    // The answers held, the 502 not: one call fails while the other is in flight.
    const release = emulator.holdAnswers('embeddings');
    const settled = Promise.allSettled([model.doEmbed({ values }), model.doEmbed({ values })]);
    await failureSeen;
    release();
    // Each is a first try (no retry granted): the failed one is left to its caller, not sent again.
    expect((await settled).map(({ status }) => status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(requests()).toBe(2);
  });
});

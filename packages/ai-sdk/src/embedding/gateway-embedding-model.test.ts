import {
  APICallError,
  InvalidArgumentError,
  NoSuchModelError,
  TooManyEmbeddingValuesForCallError,
} from '@ai-sdk/provider';
import type { GatewayEvent } from '@infergate/core';
import { DEFAULT_KEYS } from '@infergate/emulator';
import { embed, embedMany, wrapEmbeddingModel } from 'ai';
import * as ai6 from 'ai-v6';
import { describe, expect, it } from 'vitest';
import { BASE_URL, providersOnMsw } from '../../test/providers';

const { emulated, emulator, gateway, gatewayV3 } = await providersOnMsw({ latencyMs: 2 });

const ENGINE = 'all-minilm-l6-v2';

describe('embeddings through the gateway', () => {
  it('embeds 1 000 values with at most 4 requests in flight, in input order', async () => {
    const values = Array.from({ length: 1000 }, (_, i) => `document number ${i}`);
    const model = gateway().embeddingModel(ENGINE);
    const { embeddings } = await embedMany({ model, values });
    expect(embeddings).toHaveLength(1000);
    expect(embeddings[0]).toHaveLength(384);
    expect(emulator.counters.requests.embeddings).toBe(Math.ceil(1000 / 64));
    expect(emulator.counters.maxInflight[DEFAULT_KEYS.full]).toBeLessThanOrEqual(4);
    expect(emulator.counters.maxInflight[DEFAULT_KEYS.full]).toBeGreaterThan(1);
    expect(emulator.counters.concurrencyRejections).toBe(0);

    // Order: each vector equals the vector of the same text embedded alone.
    const { embedding } = await embed({ model, value: values[737]! });
    expect(embeddings[737]).toEqual(embedding);
  });

  it('hands maxConcurrency to core', async () => {
    const values = Array.from({ length: 300 }, (_, i) => `text ${i}`);
    await embedMany({ model: gateway({ maxConcurrency: 2 }).embeddingModel(ENGINE), values });
    expect(emulator.counters.maxInflight[DEFAULT_KEYS.full]).toBeLessThanOrEqual(2);
  });

  it('embeds one value and passes inputType and dimensions', async () => {
    const model = gateway().embeddingModel('multilingual-e5-base');
    const asQuery = await embed({
      model,
      value: 'where is the station',
      providerOptions: { infergate: { inputType: 'query', dimensions: 256 } },
    });
    expect(asQuery.embedding).toHaveLength(256);
    const asDocument = await embed({
      model,
      value: 'where is the station',
      providerOptions: { infergate: { dimensions: 256 } },
    });
    expect(asDocument.embedding).not.toEqual(asQuery.embedding);
    const viaAi = await embed({ model, value: 'x', dimensions: 128 } as Parameters<
      typeof embed
    >[0]);
    expect(viaAi.embedding).toHaveLength(128);
  });

  it('splits a 64-value call by the 64 KiB byte limit inside doEmbed', async () => {
    const model = gateway().embeddingModel(ENGINE);
    const values = Array.from({ length: 64 }, (_, i) => `${i} ${'x'.repeat(2000)}`);
    const result = await model.doEmbed({ values });
    expect(result.embeddings).toHaveLength(64);
    expect(emulator.counters.requests.embeddings).toBe(2);
  });

  it("declares its limits to ai: one call at a time, each the key's 4 requests' worth", () => {
    const model = gateway().embeddingModel(ENGINE);
    expect(model.maxEmbeddingsPerCall).toBe(2048);
    expect(model.supportsParallelCalls).toBe(false);
  });

  it("embedMany's first failing batch ends it: the batches not yet sent never are", async () => {
    const model = gateway().embeddingModel(ENGINE);
    await embed({ model, value: 'warm' });
    emulator.resetCounters();
    // The first batch is refused (400); 40 batches in all.
    emulator.injectFault({ fault: 'upstream_json', endpoint: 'embeddings', times: 1 });
    const values = Array.from({ length: 64 * 40 }, (_, i) => `t ${i}`);
    const error = await embedMany({ model, values, maxRetries: 0 }).catch((e: unknown) => e);
    expect(APICallError.isInstance(error) && error.statusCode).toBe(400);
    // The next call queues behind whatever the failed one left: nothing, so one request more.
    const sentAtFailure = emulator.counters.requests.embeddings;
    expect(sentAtFailure).toBeLessThanOrEqual(4);
    await embed({ model, value: 'the next call', maxRetries: 0 });
    expect(emulator.counters.requests.embeddings).toBe(sentAtFailure + 1);
  });

  it("embedMany's doEmbed calls never wait behind each other: no later call's deadline runs meanwhile", async () => {
    // The requests that have begun (each batch's own id in the events), queued or sent.
    const begun = new Set<number>();
    const onEvent = (event: GatewayEvent) => {
      if (event.operation === 'embeddings') begun.add(event.callId);
    };
    const model = gateway({ onEvent }).embeddingModel(ENGINE);
    await embed({ model, value: 'warm' });
    emulator.resetCounters();
    begun.clear();
    const release = emulator.holdAnswers('embeddings');
    // 40 batches: a first doEmbed of 2 048 values (32 requests), a second of 512 (8).
    const values = Array.from({ length: 64 * 40 }, (_, i) => `text ${i}`);
    const call = embedMany({ model, values, maxRetries: 0 });
    // The key's 4 slots taken by the first call's batches, its other 28 queued under its one
    // deadline: none of the second call's 8 has begun.
    await emulated.untilRequests(4, { endpoint: 'embeddings' });
    expect(begun.size).toBe(32);
    release();
    expect((await call).embeddings).toHaveLength(values.length);
    expect(emulator.counters.requests.embeddings).toBe(40);
    expect(begun.size).toBe(40);
  });

  it("reports token usage summed over the requests, and the last answer's headers and body", async () => {
    const values = ['one two three', 'four five'];
    const result = await embedMany({ model: gateway().embeddingModel(ENGINE), values });
    expect(result.usage.tokens).toBeGreaterThan(0);
    expect(Number.isNaN(result.usage.tokens)).toBe(false);
    expect(result.responses?.[0]?.headers?.['content-type']).toContain('application/json');
    expect(result.responses?.[0]?.body).toMatchObject({
      object: 'list',
      usage: { prompt_tokens: result.usage.tokens },
    });
    const single = await embed({ model: gateway().embeddingModel(ENGINE), value: 'one two three' });
    expect(single.usage.tokens).toBeGreaterThan(0);
    expect(single.response?.headers?.['content-type']).toContain('application/json');
  });

  it('refuses more than 2048 values in one doEmbed call', async () => {
    const model = gateway().embeddingModel(ENGINE);
    await expect(
      model.doEmbed({ values: Array.from({ length: 2049 }, () => 'a') }),
    ).rejects.toSatisfy(TooManyEmbeddingValuesForCallError.isInstance);
  });

  it('refuses an engine the gateway does not list with NoSuchModelError, listing the engines', async () => {
    const error = await embed({
      model: gateway().embeddingModel('multilingual-e5-large'),
      value: 'x',
      maxRetries: 0,
    }).catch((e: unknown) => e);
    expect(NoSuchModelError.isInstance(error)).toBe(true);
    expect((error as NoSuchModelError).modelType).toBe('embeddingModel');
    expect((error as Error).message).toContain('multilingual-e5-base');
    expect(emulator.counters.requests.embeddings).toBe(0);
  });

  it('requires an engine id when several engines exist, listing them', async () => {
    const error = await embed({
      model: gateway().embeddingModel(),
      value: 'x',
      maxRetries: 0,
    }).catch((e: unknown) => e);
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('multilingual-e5-base');
    expect((error as Error).message).toContain('all-minilm-l6-v2');
    expect(emulator.counters.requests.embeddings).toBe(0);
  });

  it("names a refused value as the caller gave it: embedMany's values[i], embed's value", async () => {
    const model = gateway().embeddingModel(ENGINE);
    const tooLong = 'x'.repeat(70_000);
    const refusal = (call: Promise<unknown>) =>
      call.then(
        () => expect.unreachable('refused'),
        (error: unknown) => {
          expect(InvalidArgumentError.isInstance(error)).toBe(true);
          const { argument, message } = error as InvalidArgumentError;
          expect(message.startsWith(`${argument}: `)).toBe(true);
          return argument;
        },
      );
    // One batch; and the long value cut into a batch of its own by ai, at index 1 of the values.
    expect(await refusal(embedMany({ model, values: ['a', '', 'b'], maxRetries: 0 }))).toBe(
      'values[1]',
    );
    expect(await refusal(embedMany({ model, values: ['a', tooLong, 'b'], maxRetries: 0 }))).toBe(
      'values[1]',
    );
    expect(await refusal(embedMany({ model, values: [tooLong], maxRetries: 0 }))).toBe('values[0]');
    expect(await refusal(embed({ model, value: '', maxRetries: 0 }))).toBe('value');
    expect(await refusal(embed({ model, value: tooLong, maxRetries: 0 }))).toBe('value');
    // ai@6 through /v6 alike.
    const modelV3 = gatewayV3().embeddingModel(ENGINE);
    expect(
      await refusal(ai6.embedMany({ model: modelV3, values: ['a', tooLong, ''], maxRetries: 0 })),
    ).toBe('values[1]');
    expect(await refusal(ai6.embed({ model: modelV3, value: '', maxRetries: 0 }))).toBe('value');
    // A middleware that copies `providerOptions` loses the batch's mark (kept where no user code
    // sees it): the caller's index is unknown, the value is named within its call of 2048.
    const copied = wrapEmbeddingModel({
      model,
      middleware: {
        specificationVersion: 'v4',
        transformParams: async ({ params }) => ({
          ...params,
          providerOptions: { ...params.providerOptions },
        }),
      },
    });
    const values = Array.from({ length: 2112 }, (_, i) => (i === 2100 ? '' : `v${i}`));
    expect(await refusal(embedMany({ model: copied, values, maxRetries: 0 }))).toBe('texts[52]');
  });

  it("keeps the engine its first call took when no id is given: the only engine's change is refused", async () => {
    const models: unknown[] = [];
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const request = new Request(input, init);
      if (request.url.endsWith('/embeddings')) models.push((await request.clone().json()).model);
      return globalThis.fetch(request);
    };
    const engines = emulator.scenario.services.embeddings.engines;
    engines[ENGINE]!.available = false;
    const model = gateway({ fetch }).embeddingModel();
    expect((await embed({ model, value: 'indexed' })).embedding).toHaveLength(768);
    // The operator swaps engines: the multilingual one goes, the English one comes up.
    engines['multilingual-e5-base']!.available = false;
    engines[ENGINE]!.available = true;
    // Each call is refused (the first may be sent on the cached list; once the list is read
    // again none is): never answered by the other engine, whose vectors would not mix.
    for (let call = 0; call < 3; call++) {
      const error = await embedMany({ model, values: ['a', 'b'], maxRetries: 0 }).catch(
        (e: unknown) => e,
      );
      // (Sent on the cached list: the gateway's own refusal of the engine it no longer serves.)
      const sentAndRefused =
        call === 0 &&
        APICallError.isInstance(error) &&
        (error.data as { code?: string } | undefined)?.code === 'provider_unavailable';
      expect(sentAndRefused || NoSuchModelError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain('multilingual-e5-base');
    }
    const refused = await embed({ model, value: 'query', maxRetries: 0 }).catch((e: unknown) => e);
    expect(NoSuchModelError.isInstance(refused)).toBe(true);
    expect((refused as Error).message).toContain('multilingual-e5-base');
    expect(models).not.toContain(ENGINE);
  });

  it("passes an answer's providerMetadata through, with the engine under infergate", async () => {
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const answer = await globalThis.fetch(new Request(input, init));
      if (!String(answer.url || input).endsWith('/embeddings')) return answer;
      const body = await answer.json();
      const providerMetadata = {
        engineInfo: { cached: true, region: 'eu' },
        infergate: { node: 3 },
      };
      return Response.json({ ...body, providerMetadata }, { headers: answer.headers });
    };
    const result = await embed({ model: gateway({ fetch }).embeddingModel(ENGINE), value: 'x' });
    expect(result.providerMetadata).toEqual({
      engineInfo: { cached: true, region: 'eu' },
      infergate: { node: 3, engine: ENGINE },
    });
  });

  it('reports a failed engine look-up against GET /capabilities, with no embeddings body', async () => {
    emulator.injectFault({ fault: 'bad_gateway', endpoint: 'capabilities' });
    const error = await embed({
      model: gateway().embeddingModel(ENGINE),
      value: 'x',
      maxRetries: 0,
    }).catch((e: unknown) => e);
    expect(APICallError.isInstance(error)).toBe(true);
    expect((error as APICallError).url).toBe(`${BASE_URL}/capabilities`);
    expect((error as APICallError).requestBodyValues).toBeUndefined();
    expect(emulator.counters.requests.embeddings).toBe(0);
  });
});

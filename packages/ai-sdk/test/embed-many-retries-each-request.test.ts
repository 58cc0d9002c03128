// docs/gateway-protocol.md §6 (one `doEmbed` is up to 32 gateway requests), §10.5 (`ai` owns the
// retries): `embedMany`'s `maxRetries` counts the retries of each failing gateway request, in
// `ai`'s retries and the model's own alike, and no more (a request that keeps failing is sent
// 1 + `maxRetries` times, `maxRetries: 0` retries nothing); each retry within a `doEmbed` gets a
// deadline of its own, as each of `ai`'s does; a middleware's copy of `providerOptions` keeps the batch's answered
// vectors and counts; what core leaves out for the engine is told once per `embedMany`.

import { caught, heldOf, until, untilHeld } from '@infergate/emulator/testing';
import { embedMany, wrapEmbeddingModel } from 'ai';
import { embedMany as embedManyV6, wrapEmbeddingModel as wrapEmbeddingModelV6 } from 'ai-v6';
import { describe, expect, it, vi } from 'vitest';
import { ENGINE, embeddingRetries, values } from './embedding-retries';

const { emulator, gateway, gatewayV3, clock, requests, failing } = await embeddingRetries();

describe('embedMany: maxRetries per failing gateway request', () => {
  it("three 429s among one doEmbed's 16 requests, each answered on its retry: every vector", async () => {
    failing({ every: 5, times: 3 });
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
    failing({ afterRequests: 2, times: 1 });
    failing({ afterRequests: 8 });
    const model = gateway({ maxConcurrency: 1 }).embeddingModel(ENGINE);
    const error = await caught(embedMany({ model, values: values(640), maxRetries: 2 }));
    expect(error).toMatchObject({ name: 'AI_RetryError', reason: 'maxRetriesExceeded' });
    // 1, 2, 3 (busy), 3 again, 4 … 7, 8 (busy) and its 2 retries.
    expect(requests()).toBe(11);
  });

  it('maxRetries 0: a failure after progress is not retried', async () => {
    failing({ afterRequests: 4, times: 1 });
    const model = gateway({ maxConcurrency: 1 }).embeddingModel(ENGINE);
    const error = await caught(embedMany({ model, values: values(640), maxRetries: 0 }));
    expect(error).toMatchObject({
      name: 'AI_APICallError',
      data: { code: 'client_concurrency_exceeded' },
    });
    expect(requests()).toBe(5);
  });

  it.each([
    ['ai@7', () => gateway({ maxConcurrency: 2 }).embeddingModel(ENGINE), embedMany],
    [
      'ai@6',
      () => gatewayV3({ maxConcurrency: 2 }).embeddingModel(ENGINE),
      embedManyV6 as unknown as typeof embedMany,
    ],
  ])(
    '%s: two requests failing in one try, the first recovering: the other sent 1 + maxRetries times',
    async (_, model, embed) => {
      // Two requests (128 values), both in flight: both busy (#1, #2); ai's retry: the first
      // answered (#3), the second busy again (#4), for good.
      failing({ times: 2 });
      failing({ afterRequests: 3 });
      // Each try's two requests held until both are in flight: neither is stopped unsent.
      let release = emulator.holdAnswers('embeddings', { faults: true });
      const call = embed({
        model: model() as Parameters<typeof embedMany>[0]['model'],
        values: values(128),
        maxRetries: 1,
      }).catch((e: unknown) => e);
      await untilHeld(emulator, 2);
      const firstTry = release;
      release = emulator.holdAnswers('embeddings', { faults: true });
      firstTry();
      // ai's retry: its two requests in (#3, #4), both held.
      await until(emulator, (counters) => requests() === 4 && heldOf(counters) === 2);
      release();
      const error = await call;
      expect(error).toMatchObject({ name: 'AI_RetryError', reason: 'maxRetriesExceeded' });
      // The second request twice (1 + maxRetries), not a third time within ai's retry.
      expect(requests()).toBe(4);
    },
  );

  it("a retry within the doEmbed waiting past the try's timeoutMs: sent with a deadline of its own", async () => {
    // One request at a time, 2 s deadline: the first busy (ai retries it), then in ai's retry the
    // second busy with Retry-After 8 s (a retry granted within the doEmbed: it waits 8 s).
    failing({ times: 1 });
    failing({ afterRequests: 2, times: 1, retryAfter: 8 });
    clock.drive();
    const model = gateway({ maxConcurrency: 1, timeoutMs: 2_000 }).embeddingModel(ENGINE);
    let settled = false;
    const call = embedMany({ model, values: values(128), maxRetries: 1 }).finally(() => {
      settled = true;
    });
    // The clock moved 1 ms at a time until the 3rd request was answered (busy, Retry-After 8 s).
    await clock.stepUntil(() => requests() === 3);
    await vi.advanceTimersByTimeAsync(8_000);
    await clock.stepUntil(() => settled);
    const { embeddings } = await call;
    expect(embeddings).toHaveLength(128);
    // #1 busy, #2, #3 busy, #3 again.
    expect(requests()).toBe(4);
  });

  it.each([
    [
      'ai@7',
      () =>
        wrapEmbeddingModel({ model: gateway().embeddingModel(ENGINE), middleware: copying('v4') }),
      embedMany,
    ],
    [
      'ai@6',
      () =>
        wrapEmbeddingModelV6({
          model: gatewayV3().embeddingModel(ENGINE),
          middleware: copying('v3'),
        }),
      embedManyV6 as unknown as typeof embedMany,
    ],
  ])(
    "%s: a middleware copying providerOptions: answered requests not sent again, each failure's own retries",
    async (_, model, embed) => {
      failing({ every: 5, times: 3 });
      const { embeddings } = await embed({
        model: model() as Parameters<typeof embedMany>[0]['model'],
        values: values(1024),
      });
      expect(embeddings).toHaveLength(1024);
      // 16 requests and the three failed ones again.
      expect(requests()).toBe(19);
    },
  );

  it('inputType the engine does not take: one warning for the whole embedMany', async () => {
    const { warnings, embeddings } = await embedMany({
      model: gateway().embeddingModel(ENGINE),
      values: values(4097),
      providerOptions: { infergate: { inputType: 'query' } },
    });
    expect(embeddings).toHaveLength(4097);
    expect(warnings).toEqual([
      expect.objectContaining({ type: 'unsupported', feature: 'inputType' }),
    ]);
  });
});

/** A middleware that hands the model a copy of the call's `providerOptions`. */
function copying<V extends 'v3' | 'v4'>(specificationVersion: V) {
  return {
    specificationVersion,
    transformParams: async ({ params }: { params: { providerOptions?: object } }) => ({
      ...params,
      providerOptions: { ...params.providerOptions },
    }),
  } as never;
}

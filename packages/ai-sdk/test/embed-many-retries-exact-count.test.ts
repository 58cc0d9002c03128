// docs/gateway-protocol.md §6 (one `doEmbed` is up to 32 gateway requests), §10.5 (`ai` owns the
// retries): nothing of the batch's bookkeeping shows in what a middleware sees (a strict check of
// `providerOptions` as a record of string keys passes); the answered vectors are kept by the
// batch's values array, so a middleware that passes a copy of `providerOptions` keeps the saving.
// A failed send is counted only for a request sent and failed (core's `FAILED_BATCHES`), not for
// the requests queued behind it.

import { embedMany, wrapEmbeddingModel } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { ENGINE, embeddingRetries, values } from './embedding-retries';

const { emulator, gateway, clock, requests, failing } = await embeddingRetries();

/** `embedMany` of `count` texts (or the `texts` given) on the engine, then `more` (its options). */
const embedded = (texts: number | string[], more: Partial<Parameters<typeof embedMany>[0]> = {}) =>
  embedMany({
    model: gateway().embeddingModel(ENGINE),
    values: typeof texts === 'number' ? values(texts) : texts,
    ...more,
  });

describe('embedMany: what a middleware sees', () => {
  it('providerOptions checked as a record of string keys (zod): every batch passes it, retried or not', async () => {
    const record = z.record(z.string(), z.record(z.string(), z.unknown()));
    const seen: unknown[] = [];
    const model = wrapEmbeddingModel({
      model: gateway().embeddingModel(ENGINE),
      middleware: {
        specificationVersion: 'v4',
        transformParams: async ({ params }) => {
          seen.push(record.parse(params.providerOptions ?? {}));
          return params;
        },
      },
    });
    failing({ every: 5, times: 3 });
    const { embeddings } = await embedded(2100, {
      model,
      providerOptions: { infergate: { inputType: 'document' } },
    });
    expect(embeddings).toHaveLength(2100);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    for (const options of seen) expect(options).toEqual({ infergate: { inputType: 'document' } });
    // 33 requests and the three failed ones again: the answered ones not sent again.
    expect(requests()).toBe(36);
  });
});

describe('embedMany: a failed send counted only for a request sent and failed', () => {
  it("maxRetries 1: a request failing first in ai's retry is retried once within it", async () => {
    // 2048 values, 32 requests of 64: the 5th and the 10th sent are busy once each.
    failing({ every: 5, times: 2 });
    const { embeddings } = await embedded(2048, { maxRetries: 1 });
    expect(embeddings).toHaveLength(2048);
    // 32 requests and the two failed ones again.
    expect(requests()).toBe(34);
    expect(emulator.counters.concurrencyRejections).toBe(2);
  });

  it('long texts (8 a request), default maxRetries: three busy requests each sent again once', async () => {
    const long = Array.from({ length: 512 }, (_, i) => `${i} ${'x'.repeat(8000)}`);
    failing({ every: 5, times: 3 });
    const { embeddings } = await embedded(long);
    expect(embeddings).toHaveLength(512);
    // 65 requests (2 MiB a doEmbed: batches of 262 and 250 values) and the three failed again.
    expect(requests()).toBe(68);
  });

  it.each(['service_unavailable', 'bad_gateway'] as const)(
    "maxRetries 1, a %s once in ai's retry: retried within it, after the 2 s backoff",
    async (fault) => {
      // The 5th request (texts 256-319) busy; ai's first try sends 8. In its retry, the second
      // request (texts 512-575, never sent before) fails with the 5xx: its first failed send.
      failing({ afterRequests: 4, times: 1 });
      failing({ fault, afterRequests: 9, times: 1 });
      // The driven clock's time of each request the emulator sees.
      const sentAt: number[] = [];
      const stopWatching = emulator.onChange(() => {
        while (sentAt.length < requests()) sentAt.push(Date.now());
      });
      clock.drive();
      let settled = false;
      const call = embedded(2048, { maxRetries: 1 }).finally(() => {
        settled = true;
      });
      // ai's retry (Retry-After 0) runs at once; the 5xx names no wait: once what that round
      // sent is answered, the batch waits ai's first backoff (2 s), the one pause between sends.
      await clock.stepUntil(() => settled, 10, 3_000);
      stopWatching();
      const pauses = sentAt.slice(1).map((at, i) => at - (sentAt[i] ?? at));
      // (The clock moves 10 ms a step: a send is seen up to a step late.)
      const long = pauses.filter((ms) => ms >= 100);
      expect(long).toHaveLength(1);
      expect(long[0]).toBeGreaterThanOrEqual(2_000);
      expect(long[0]).toBeLessThan(2_100);
      const { embeddings } = await call;
      expect(embeddings).toHaveLength(2048);
      expect(requests()).toBe(34);
    },
  );
});

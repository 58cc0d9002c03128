// docs/gateway-protocol.md §6 (one `doEmbed` is up to 32 gateway requests), §10.5 (`ai` owns the
// retries): nothing of the batch's bookkeeping shows in what a middleware sees (a strict check of
// `providerOptions` as a record of string keys passes); the answered vectors are kept by the
// batch's values array, so a middleware that passes a copy of `providerOptions` keeps the saving.

import { embedMany, wrapEmbeddingModel } from 'ai';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { providersOnMsw } from './providers';

const { emulator, gateway } = await providersOnMsw({});

const ENGINE = 'all-minilm-l6-v2';
const values = (count: number) => Array.from({ length: count }, (_, i) => `text ${i}`);
const requests = () => emulator.counters.requests.embeddings;

beforeAll(async () => {
  await embedMany({ model: gateway().embeddingModel(ENGINE), values: ['warm'] });
  emulator.resetCounters();
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
    emulator.injectFault({
      fault: 'rate_limit',
      endpoint: 'embeddings',
      every: 5,
      times: 3,
      retryAfter: 0,
    });
    const { embeddings } = await embedMany({
      model,
      values: values(2100),
      providerOptions: { infergate: { inputType: 'document' } },
    });
    expect(embeddings).toHaveLength(2100);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    for (const options of seen) expect(options).toEqual({ infergate: { inputType: 'document' } });
    // 33 requests and the three failed ones again: the answered ones not sent again.
    expect(requests()).toBe(36);
  });
});

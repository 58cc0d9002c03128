// docs/gateway-protocol.md §6 (core cuts a `doEmbed` into requests of 64), §10.5 (`ai` owns the
// retries): when `ai` retries a `doEmbed` whose last request failed, the requests it answered are
// not sent again (core's `KEPT_VECTORS`, held by the batch's options for its tries only); nor are
// those still in flight when one failed with what a retry may fix: they are let finish and kept.
import type { GatewayEvent } from '@infergate/core';
import { embedMany } from 'ai';
import { embedMany as embedManyV6 } from 'ai-v6';
import { describe, expect, it } from 'vitest';
import { providersOnMsw } from './providers';

const { emulated, emulator, gateway, gatewayV3 } = await providersOnMsw({});

const ENGINE = 'all-minilm-l6-v2';
/** 640 one-word texts: one `doEmbed`, which core sends as 10 requests of 64. */
const VALUES = Array.from({ length: 640 }, (_, i) => `v${i}`);

const EMBED_MANY = [
  [
    'ai@7',
    () =>
      embedMany({ model: gateway({ maxConcurrency: 1 }).embeddingModel(ENGINE), values: VALUES }),
  ],
  [
    'ai@6',
    () =>
      embedManyV6({
        model: gatewayV3({ maxConcurrency: 1 }).embeddingModel(ENGINE),
        values: VALUES,
      }),
  ],
] as const;

describe("embedMany: ai's retry of a doEmbed sends only the requests no try answered", () => {
  it.each(EMBED_MANY)('%s: the 10th request busy once, 11 requests in all', async (_, call) => {
    // Retry-After 0: ai retries at once (the subject is what it sends, not when).
    emulator.injectFault({
      fault: 'model_busy',
      endpoint: 'embeddings',
      retryAfter: 0,
      afterRequests: 9,
      times: 1,
    });
    const { embeddings, usage } = await call();
    expect(emulator.counters.requests.embeddings).toBe(11);
    // Every vector in its place, as a call without the failure answers them.
    emulator.clearFaults();
    const clean = await call();
    expect(embeddings).toEqual(clean.embeddings);
    // Each answer whose vectors are returned counted once (one token per text), over both tries.
    expect(usage.tokens).toBe(640);
  });

  it.each(EMBED_MANY)(
    '%s: the retry busy too, then answered: 12 requests, not 30',
    async (_, call) => {
      emulator.injectFault({
        fault: 'model_busy',
        endpoint: 'embeddings',
        retryAfter: 0,
        afterRequests: 9,
        times: 2,
      });
      const { embeddings } = await call();
      expect(embeddings).toHaveLength(640);
      expect(emulator.counters.requests.embeddings).toBe(12);
    },
  );
});

/** 200 texts: one `doEmbed`, which core sends as 4 requests at once (64, 64, 64, 8). */
const FOUR_REQUESTS = VALUES.slice(0, 200);

/**
 * One embeddings request busy, retried by `ai` at once (Retry-After 0: the subject is what it
 * sends, not when): the last of the 4 to arrive, so the 3 before it are in flight when it fails.
 */
const LAST_BUSY = {
  fault: 'model_busy',
  endpoint: 'embeddings',
  retryAfter: 0,
  times: 1,
  afterRequests: 3,
} as const;

/**
 * `onEvent` for a provider, and a promise of the moment core gave up the first embeddings request
 * that failed with `code` (its `done`): its siblings were stopped, or let finish, by then.
 */
function failureSeen(code: string) {
  let seen!: () => void;
  const failed = new Promise<void>((resolve) => {
    seen = resolve;
  });
  const onEvent = (event: GatewayEvent) => {
    if (event.type === 'done' && event.error?.code === code) seen();
  };
  return { onEvent, failed };
}

type Settings = { onEvent: (event: GatewayEvent) => void };

describe("embedMany: a failed request's siblings in flight when it failed", () => {
  it.each([
    [
      'ai@7',
      (settings: Settings) =>
        embedMany({ model: gateway(settings).embeddingModel(ENGINE), values: FOUR_REQUESTS }),
    ],
    [
      'ai@6',
      (settings: Settings) =>
        embedManyV6({ model: gatewayV3(settings).embeddingModel(ENGINE), values: FOUR_REQUESTS }),
    ],
  ] as const)(
    '%s: finish and are kept when a retry may fix the failure: 5 requests, not 8',
    async (_, call) => {
      emulator.injectFault(LAST_BUSY);
      const release = emulated.hold('embeddings');
      const { onEvent, failed } = failureSeen('model_busy');
      const embedding = call({ onEvent });
      // Core has given up the busy request: only then do its siblings' answers come.
      await failed;
      release();
      const { embeddings, usage } = await embedding;
      // The retry sent the busy request's texts only.
      expect(emulator.counters.requests.embeddings).toBe(5);
      emulator.clearFaults();
      const clean = await call({ onEvent: () => {} });
      expect(embeddings).toEqual(clean.embeddings);
      // Each answer counted once (one token per text), the first try's too.
      expect(usage.tokens).toBe(200);
    },
  );

  it('are stopped at once when no retry fixes it (a 400): nothing waits for their answers', async () => {
    // Never released: a sibling left in flight would keep the call from ending.
    emulated.hold('embeddings');
    // As LAST_BUSY, a 400 (without retryAfter, which upstream_json has no use for).
    emulator.injectFault({
      fault: 'upstream_json',
      endpoint: 'embeddings',
      times: 1,
      afterRequests: 3,
    });
    const model = gateway().embeddingModel(ENGINE);
    const error = await embedMany({ model, values: FOUR_REQUESTS }).catch((e: unknown) => e);
    expect(error).toMatchObject({ statusCode: 400, isRetryable: false });
    expect(emulator.counters.requests.embeddings).toBe(4);
    await emulated.untilIdle();
  });

  it("are stopped by the caller's abort while they are let finish", async () => {
    emulator.injectFault(LAST_BUSY);
    // Never released: only the abort can end the siblings let finish.
    emulated.hold('embeddings');
    const { onEvent, failed } = failureSeen('model_busy');
    const controller = new AbortController();
    const model = gateway({ onEvent }).embeddingModel(ENGINE);
    const embedding = embedMany({
      model,
      values: FOUR_REQUESTS,
      abortSignal: controller.signal,
    }).catch((e: unknown) => e);
    await failed;
    controller.abort(new Error('the caller left'));
    expect(await embedding).toBeInstanceOf(Error);
    // None sent after the abort: ai's retry found the call aborted.
    expect(emulator.counters.requests.embeddings).toBe(4);
    await emulated.untilIdle();
  });
});

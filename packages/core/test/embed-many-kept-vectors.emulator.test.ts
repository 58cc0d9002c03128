// `embedMany` with the vectors kept for a retry of the whole call (docs/gateway-protocol.md §6 the
// batches, §10.5 a caller that owns the retries: core's `KEPT_VECTORS`): a failure a retry may fix
// stops the batches not yet sent, and lets those in flight finish into the kept array, so the
// retry sends only the rest; any other failure, or no kept array, stops them all at once.
import { caught, emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { type GatewayEvent, isGatewayError } from '../src/index';
import { KEPT_VECTORS } from '../src/internal-service-tools';
import { clientOn } from './helpers';

const ENGINE = 'all-minilm-l6-v2';
/** 320 short texts: 5 batches of 64; the key's budget (4) sends 4, the 5th waits for a slot. */
const TEXTS = Array.from({ length: 320 }, (_, i) => `text ${i}`);

/** The 4th request to arrive fails (once), the 3 before it in flight. */
const FOURTH = { endpoint: 'embeddings', times: 1, afterRequests: 3 } as const;

/**
 * A client whose caller owns the retries (`maxRetries: 0`, as the AI SDK's), and a promise of the
 * moment core gave up the first batch that failed with `code` (its `done` event).
 */
async function failingOnce(code: string) {
  const gateway = await emulate();
  let seen!: () => void;
  const failed = new Promise<void>((resolve) => {
    seen = resolve;
  });
  const onEvent = (event: GatewayEvent) => {
    if (event.type === 'done' && event.error?.code === code) seen();
  };
  const client = clientOn(gateway, { maxRetries: 0, onEvent });
  // The service calls' code loaded, the engine known: only the batches are counted.
  await client.embedMany(['warm up'], { model: ENGINE });
  gateway.reset();
  return { gateway, client, failed };
}

describe('embedMany with kept vectors', () => {
  it('a busy batch: the 3 in flight finish into the kept array, the queued one is not sent', async () => {
    const { gateway, client, failed } = await failingOnce('model_busy');
    gateway.emulator.injectFault({ ...FOURTH, fault: 'model_busy', retryAfter: 0 });
    const release = gateway.hold('embeddings');
    const kept: (number[] | undefined)[] = new Array(TEXTS.length);
    const options = { model: ENGINE, [KEPT_VECTORS]: kept };
    const first = caught(client.embedMany(TEXTS, options), isGatewayError);
    await failed;
    release();
    expect((await first).code).toBe('model_busy');
    expect(gateway.counters.requests.embeddings).toBe(4);
    // The 3 answered batches' vectors: 192 of the 320 slots.
    expect(kept.filter((vector) => vector !== undefined)).toHaveLength(192);
    // The caller's retry, with the same array: the busy batch and the one never sent.
    const vectors = await client.embedMany(TEXTS, options);
    expect(gateway.counters.requests.embeddings).toBe(6);
    expect(vectors).toEqual(await client.embedMany(TEXTS, { model: ENGINE }));
  });

  it('a failure no retry fixes stops the batches in flight at once', async () => {
    const { gateway, client } = await failingOnce('upstream_error');
    gateway.emulator.injectFault({ ...FOURTH, fault: 'upstream_json' });
    // Never released: a batch left in flight would keep the call from ending.
    gateway.hold('embeddings');
    const kept: (number[] | undefined)[] = new Array(TEXTS.length);
    const options = { model: ENGINE, [KEPT_VECTORS]: kept };
    const call = client.embedMany(TEXTS, options);
    expect((await caught(call, isGatewayError)).code).toBe('upstream_error');
    expect(kept.every((vector) => vector === undefined)).toBe(true);
    expect(gateway.counters.requests.embeddings).toBe(4);
    await gateway.untilIdle();
  });

  it('without a kept array, a busy batch stops the batches in flight at once', async () => {
    const { gateway, client } = await failingOnce('model_busy');
    gateway.emulator.injectFault({ ...FOURTH, fault: 'model_busy', retryAfter: 0 });
    // Never released: their answers could not be used.
    gateway.hold('embeddings');
    const call = client.embedMany(TEXTS, { model: ENGINE });
    expect((await caught(call, isGatewayError)).code).toBe('model_busy');
    expect(gateway.counters.requests.embeddings).toBe(4);
    await gateway.untilIdle();
  });
});

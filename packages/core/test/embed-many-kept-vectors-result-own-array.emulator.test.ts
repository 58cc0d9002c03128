// `embedMany` with the vectors kept for a retry of the whole call (docs/gateway-protocol.md §6 the
// batches, §10.5 a caller that owns the retries: core's `KEPT_VECTORS`): the call that fills every
// slot returns an array of its own, not the kept one its adapter holds, so no later write to the
// kept array reaches a result already returned (rv-svc12 F1).
import { emulate } from '@infergate/emulator/testing';
import { describe, expect, it } from 'vitest';
import { KEPT_VECTORS } from '../src/internal-service-tools';
import { clientOn } from './helpers';

const ENGINE = 'all-minilm-l6-v2';
/** 130 short texts: 3 batches. */
const TEXTS = Array.from({ length: 130 }, (_, i) => `text ${i}`);

describe('embedMany with kept vectors: the result', () => {
  it('is a copy of the kept array: emptying the kept array leaves it whole', async () => {
    const gateway = await emulate();
    const client = clientOn(gateway, { maxRetries: 0 });
    const kept: (number[] | undefined)[] = new Array(TEXTS.length);
    const options = { model: ENGINE, [KEPT_VECTORS]: kept };
    const vectors = await client.embedMany(TEXTS, options);
    expect(vectors).not.toBe(kept);
    expect(vectors).toEqual(kept);
    kept.fill(undefined);
    expect(vectors).toEqual(await client.embedMany(TEXTS, { model: ENGINE }));
  });
});

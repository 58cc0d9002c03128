// docs/gateway-protocol.md §6 (each text's limits, the multilingual engine's own): `embedMany`
// cuts a long list into `doEmbed` calls of 2 048 values, sent one after another; a value the
// gateway would refuse, late in the list, is refused before the first call sends anything, named
// as the caller gave it (`values[i]`), as core's `embedMany` does (rv-svc F2).
import { embedMany } from 'ai';
import { embedMany as embedManyV6 } from 'ai-v6';
import { describe, expect, it } from 'vitest';
import { providersOnMsw } from './providers';

const { emulator, gateway, gatewayV3 } = await providersOnMsw({});

const ENGINE = 'multilingual-e5-base';
/** 5 000 values (three `doEmbed` calls), the one at 4 000 `bad`. */
const valuesWith = (bad: string) => {
  const values = Array.from({ length: 5000 }, (_, i) => `text ${i}`);
  values[4000] = bad;
  return values;
};

const CASES = [
  ['an empty value', '', 'values[4000]: is empty'],
  ['a value over the engine’s 32 768 bytes', 'x'.repeat(32_769), 'values[4000]: is 32769 bytes'],
  ['a value over 65 536 bytes', 'x'.repeat(65_537), 'values[4000]: is 65537 bytes'],
] as const;

describe('embedMany checks every value before the first request', () => {
  it.each(CASES)('ai@7: %s at index 4 000', async (_, bad, message) => {
    const error = await embedMany({
      model: gateway().embeddingModel(ENGINE),
      values: valuesWith(bad),
      maxRetries: 0,
    }).catch((caught: unknown) => caught);
    expect((error as Error).message).toContain(message);
    expect(emulator.counters.requests.embeddings).toBe(0);
  });

  it('ai@6: the same', async () => {
    const error = await embedManyV6({
      model: gatewayV3().embeddingModel(ENGINE),
      values: valuesWith(''),
      maxRetries: 0,
    }).catch((caught: unknown) => caught);
    expect((error as Error).message).toContain('values[4000]: is empty');
    expect(emulator.counters.requests.embeddings).toBe(0);
  });

  // The first call checks the later calls' values itself and leaves its own to core's
  // `embedMany`, which checks them before its first request; with two bad values, the one named
  // is the one core's `embedMany` names over the whole list: each value on its own first (the
  // earliest), then the engine's limits.
  it.each([
    ['two empty values: the first', { 10: '', 4000: '' }, 'values[10]: is empty'],
    [
      'two over the engine’s limit: the first',
      { 10: 'x'.repeat(32_769), 4000: 'x'.repeat(32_769) },
      'values[10]: is 32769 bytes',
    ],
    [
      'one over the engine’s limit, a later one empty: the empty one',
      { 10: 'x'.repeat(32_769), 4000: '' },
      'values[4000]: is empty',
    ],
  ])('two bad values, in the first call and a later one: %s', async (_, bad, message) => {
    const values = Array.from({ length: 5000 }, (_, i) => `text ${i}`);
    for (const [index, value] of Object.entries(bad)) values[Number(index)] = value;
    const error = await embedMany({
      model: gateway().embeddingModel(ENGINE),
      values,
      maxRetries: 0,
    }).catch((caught: unknown) => caught);
    expect((error as Error).message).toContain(message);
    expect(emulator.counters.requests.embeddings).toBe(0);
  });

  it('a list without a bad value is embedded whole, every vector in its place', async () => {
    const values = valuesWith('text 4000');
    const { embeddings } = await embedMany({ model: gateway().embeddingModel(ENGINE), values });
    expect(embeddings).toHaveLength(5000);
    const [one] = (
      await embedMany({ model: gateway().embeddingModel(ENGINE), values: ['text 4000'] })
    ).embeddings;
    expect(embeddings[4000]).toEqual(one);
  });
});

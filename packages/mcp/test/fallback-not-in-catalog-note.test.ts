/**
 * A `fallback_models` id the catalog does not list is skipped by core (`not_in_catalog`); when the
 * requested model answers, the text a client hands its model names it too, not only the
 * structured route: a misspelt id is seen before the model it backs up fails.
 */
import { describe, expect, it } from 'vitest';
import { askModelOfFile, textOf } from './harness';

const ask = askModelOfFile({});

describe('a fallback_models id not in the catalog', () => {
  it('is named in a note after the answer', async () => {
    const result = await ask({
      model: 'community/general',
      prompt: 'hi',
      fallback_models: ['community/toolz'],
    });
    expect(result.isError).toBeFalsy();
    const text = textOf(result);
    expect(text).toMatch(/^Echo: hi\n\n/);
    expect(text).toContain(
      '(fallback_models: community/toolz is not in the catalog and was skipped: check the id with list_models)',
    );
    const route = (result.structuredContent as { route: { hops: unknown[] } }).route;
    expect(route.hops).toContainEqual({
      model: 'community/toolz',
      outcome: 'skipped',
      reason: 'not_in_catalog',
    });
  });

  it('adds no note when every fallback is listed', async () => {
    const result = await ask({
      model: 'community/general',
      prompt: 'hi',
      fallback_models: ['community/tools'],
    });
    expect(textOf(result)).not.toContain('not in the catalog');
  });
});

import { describe, expect, it } from 'vitest';
import { readUsage } from './read-usage';
import type { Usage } from './wire-types';

describe('readUsage', () => {
  it('reads the spec fields and the usual detail objects', () => {
    expect(
      readUsage({
        prompt_tokens: 10,
        completion_tokens: 4,
        total_tokens: 14,
        prompt_tokens_details: { cached_tokens: 6 },
        completion_tokens_details: { reasoning_tokens: 1 },
      }),
    ).toEqual({
      inputTokens: 10,
      outputTokens: 4,
      totalTokens: 14,
      cachedInputTokens: 6,
      reasoningTokens: 1,
    });
  });

  it('adds up a missing total and leaves out what is missing or not a number', () => {
    expect(readUsage({ prompt_tokens: 3, completion_tokens: 2 } as Usage)).toEqual({
      inputTokens: 3,
      outputTokens: 2,
      totalTokens: 5,
    });
    expect(readUsage({ prompt_tokens: '3', completion_tokens: 2 } as unknown as Usage)).toEqual({
      outputTokens: 2,
    });
    expect(readUsage(null)).toBeUndefined();
    expect(readUsage(undefined)).toBeUndefined();
  });
});

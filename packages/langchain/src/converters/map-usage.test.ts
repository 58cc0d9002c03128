import { describe, expect, it } from 'vitest';
import { spentUsage } from './map-usage';

describe('spentUsage', () => {
  it('maps the counts and adds a missing total; the details are `{}` when none was counted', () => {
    expect(
      spentUsage({ prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 }, undefined),
    ).toEqual({
      input_tokens: 3,
      output_tokens: 2,
      total_tokens: 5,
      input_token_details: {},
      output_token_details: {},
    });
    expect(
      spentUsage({ prompt_tokens: 3, completion_tokens: 2 } as never, undefined),
    ).toMatchObject({
      total_tokens: 5,
    });
    expect(spentUsage(undefined, undefined)).toBeUndefined();
    expect(spentUsage({} as never, undefined)).toBeUndefined();
  });

  it('reports cached and reasoning tokens when the model server adds them', () => {
    expect(
      spentUsage(
        {
          prompt_tokens: 10,
          completion_tokens: 8,
          total_tokens: 18,
          prompt_tokens_details: { cached_tokens: 4 },
          completion_tokens_details: { reasoning_tokens: 5 },
        },
        undefined,
      ),
    ).toEqual({
      input_tokens: 10,
      output_tokens: 8,
      total_tokens: 18,
      input_token_details: { cache_read: 4 },
      output_token_details: { reasoning: 5 },
    });
  });

  // ChatOpenAI gives cache_creation for prompt_tokens_details.cache_write_tokens.
  it.each([
    [
      { prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 1100 } },
      { cache_read: 0, cache_creation: 1100 },
    ],
    [{ cache_creation_input_tokens: 1100 }, { cache_creation: 1100 }],
  ])('reports the prompt tokens written to the cache (%j)', (fields, details) => {
    const usage = { prompt_tokens: 1200, completion_tokens: 10, total_tokens: 1210, ...fields };
    expect(spentUsage(usage, undefined)).toEqual({
      input_tokens: 1200,
      output_tokens: 10,
      total_tokens: 1210,
      input_token_details: details,
      output_token_details: {},
    });
  });

  // ChatOpenAI's details for the same usage: the audio counts next to the others, or alone.
  it.each([
    [
      { cached_tokens: 4, audio_tokens: 12 },
      { reasoning_tokens: 2, audio_tokens: 9 },
      { input_token_details: { cache_read: 4, audio: 12 } },
      { output_token_details: { reasoning: 2, audio: 9 } },
    ],
    [
      { audio_tokens: 12 },
      undefined,
      { input_token_details: { audio: 12 } },
      { output_token_details: {} },
    ],
  ])('reports audio tokens (prompt details %j)', (prompt, completion, input, output) => {
    const usage = { prompt_tokens: 30, completion_tokens: 20, total_tokens: 50 };
    const details = { prompt_tokens_details: prompt, completion_tokens_details: completion };
    expect(spentUsage({ ...usage, ...details }, undefined)).toEqual({
      input_tokens: 30,
      output_tokens: 20,
      total_tokens: 50,
      ...input,
      ...output,
    });
  });
});

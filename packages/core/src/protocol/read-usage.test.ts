import { describe, expect, it } from 'vitest';
import { readUsage } from './read-usage';
import type { Usage } from './wire-types';

/** A usage field the row does not send. */
const _ = undefined;

// OpenAI's completion_tokens include the reasoning; xAI's do not (vercel/ai#11487, #12425). Each
// row: the case; the usage sent (prompt_tokens, completion_tokens, total_tokens, and
// completion_tokens_details.reasoning_tokens; `_` a field not sent); then the output and total
// tokens read from it.
type ReasoningCase = [
  name: string,
  prompt: number,
  completion: number | undefined,
  total: number | undefined,
  reasoning: number,
  output: number,
  readTotal: number,
];
// biome-ignore format: a table, one case a line
const REASONING_CASES: ReasoningCase[] = [
  ['OpenAI: completion_tokens include the reasoning',                                           10,    40,    50,    10,    40,    50],
  ['xAI (grok-4-fast-reasoning, vercel/ai#11487): total = prompt + completion + reasoning',    279,     6,   374,    89,    95,   374],
  ['xAI, more text than reasoning: told apart by total_tokens',                                 10,    40,    60,    10,    50,    60],
  ['reasoning over completion_tokens, no total_tokens: completion + reasoning',                 10,    10,     _,    93,   103,   113],
  ['reasoning over completion_tokens, total_tokens counting it alone (vercel/ai#18614)',       951,  6000,  6952,  6001,  6001,  6952],
  ['no completion_tokens: the output is total − prompt when that holds the reasoning',          10,     _,    40,    20,    30,    40],
  ['no completion_tokens nor total_tokens: the output is the reasoning',                        10,     _,     _,    20,    20,    30],
  ['total_tokens below prompt + output: the total is prompt + output',                          10,     5,    15,    20,    25,    35],
];

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

  it('reads the audio tokens of prompt and answer (OpenAI audio models)', () => {
    const audio = readUsage({
      prompt_tokens: 20,
      completion_tokens: 15,
      total_tokens: 35,
      prompt_tokens_details: { audio_tokens: 12 },
      completion_tokens_details: { audio_tokens: 9 },
    });
    expect(audio?.inputAudioTokens).toBe(12);
    expect(audio?.outputAudioTokens).toBe(9);
    const none = readUsage({ prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 });
    expect(Object.keys(none ?? {})).toEqual(['inputTokens', 'outputTokens', 'totalTokens']);
  });

  it.each([
    [
      'prompt_tokens_details.cache_write_tokens (OpenAI, OpenRouter)',
      { prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 1100 } },
    ],
    ['cache_creation_input_tokens (LiteLLM)', { cache_creation_input_tokens: 1100 }],
    [
      'both: the detail first',
      { prompt_tokens_details: { cache_write_tokens: 1100 }, cache_creation_input_tokens: 7 },
    ],
  ])('reads the prompt tokens written to the cache: %s', (_, fields) => {
    const counts = readUsage({
      prompt_tokens: 1200,
      completion_tokens: 10,
      total_tokens: 1210,
      ...fields,
    });
    expect(counts?.cacheWriteTokens).toBe(1100);
    expect(counts?.inputTokens).toBe(1200);
  });

  it('a cache write count that is negative reads as 0, one that is null or not a number is left out', () => {
    const usage = { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 };
    expect(readUsage({ ...usage, cache_creation_input_tokens: -5 })?.cacheWriteTokens).toBe(0);
    for (const written of [null, '9']) {
      const counts = readUsage({
        ...usage,
        prompt_tokens_details: { cache_write_tokens: written },
      });
      expect(counts).not.toHaveProperty('cacheWriteTokens');
    }
  });

  it('adds up a missing total and leaves out what is missing or not a number', () => {
    expect(readUsage({ prompt_tokens: 3, completion_tokens: 2 } as Usage)).toEqual({
      inputTokens: 3,
      outputTokens: 2,
      totalTokens: 5,
    });
    expect(readUsage({ prompt_tokens: '3', completion_tokens: 2 } as unknown as Usage)).toEqual({
      outputTokens: 2,
      totalTokens: 2,
    });
    expect(readUsage(null)).toBeUndefined();
    expect(readUsage(undefined)).toBeUndefined();
  });

  it.each([
    [
      { prompt_tokens: 4, completion_tokens: 5, total_tokens: 2 },
      { outputTokens: 5, totalTokens: 9 },
    ],
    [{ prompt_tokens: 4, total_tokens: 2 }, { totalTokens: 4 }],
    [
      { prompt_tokens: 4, completion_tokens_details: { reasoning_tokens: 0 } },
      { totalTokens: 4, reasoningTokens: 0 },
    ],
  ])('%o: no total below input + output, no output made up', (wire, expected) => {
    expect(readUsage(wire as unknown as Usage)).toEqual({ inputTokens: 4, ...expected });
  });

  it('never gives a negative count', () => {
    expect(
      readUsage({
        prompt_tokens: -3,
        completion_tokens: -2,
        total_tokens: -5,
        prompt_tokens_details: { cached_tokens: -1 },
        completion_tokens_details: { reasoning_tokens: -4 },
      }),
    ).toEqual({
      inputTokens: 0,
      outputTokens: 0,
      totalTokens: 0,
      cachedInputTokens: 0,
      reasoningTokens: 0,
    });
  });

  it.each(REASONING_CASES)(
    '%s: the output counts the reasoning',
    (_case, prompt, completion, total, reasoning, output, readTotal) => {
      const usage = {
        prompt_tokens: prompt,
        ...(completion !== _ && { completion_tokens: completion }),
        ...(total !== _ && { total_tokens: total }),
        completion_tokens_details: { reasoning_tokens: reasoning },
      };
      expect(readUsage(usage as Usage)).toEqual({
        inputTokens: prompt,
        reasoningTokens: reasoning,
        outputTokens: output,
        totalTokens: readTotal,
      });
    },
  );
});

import { describe, expect, it } from 'vitest';
import { convertGatewayUsage } from './convert-gateway-usage';

describe('convertGatewayUsage', () => {
  it('maps prompt and completion tokens', () => {
    const usage = { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 };
    expect(convertGatewayUsage(usage)).toEqual({
      inputTokens: { total: 7, noCache: 7, cacheRead: 0, cacheWrite: undefined },
      outputTokens: { total: 3, text: 3, reasoning: 0 },
      raw: usage,
    });
  });

  it('reads cached and reasoning details when a server reports them', () => {
    const usage = {
      prompt_tokens: 10,
      completion_tokens: 8,
      total_tokens: 18,
      prompt_tokens_details: { cached_tokens: 4 },
      completion_tokens_details: { reasoning_tokens: 5 },
    };
    const mapped = convertGatewayUsage(usage);
    expect(mapped.inputTokens).toEqual({
      total: 10,
      noCache: 6,
      cacheRead: 4,
      cacheWrite: undefined,
    });
    expect(mapped.outputTokens).toEqual({ total: 8, text: 3, reasoning: 5 });
  });

  it('reads the prompt tokens written to the cache; the uncached input is what is left', () => {
    const usage = {
      prompt_tokens: 1200,
      completion_tokens: 10,
      total_tokens: 1210,
      prompt_tokens_details: { cached_tokens: 100, cache_write_tokens: 1000 },
    };
    expect(convertGatewayUsage(usage).inputTokens).toEqual({
      total: 1200,
      noCache: 100,
      cacheRead: 100,
      cacheWrite: 1000,
    });
    const over = { ...usage, prompt_tokens: 500 };
    expect(convertGatewayUsage(over).inputTokens.noCache).toBe(0);
  });

  it('reports unknown usage as undefined counts', () => {
    expect(convertGatewayUsage(undefined)).toEqual({
      inputTokens: {
        total: undefined,
        noCache: undefined,
        cacheRead: undefined,
        cacheWrite: undefined,
      },
      outputTokens: { total: undefined, text: undefined, reasoning: undefined },
    });
  });
});

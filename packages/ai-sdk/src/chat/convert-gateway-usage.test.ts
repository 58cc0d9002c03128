import { describe, expect, it } from 'vitest';
import { convertGatewayUsage } from './convert-gateway-usage';

describe('convertGatewayUsage', () => {
  it('maps prompt and completion tokens', () => {
    const usage = { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 };
    expect(convertGatewayUsage(usage)).toEqual({
      inputTokens: { total: 7, noCache: 7, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 3, text: 3, reasoning: undefined },
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

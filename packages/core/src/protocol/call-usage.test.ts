import { describe, expect, it } from 'vitest';
import { callUsage } from './call-usage';
import type { FailedChatRoute } from './chat-route';

const refused = { prompt_tokens: 10, completion_tokens: 4, total_tokens: 14 };
const answer = {
  prompt_tokens: 12,
  completion_tokens: 6,
  total_tokens: 18,
  completion_tokens_details: { reasoning_tokens: 2 },
};

describe('callUsage', () => {
  it("adds each refused hop's counts to the answer's", () => {
    const route: FailedChatRoute = {
      requested: ['a', 'b'],
      hops: [
        { model: 'a', outcome: 'failed', reason: 'invalid_structured_output', usage: refused },
        { model: 'b', outcome: 'answered' },
      ],
    };
    expect(callUsage(answer, route)).toEqual({
      inputTokens: 22,
      outputTokens: 10,
      totalTokens: 32,
      reasoningTokens: 2,
    });
  });

  it("counts an answer its route's last hop ended with once", () => {
    const route: FailedChatRoute = {
      requested: ['a', 'b'],
      hops: [
        { model: 'a', outcome: 'failed', reason: 'invalid_structured_output', usage: refused },
        { model: 'b', outcome: 'ended', code: 'invalid_structured_output', usage: answer },
      ],
    };
    expect(callUsage(answer, route)?.totalTokens).toBe(32);
  });

  it("without hops that report usage: the answer's counts", () => {
    expect(callUsage(answer, undefined)).toEqual(callUsage(answer, { requested: [], hops: [] }));
    expect(callUsage(answer, undefined)?.totalTokens).toBe(18);
    expect(callUsage(undefined, undefined)).toBeUndefined();
  });
});

// docs/gateway-protocol.md §4.3 (`usage`), §4.7 (a route's hops: the usage of a refused answer).
// What a call spent, counted once per answer whatever hop ends the route, and over hops whose
// model servers report their usage in different shapes (a total, or only its parts).
import { describe, expect, it } from 'vitest';
import { callUsage } from './call-usage';
import type { FailedChatRoute } from './chat-route';
import type { Usage } from './wire-types';

const first = { prompt_tokens: 10, completion_tokens: 4, total_tokens: 14 };
const last = { prompt_tokens: 12, completion_tokens: 6, total_tokens: 18 };

const refusedHop = (model: string, usage: Usage) =>
  ({ model, outcome: 'failed', reason: 'invalid_structured_output', usage }) as const;

describe('callUsage: each answer once', () => {
  it("a call whose every model's answer was refused: its last refusal (the error's) is counted once", () => {
    // The route such a call's error carries: the walk's last failover is its last hop.
    const route: FailedChatRoute = {
      requested: ['a', 'b'],
      hops: [refusedHop('a', first), refusedHop('b', last)],
    };
    expect(callUsage(last, route)).toEqual({ inputTokens: 22, outputTokens: 10, totalTokens: 32 });
  });

  it('a refused hop before an answered one: both answers', () => {
    const route: FailedChatRoute = {
      requested: ['a', 'b'],
      hops: [refusedHop('a', first), { model: 'b', outcome: 'answered' }],
    };
    expect(callUsage(last, route)?.totalTokens).toBe(32);
  });
});

describe('callUsage: hops reporting their usage in different shapes', () => {
  it('a hop without total_tokens adds its prompt + completion to the total', () => {
    const parts = { prompt_tokens: 10, completion_tokens: 4 } as Usage;
    const route: FailedChatRoute = {
      requested: ['a', 'b'],
      hops: [refusedHop('a', parts), { model: 'b', outcome: 'answered' }],
    };
    expect(callUsage(last, route)).toEqual({ inputTokens: 22, outputTokens: 10, totalTokens: 32 });
    // The other way round: the answer without a total, the refused hop with one.
    const withTotal: FailedChatRoute = { ...route, hops: [refusedHop('a', first), route.hops[1]!] };
    const answer = { prompt_tokens: 12, completion_tokens: 6 } as Usage;
    expect(callUsage(answer, withTotal)?.totalTokens).toBe(32);
  });

  it('a hop with only total_tokens adds to the total alone', () => {
    const total = { total_tokens: 30 } as Usage;
    const route: FailedChatRoute = {
      requested: ['a', 'b'],
      hops: [refusedHop('a', total), { model: 'b', outcome: 'answered' }],
    };
    expect(callUsage(last, route)).toEqual({ inputTokens: 12, outputTokens: 6, totalTokens: 48 });
  });
});

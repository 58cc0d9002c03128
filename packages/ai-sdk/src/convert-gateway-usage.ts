import type { JSONObject, LanguageModelV4Usage } from '@ai-sdk/provider';
import type { Usage } from '@infergate/core';

/**
 * Maps the gateway's `usage` (present when the model server reports it) to V4 usage.
 * Cached and reasoning token details are read when a server adds the usual sub-objects.
 */
export function convertGatewayUsage(usage: Usage | null | undefined): LanguageModelV4Usage {
  const promptTokens = numberOrUndefined(usage?.prompt_tokens);
  const completionTokens = numberOrUndefined(usage?.completion_tokens);
  const cached = numberOrUndefined(detail(usage?.prompt_tokens_details, 'cached_tokens'));
  const reasoning = numberOrUndefined(detail(usage?.completion_tokens_details, 'reasoning_tokens'));

  return {
    inputTokens: {
      total: promptTokens,
      noCache: promptTokens !== undefined ? promptTokens - (cached ?? 0) : undefined,
      cacheRead: cached,
      cacheWrite: undefined,
    },
    outputTokens: {
      total: completionTokens,
      text: completionTokens !== undefined ? completionTokens - (reasoning ?? 0) : undefined,
      reasoning,
    },
    ...(usage != null ? { raw: usage as JSONObject } : {}),
  };
}

function detail(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

function numberOrUndefined(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

// docs/gateway-protocol.md §4.3 (`usage`, present only when the model server reports it).
import type { JSONObject, LanguageModelV4Usage } from '@ai-sdk/provider';
import type { FailedChatRoute, Usage } from '@infergate/core';
import { callUsage, readUsage } from '@infergate/core/internal';

/**
 * Maps the gateway's `usage` (present when the model server reports it), read by core's
 * `readUsage`, to V4 usage. Unknown totals stay undefined, and so does everything without a usage.
 * A reported total whose cache-read or reasoning part the server left out has none of it (0), as
 * the AI SDK's OpenAI-compatible provider reads the same bytes, and as the uncached input and the
 * text are computed: a sum over the parts (a cost) then adds up instead of giving NaN. (Cache
 * writes stay undefined unless reported: that provider reads none.) Core's output counts the
 * reasoning and is never less than it, so the text is the difference. The prompt holds the tokens
 * read from and written to the cache, so the uncached input is what is left; cache counts above
 * the prompt (the server's counts disagree) leave none rather than a negative count.
 * With a steered call's `route`: what the call spent (core's `callUsage`: the answer's counts and
 * those of each answer the schema's check refused on the way, added up), as LangChain's
 * `usage_metadata` counts it; `raw` stays the answer's own `usage` as the gateway sent it.
 */
export function convertGatewayUsage(
  usage: Usage | null | undefined,
  route?: FailedChatRoute,
): LanguageModelV4Usage {
  const counts = route === undefined ? readUsage(usage) : callUsage(usage, route);
  const input = counts?.inputTokens;
  const output = counts?.outputTokens;
  const cached = counts?.cachedInputTokens ?? (input !== undefined ? 0 : undefined);
  const written = counts?.cacheWriteTokens;
  const reasoning = counts?.reasoningTokens ?? (output !== undefined ? 0 : undefined);

  return {
    inputTokens: {
      total: input,
      noCache:
        input !== undefined ? Math.max(0, input - (cached ?? 0) - (written ?? 0)) : undefined,
      cacheRead: cached,
      cacheWrite: written,
    },
    outputTokens: {
      total: output,
      text: output !== undefined ? output - (reasoning ?? 0) : undefined,
      reasoning,
    },
    ...(usage != null ? { raw: usage as JSONObject } : {}),
  };
}

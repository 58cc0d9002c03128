// docs/gateway-protocol.md §4.3 (`usage`, present only when the model server reports it).
import type { JSONObject, LanguageModelV4Usage } from '@ai-sdk/provider';
import type { Usage } from '@infergate/core';
import { readUsage } from '@infergate/core/internal';

type UsageCounts = NonNullable<ReturnType<typeof readUsage>>;

/**
 * Maps the gateway's `usage` (present when the model server reports it), read by core's
 * `readUsage`, to V4 usage. Unknown counts stay undefined; no count is negative.
 */
export function convertGatewayUsage(usage: Usage | null | undefined): LanguageModelV4Usage {
  const counts = readUsage(usage);
  const input = counts?.inputTokens;
  const cached = counts?.cachedInputTokens;
  const reasoning = counts?.reasoningTokens;
  const output = counts === undefined ? undefined : outputTotal(counts);

  return {
    inputTokens: {
      total: input,
      noCache: input !== undefined ? Math.max(0, input - (cached ?? 0)) : undefined,
      cacheRead: cached,
      cacheWrite: undefined,
    },
    outputTokens: {
      total: output,
      text: output !== undefined ? Math.max(0, output - (reasoning ?? 0)) : undefined,
      reasoning,
    },
    ...(usage != null ? { raw: usage as JSONObject } : {}),
  };
}

/**
 * The answer's output tokens, reasoning included. OpenAI's `completion_tokens` includes the
 * reasoning tokens; xAI's counts the text alone, the reasoning only in `total_tokens` (vercel/ai
 * #11487, #12425). Such usage shows itself when `total_tokens` is prompt + completion + reasoning,
 * or when reasoning exceeds `completion_tokens`: the output is then what `total_tokens` leaves
 * after the prompt (at least the reasoning), else completion + reasoning.
 */
function outputTotal(counts: UsageCounts): number | undefined {
  const { inputTokens: input, outputTokens: output, totalTokens: total } = counts;
  const reasoning = counts.reasoningTokens ?? 0;
  if (output === undefined || reasoning === 0) return output;
  const afterInput = input !== undefined && total !== undefined ? total - input : undefined;
  if (afterInput === output + reasoning) return afterInput;
  if (reasoning <= output) return output;
  return afterInput !== undefined && afterInput >= reasoning ? afterInput : output + reasoning;
}

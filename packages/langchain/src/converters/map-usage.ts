// docs/gateway-protocol.md §4.3 (`usage`).
import type { ChatRoute, FailedChatRoute, Usage, UsageCounts } from '@infergate/core';
import { callUsage } from '@infergate/core/internal';
import type { TokenUsage } from '@langchain/core/language_models/base';
import type { UsageMetadata } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';

/**
 * What a call spent (core's `callUsage`: its answer's usage and that of every answer of its route
 * the call left, a hop whose answer failed the schema's check, each answer counted once; without a
 * route, the answer's usage read by core's `readUsage`: no count negative, the output counting the
 * reasoning) as LangChain usage metadata — what `usage_metadata` and so the callbacks' token counts report.
 * `response_metadata.usage` stays the answer's own, and each hop's is on its hop.
 */
export function spentUsage(
  usage: Usage | null | undefined,
  route: ChatRoute | FailedChatRoute | undefined,
): UsageMetadata | undefined {
  return usageMetadata(callUsage(usage, route));
}

/**
 * Token counts (core's `UsageCounts`) → LangChain usage metadata; none when the server counted
 * nothing (`{}`, every count null), as `ChatOpenAI` leaves out the counts it was not sent.
 */
function usageMetadata(counts: UsageCounts | undefined): UsageMetadata | undefined {
  // Core leaves out every count that is missing, so an empty object means none was sent.
  if (!counts || Object.keys(counts).length === 0) return undefined;
  const input = counts.inputTokens ?? 0;
  const output = counts.outputTokens ?? 0;
  const metadata: UsageMetadata = {
    input_tokens: input,
    output_tokens: output,
    total_tokens: counts.totalTokens ?? input + output,
  };
  // The details always, `{}` when none was counted, as LangChain's stream joins them and as
  // `ChatOpenAI`'s invoke gives them: `usage_metadata.input_token_details.cache_read` reads on every path.
  metadata.input_token_details = sent({
    cache_read: counts.cachedInputTokens,
    cache_creation: counts.cacheWriteTokens,
    audio: counts.inputAudioTokens,
  });
  metadata.output_token_details = sent({
    reasoning: counts.reasoningTokens,
    audio: counts.outputAudioTokens,
  });
  return metadata;
}

/** The details that were counted (the others left out). */
function sent<T extends Record<string, number | undefined>>(details: T): T {
  for (const key in details) if (details[key] === undefined) delete details[key];
  return details;
}

/**
 * `invoke`'s result with LangChain's `llmOutput.tokenUsage` (what `handleLLMEnd` and `generate()`
 * give), read from the message's usage: LangChain gives it itself for a `.stream()`, so callbacks
 * count tokens alike on every path, as with `ChatOpenAI`. LangChain also copies it into the
 * message's `response_metadata`, as `ChatOpenAI`'s.
 */
export function withTokenUsage(result: ChatResult): ChatResult {
  const usage = (result.generations[0]?.message as { usage_metadata?: UsageMetadata } | undefined)
    ?.usage_metadata;
  if (usage) {
    const { input_tokens, output_tokens, total_tokens } = usage;
    result.llmOutput = {
      tokenUsage: {
        promptTokens: input_tokens,
        completionTokens: output_tokens,
        totalTokens: total_tokens,
      },
    };
  }
  return result;
}

/** `generate()`'s `llmOutput` over several prompts: their token counts added up. */
export function combineTokenUsage(...outputs: (Record<string, unknown> | undefined)[]): {
  tokenUsage: Required<TokenUsage>;
} {
  const tokenUsage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  for (const output of outputs) {
    for (const key in tokenUsage) {
      const name = key as keyof TokenUsage;
      tokenUsage[name] += (output?.tokenUsage as TokenUsage | undefined)?.[name] ?? 0;
    }
  }
  return { tokenUsage };
}

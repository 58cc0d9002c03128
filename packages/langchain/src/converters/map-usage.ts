// docs/gateway-protocol.md §4.3 (`usage`).
import type { Usage } from '@infergate/core';
import { readUsage } from '@infergate/core/internal';
import type { TokenUsage } from '@langchain/core/language_models/base';
import type { UsageMetadata } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';

/**
 * Gateway usage (docs/gateway-protocol.md §4.3), read by core's `readUsage` (no count negative, the
 * output counting the reasoning) → LangChain usage metadata; none when the server counted nothing
 * (`{}`, every count null), as `ChatOpenAI` leaves out the counts it was not sent.
 */
export function mapUsage(usage: Usage | null | undefined): UsageMetadata | undefined {
  const counts = readUsage(usage);
  // readUsage leaves out every count that is missing, so an empty object means none was sent.
  if (!counts || Object.keys(counts).length === 0) return undefined;
  const input = counts.inputTokens ?? 0;
  const output = counts.outputTokens ?? 0;
  const metadata: UsageMetadata = {
    input_tokens: input,
    output_tokens: output,
    total_tokens: counts.totalTokens ?? input + output,
  };
  const inputDetails = sent({
    cache_read: counts.cachedInputTokens,
    audio: counts.inputAudioTokens,
  });
  if (inputDetails) metadata.input_token_details = inputDetails;
  const outputDetails = sent({
    reasoning: counts.reasoningTokens,
    audio: counts.outputAudioTokens,
  });
  if (outputDetails) metadata.output_token_details = outputDetails;
  return metadata;
}

/** The details that were counted (the others left out); undefined when none was. */
function sent<T extends Record<string, number | undefined>>(details: T): T | undefined {
  let some = false;
  for (const key in details) {
    if (details[key] === undefined) delete details[key];
    else some = true;
  }
  return some ? details : undefined;
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
  if (usage === undefined) return result;
  const tokenUsage: TokenUsage = {
    promptTokens: usage.input_tokens,
    completionTokens: usage.output_tokens,
    totalTokens: usage.total_tokens,
  };
  return { ...result, llmOutput: { ...result.llmOutput, tokenUsage } };
}

/** `generate()`'s `llmOutput` over several prompts: their token counts added up. */
export function combineTokenUsage(...outputs: (Record<string, unknown> | undefined)[]): {
  tokenUsage: Required<TokenUsage>;
} {
  const sum = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  for (const output of outputs) {
    const counts = output?.tokenUsage as TokenUsage | undefined;
    sum.promptTokens += counts?.promptTokens ?? 0;
    sum.completionTokens += counts?.completionTokens ?? 0;
    sum.totalTokens += counts?.totalTokens ?? 0;
  }
  return { tokenUsage: sum };
}

// docs/gateway-protocol.md §4.3 (`usage`).
import type { Usage } from '@infergate/core';
import { readUsage } from '@infergate/core/internal';
import type { UsageMetadata } from '@langchain/core/messages';

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
  if (counts.cachedInputTokens !== undefined) {
    metadata.input_token_details = { cache_read: counts.cachedInputTokens };
  }
  if (counts.reasoningTokens !== undefined) {
    metadata.output_token_details = { reasoning: counts.reasoningTokens };
  }
  return metadata;
}

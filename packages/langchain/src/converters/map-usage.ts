import type { Usage } from '@infergate/core';
import type { UsageMetadata } from '@langchain/core/messages';

/** Gateway usage (spec 2.6) → LangChain usage metadata. */
export function mapUsage(usage: Usage | null | undefined): UsageMetadata | undefined {
  if (!usage) return undefined;
  const input = usage.prompt_tokens ?? 0;
  const output = usage.completion_tokens ?? 0;
  return {
    input_tokens: input,
    output_tokens: output,
    total_tokens: usage.total_tokens ?? input + output,
  };
}

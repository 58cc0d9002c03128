// docs/gateway-protocol.md §4.3 (`usage`, when the model server reports it).
import type { Usage } from './wire-types';

/** Token counts of one answer, each present only when the model server reported it. */
export interface UsageCounts {
  /** `prompt_tokens`. */
  inputTokens?: number;
  /** `completion_tokens`. */
  outputTokens?: number;
  /** `total_tokens`, else input + output when both are known. */
  totalTokens?: number;
  /** `prompt_tokens_details.cached_tokens`, which some model servers add. */
  cachedInputTokens?: number;
  /** `completion_tokens_details.reasoning_tokens`, which some model servers add. */
  reasoningTokens?: number;
}

/**
 * Reads the gateway's `usage` (docs/gateway-protocol.md §4.3: present when the model server reports it). Counts that
 * are missing or not finite numbers are left out; `undefined` when there is no usage at all.
 */
export function readUsage(usage: Usage | null | undefined): UsageCounts | undefined {
  if (typeof usage !== 'object' || usage === null) return undefined;
  const counts: UsageCounts = {};
  const input = count(usage.prompt_tokens);
  const output = count(usage.completion_tokens);
  const total =
    count(usage.total_tokens) ??
    (input !== undefined && output !== undefined ? input + output : undefined);
  const cached = count(detail(usage.prompt_tokens_details, 'cached_tokens'));
  const reasoning = count(detail(usage.completion_tokens_details, 'reasoning_tokens'));
  if (input !== undefined) counts.inputTokens = input;
  if (output !== undefined) counts.outputTokens = output;
  if (total !== undefined) counts.totalTokens = total;
  if (cached !== undefined) counts.cachedInputTokens = cached;
  if (reasoning !== undefined) counts.reasoningTokens = reasoning;
  return counts;
}

function detail(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

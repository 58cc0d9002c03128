// docs/gateway-protocol.md §4.3 (`usage`, when the model server reports it).
import type { Usage } from './wire-types';

/**
 * Token counts of one answer, each present only when the model server reported it, none negative.
 */
export interface UsageCounts {
  /** `prompt_tokens`. */
  inputTokens?: number;
  /**
   * The answer's output, reasoning included: `completion_tokens`, plus the reasoning when the server
   * counts it outside them or leaves them out (docs/gateway-protocol.md §4.3). Never less than
   * `reasoningTokens`.
   */
  outputTokens?: number;
  /** `total_tokens`, but never less than input + output (either alone when the other is missing). */
  totalTokens?: number;
  /** `prompt_tokens_details.cached_tokens`, which some model servers add: read from their cache. */
  cachedInputTokens?: number;
  /**
   * Prompt tokens written to the model server's prompt cache, part of `inputTokens`:
   * `prompt_tokens_details.cache_write_tokens` (OpenAI, OpenRouter, vLLM), else
   * `cache_creation_input_tokens` (LiteLLM, Anthropic's name).
   */
  cacheWriteTokens?: number;
  /** `completion_tokens_details.reasoning_tokens`, which some model servers add. */
  reasoningTokens?: number;
  /** `prompt_tokens_details.audio_tokens`: the prompt's audio (OpenAI's audio models). */
  inputAudioTokens?: number;
  /** `completion_tokens_details.audio_tokens`: the answer's audio. */
  outputAudioTokens?: number;
  /** `completion_tokens_details.accepted_prediction_tokens`: a predicted output's tokens kept. */
  acceptedPredictionTokens?: number;
  /** `completion_tokens_details.rejected_prediction_tokens`: a predicted output's tokens not kept. */
  rejectedPredictionTokens?: number;
}

/**
 * Reads the gateway's `usage` (docs/gateway-protocol.md §4.3: present when the model server reports it). Counts that
 * are missing or not finite numbers are left out, negative ones read as 0; `undefined` when there is no usage at all.
 */
export function readUsage(usage: Usage | null | undefined): UsageCounts | undefined {
  if (typeof usage !== 'object' || usage === null) return undefined;
  // A missing count is NaN until the end: every sum and comparison with it is then NaN or false.
  const input = count(usage.prompt_tokens);
  const completion = count(usage.completion_tokens);
  const given = count(usage.total_tokens);
  const promptDetails = usage.prompt_tokens_details as Details;
  const completionDetails = usage.completion_tokens_details as Details;
  const reasoning = count(completionDetails?.reasoning_tokens);
  // OpenAI's completion_tokens include the reasoning; xAI's count the text alone (vercel/ai#11487).
  // Such usage shows itself when total − prompt is completion + reasoning, or when the reasoning
  // exceeds the completion (a missing one counting as 0): the output is then total − prompt if that
  // holds the reasoning, else completion + reasoning. The total is never below input + output.
  const rest = given - input;
  const text = completion || 0;
  const output =
    reasoning > text || rest === completion + reasoning
      ? rest >= reasoning
        ? rest
        : text + reasoning
      : completion;
  const sum = (input || 0) + (output || 0);
  const read: Required<UsageCounts> = {
    inputTokens: input,
    outputTokens: output,
    totalTokens: given >= sum || !(input >= 0 || output >= 0) ? given : sum,
    cachedInputTokens: count(promptDetails?.cached_tokens),
    cacheWriteTokens: count(promptDetails?.cache_write_tokens ?? usage.cache_creation_input_tokens),
    reasoningTokens: reasoning,
    inputAudioTokens: count(promptDetails?.audio_tokens),
    outputAudioTokens: count(completionDetails?.audio_tokens),
    acceptedPredictionTokens: count(completionDetails?.accepted_prediction_tokens),
    rejectedPredictionTokens: count(completionDetails?.rejected_prediction_tokens),
  };
  // The counts reported, in this order. (Copied, not deleted from `read`: an object that loses a
  // property becomes a slow dictionary, and every answer's usage lacks some.)
  const counts: UsageCounts = {};
  for (const key in read) {
    const value = read[key as keyof UsageCounts];
    if (!Number.isNaN(value)) counts[key as keyof UsageCounts] = value;
  }
  return counts;
}

type Details = Record<string, unknown> | null | undefined;

/** A count: a finite number, at least 0; else NaN. */
function count(value: unknown): number {
  return Number.isFinite(value) ? Math.max(0, value as number) : NaN;
}

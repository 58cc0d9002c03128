// docs/gateway-protocol.md §4.3 (`finish_reason`, as LangChain's stream protocol names it).
import { classifyFinishReason, type FinishReasonKind } from '@infergate/core/internal';
import type { FinishReason } from '@langchain/core/language_models/event';

/** LangChain's protocol has four reasons: an error or unknown reason ends the message as a stop. */
const REASONS: Partial<Record<FinishReasonKind, FinishReason>> = {
  length: 'length',
  tool_calls: 'tool_use',
  content_filter: 'content_filter',
};

/** The gateway's `finish_reason` (classified by core) → the reason of LangChain's content-block stream protocol. */
export function mapFinishReason(reason: string | null | undefined): FinishReason {
  return REASONS[classifyFinishReason(reason)] ?? 'stop';
}

// docs/gateway-protocol.md §4.3 and §5.1 (`finish_reason`).
import type { LanguageModelV4FinishReason } from '@ai-sdk/provider';
import { classifyFinishReason, type FinishReasonKind } from '@infergate/core/internal';

const UNIFIED: Record<FinishReasonKind, LanguageModelV4FinishReason['unified']> = {
  stop: 'stop',
  length: 'length',
  tool_calls: 'tool-calls',
  content_filter: 'content-filter',
  error: 'error',
  other: 'other',
};

/**
 * Maps the gateway's `finish_reason` (classified by core) to the AI SDK's unified reason; none (a
 * `finish_reason` null, as the spec allows) is `other` with no raw reason, as the anchor gives.
 * `sent`: what the server sent, when core reports another reason (core's `sentFinishReason`, a
 * finish event's `sent`: a refused `stop` is `content_filter`, unified `content-filter` as the
 * anchor's, raw `stop` as sent).
 */
export function mapGatewayFinishReason(
  reason: string | null | undefined,
  sent?: string,
): LanguageModelV4FinishReason {
  return { unified: UNIFIED[classifyFinishReason(reason)], raw: sent ?? reason ?? undefined };
}

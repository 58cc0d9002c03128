import type { LanguageModelV4FinishReason } from '@ai-sdk/provider';

/** Maps the gateway's `finish_reason` (chat-completions wording) to the AI SDK's unified reason. */
export function mapGatewayFinishReason(
  raw: string | null | undefined,
): LanguageModelV4FinishReason {
  return { unified: unifiedFinishReason(raw), raw: raw ?? undefined };
}

function unifiedFinishReason(
  raw: string | null | undefined,
): LanguageModelV4FinishReason['unified'] {
  switch (raw) {
    case 'stop':
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'length':
    case 'max_tokens':
      return 'length';
    case 'content_filter':
      return 'content-filter';
    case 'tool_calls':
    case 'function_call':
    case 'tool_use':
      return 'tool-calls';
    case 'error':
      return 'error';
    default:
      return 'other';
  }
}

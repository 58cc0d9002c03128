import type { FinishReason } from '@langchain/core/language_models/event';

/** The gateway's `finish_reason` → the reason of LangChain's content-block stream protocol. */
export function mapFinishReason(reason: string | null | undefined): FinishReason {
  switch (reason) {
    case 'length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'content_filter':
      return 'content_filter';
    default:
      return 'stop';
  }
}

// docs/gateway-protocol.md §4.3 (`finish_reason`), §5.2 (an answer ends with one).
/** What a `finish_reason` means, whatever words the model server used. */
export type FinishReasonKind =
  | 'stop'
  | 'length'
  | 'tool_calls'
  | 'content_filter'
  | 'error'
  | 'other';

const KINDS: Record<string, FinishReasonKind> = {
  stop: 'stop',
  end_turn: 'stop',
  stop_sequence: 'stop',
  length: 'length',
  max_tokens: 'length',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  tool_use: 'tool_calls',
  content_filter: 'content_filter',
  error: 'error',
};

/**
 * The kind of a chat answer's `finish_reason`. The gateway passes the model server's value on
 * (chat-completions wording: `stop`, `length`, `tool_calls`, …); servers that speak other
 * dialects say `end_turn`, `max_tokens`, `tool_use`, `function_call`. Anything else, or no
 * reason, is `other`.
 */
export function classifyFinishReason(reason: string | null | undefined): FinishReasonKind {
  return (reason != null && Object.hasOwn(KINDS, reason) ? KINDS[reason] : undefined) ?? 'other';
}

/**
 * The finish reason core reports for an answer whose choice 0 carried a `refusal`: a model that
 * declined and then stopped (`stop`, as OpenAI sends it) is reported as `content_filter`, so every
 * adapter classifies it so; any other reason (`length`, …) is kept.
 */
export function refusedFinishReason(reason: string): string {
  return classifyFinishReason(reason) === 'stop' ? 'content_filter' : reason;
}

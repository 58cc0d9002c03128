// docs/gateway-protocol.md §4.1 (reasoning sent back), §10.3 (a model server's own error, passed
// on with its status and body).
import type { DialectShape } from './dialects';
import type { ChatMessage } from './validate-chat-request';

/** DeepSeek's body for it, as its API sends it (OpenAI's error shape). */
const REFUSAL = {
  error: {
    message: 'The `reasoning_content` in the thinking mode must be passed back to the API.',
    type: 'invalid_request_error',
    param: null,
    code: 'invalid_request_error',
  },
};

/**
 * DeepSeek V4 in thinking mode (Kimi K2 thinking, MiMo alike) refuses a request in which an
 * assistant message that made tool calls comes back without its `reasoning_content`, in any turn
 * of the history, with a 400 the gateway passes on. Undefined: the request may go on.
 */
export function refuseToolCallsWithoutReasoning(
  messages: readonly ChatMessage[],
  shape: DialectShape,
  headers: Record<string, string>,
): Response | undefined {
  return shape.thinkingToolReplay === true && messages.some(isBareToolCallTurn)
    ? new Response(JSON.stringify(REFUSAL), {
        status: 400,
        headers: { 'content-type': 'application/json', ...headers },
      })
    : undefined;
}

function isBareToolCallTurn(message: ChatMessage & { reasoning_content?: unknown }): boolean {
  return (
    message.role === 'assistant' &&
    Array.isArray(message.tool_calls) &&
    message.tool_calls.length > 0 &&
    typeof message.reasoning_content !== 'string'
  );
}

// docs/gateway-protocol.md §4.1 (reasoning sent back), §10.3 (a model server's own error, passed
// on with its status and body).
import type { DialectShape } from './dialects';
import type { ChatRequest } from './validate-chat-request';

const MESSAGE = 'The `reasoning_content` in the thinking mode must be passed back to the API.';

/**
 * DeepSeek V4 in thinking mode (Kimi K2 thinking, MiMo alike) refuses a request in which an
 * assistant message that made tool calls comes back without its `reasoning_content`, in any turn
 * of the history: a 400 with DeepSeek's OpenAI-style body, which the gateway passes on.
 * Undefined: the request may go on.
 */
export function refuseToolCallsWithoutReasoning(
  request: ChatRequest,
  shape: DialectShape,
  headers: Record<string, string>,
): Response | undefined {
  if (shape.thinkingToolReplay !== true) return undefined;
  const bare = request.messages.some(
    (message) =>
      message.role === 'assistant' &&
      Array.isArray(message.tool_calls) &&
      message.tool_calls.length > 0 &&
      typeof (message as { reasoning_content?: unknown }).reasoning_content !== 'string',
  );
  if (!bare) return undefined;
  const error = { message: MESSAGE, type: 'invalid_request_error', param: null };
  return new Response(JSON.stringify({ error: { ...error, code: 'invalid_request_error' } }), {
    status: 400,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

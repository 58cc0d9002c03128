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

/**
 * Groq (Cerebras alike) checks each message against its schema, which has no `reasoning_content`
 * for an assistant: a request sending one back is refused with a 400 naming the first such message
 * (0-based), in OpenAI's error shape without `param` and `code`, as Groq's API sends it.
 * Undefined: the request may go on.
 */
export function refuseReasoningContent(
  messages: readonly ChatMessage[],
  shape: DialectShape,
  headers: Record<string, string>,
): Response | undefined {
  if (shape.refusesReasoningContent !== true) return undefined;
  const at = messages.findIndex(
    (message) => message.role === 'assistant' && 'reasoning_content' in message,
  );
  if (at < 0) return undefined;
  const path = `'messages.${at}'`;
  const body = {
    error: {
      message: `${path} : for 'role:assistant' the following must be satisfied[(${path} : property 'reasoning_content' is unsupported)]`,
      type: 'invalid_request_error',
    },
  };
  return new Response(JSON.stringify(body), {
    status: 400,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

function isBareToolCallTurn(message: ChatMessage & { reasoning_content?: unknown }): boolean {
  return (
    message.role === 'assistant' &&
    Array.isArray(message.tool_calls) &&
    message.tool_calls.length > 0 &&
    typeof message.reasoning_content !== 'string'
  );
}

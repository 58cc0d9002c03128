// docs/gateway-protocol.md §4.4 (tool calls' `extra_content`, tool results' `name`), §10.3 (a model
// server's own error, passed on with its status and body).
import { type DialectShape, thoughtSignature } from './dialects';
import { type ChatRequest, isJsonObject } from './validate-chat-request';

const SIGNATURE_DOCS = 'https://ai.google.dev/gemini-api/docs/thought-signatures';

/**
 * Gemini 3 refuses a request that replays a function call of the current turn (the messages after
 * the last user message) without the thought signature it gave with the call. Its OpenAI-compatible
 * endpoint says so with a 400 and a one-item list of Google's error objects; the gateway passes a
 * model server's error on with its status and body. Undefined: the request may go on.
 */
export function refuseUnsignedCalls(
  request: ChatRequest,
  shape: DialectShape,
  headers: Record<string, string>,
): Response | undefined {
  if (shape.thoughtSignatures !== true) return undefined;
  const unnamed = refuseUnnamedToolResults(request, headers);
  if (unnamed !== undefined) return unnamed;
  const { messages } = request;
  let start = messages.length;
  while (start > 0 && messages[start - 1]!.role !== 'user') start--;
  for (let i = start; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role !== 'assistant' || !Array.isArray(message.tool_calls)) continue;
    for (const call of message.tool_calls) {
      const name = call.function?.name ?? '';
      const given = signatureOf(call);
      if (given === thoughtSignature(call.id ?? '', name)) continue;
      const message =
        given === undefined
          ? `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${name}\` , position ${i + 1}. Please refer to ${SIGNATURE_DOCS} for more details.`
          : `Corrupted thought signature for function call \`default_api:${name}\` , position ${i + 1}.`;
      return geminiError(400, message, headers);
    }
  }
  return undefined;
}

/**
 * Gemini (the same dialect) also refuses a tool result without its tool's name: it becomes a
 * `function_response`, whose `name` must not be empty (one line per such message, each at its
 * place among Gemini's contents: the messages other than system ones).
 */
function refuseUnnamedToolResults(
  request: ChatRequest,
  headers: Record<string, string>,
): Response | undefined {
  let lines = '';
  let content = 0;
  for (const message of request.messages) {
    if (message.role === 'system') continue;
    if (message.role === 'tool' && (typeof message.name !== 'string' || message.name === '')) {
      lines += `* GenerateContentRequest.contents[${content}].parts[0].function_response.name: Name cannot be empty.\n`;
    }
    content++;
  }
  return lines === '' ? undefined : geminiError(400, lines, headers);
}

function signatureOf(call: unknown): string | undefined {
  const extra = isJsonObject(call) ? call.extra_content : undefined;
  const google = isJsonObject(extra) ? extra.google : undefined;
  const signature = isJsonObject(google) ? google.thought_signature : undefined;
  return typeof signature === 'string' ? signature : undefined;
}

function geminiError(status: number, message: string, headers: Record<string, string>): Response {
  const body = [{ error: { code: status, message, status: 'INVALID_ARGUMENT' } }];
  return new Response(JSON.stringify(body, null, 2), {
    status,
    headers: { 'content-type': 'application/json; charset=UTF-8', ...headers },
  });
}

/**
 * Maps chat bodies (OpenAI format, as sent and received) to the GenAI semantic conventions'
 * message shape (`gen_ai.input.messages` / `gen_ai.output.messages`): a role and typed parts.
 * Used only when content recording is on.
 */

interface GenAiPart {
  type: string;
  [key: string]: unknown;
}

interface GenAiMessage {
  role: string;
  parts: GenAiPart[];
  finish_reason?: string;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;

function contentParts(content: unknown): GenAiPart[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', content }];
  if (!Array.isArray(content)) return [];
  return content
    .filter(isObject)
    .map((part) =>
      typeof part.text === 'string'
        ? { type: 'text', content: part.text }
        : { type: typeof part.type === 'string' ? part.type : 'unknown' },
    );
}

/**
 * The answer's reasoning as the conventions' `reasoning` part (`{ type: 'reasoning', content }`):
 * `reasoning_content` (DeepSeek, vLLM) or `reasoning` (OpenRouter, Ollama), as core reads them.
 */
function reasoningParts(reasoning: unknown): GenAiPart[] {
  return typeof reasoning === 'string' && reasoning !== ''
    ? [{ type: 'reasoning', content: reasoning }]
    : [];
}

function toolCallParts(toolCalls: unknown): GenAiPart[] {
  if (!Array.isArray(toolCalls)) return [];
  return toolCalls.filter(isObject).map((call) => {
    const fn = isObject(call.function) ? call.function : {};
    return { type: 'tool_call', id: call.id, name: fn.name ?? call.name, arguments: fn.arguments };
  });
}

function message(raw: Json, finishReason?: unknown): GenAiMessage {
  const role = typeof raw.role === 'string' ? raw.role : 'assistant';
  const parts =
    role === 'tool'
      ? [{ type: 'tool_call_response', id: raw.tool_call_id, response: raw.content }]
      : [
          ...reasoningParts(raw.reasoning_content ?? raw.reasoning),
          ...contentParts(raw.content),
          ...toolCallParts(raw.tool_calls),
        ];
  return typeof finishReason === 'string'
    ? { role, parts, finish_reason: finishReason }
    : { role, parts };
}

/** The request's messages, or undefined when the body is not a chat request. */
export function inputMessages(body: string): string | undefined {
  const request = parse(body);
  if (!isObject(request) || !Array.isArray(request.messages)) return undefined;
  return JSON.stringify(request.messages.filter(isObject).map((raw) => message(raw)));
}

/**
 * The answer's messages: a chat completion's choices, or a stream's assembled answer (`reasoning`,
 * `text`, `toolCalls`, `finishReason`); undefined for other answers.
 */
export function outputMessages(answer: string): string | undefined {
  const data = parse(answer);
  if (!isObject(data)) return undefined;
  if (Array.isArray(data.choices)) {
    const choices = data.choices.filter(isObject);
    return JSON.stringify(
      choices.map((choice) =>
        message(isObject(choice.message) ? choice.message : {}, choice.finish_reason),
      ),
    );
  }
  if (typeof data.text === 'string' && Array.isArray(data.toolCalls)) {
    const calls = data.toolCalls.filter(isObject).map((call) => ({
      type: 'tool_call',
      id: call.id,
      name: call.name,
      arguments: call.arguments,
    }));
    const reply: GenAiMessage = {
      role: 'assistant',
      parts: [...reasoningParts(data.reasoning), ...contentParts(data.text), ...calls],
    };
    if (typeof data.finishReason === 'string') reply.finish_reason = data.finishReason;
    return JSON.stringify([reply]);
  }
  return undefined;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

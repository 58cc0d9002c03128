// docs/gateway-protocol.md §4.1 (the request), §4.2 (capability rules).
import { GatewayRefusal, invalidField, shownValue } from '../gateway-error';

export type JsonObject = Record<string, unknown>;

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content?: unknown;
  tool_calls?: { id?: string; function?: { name?: string; arguments?: string } }[];
  tool_call_id?: string;
  name?: string;
}

export interface ChatTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: unknown };
}

type ToolChoice = 'none' | 'auto' | 'required' | { type: 'function'; name: string };

type ResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; name: string; schema: unknown };

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  stream: boolean;
  tools: ChatTool[];
  /**
   * The body carries `tools` (an empty list too; `null` is read as absent): it needs the `tools`
   * capability (gateway API §4.3 rule 2, docs/gateway-protocol.md §4.2).
   */
  toolsSent: boolean;
  toolChoice: ToolChoice;
  /**
   * What the model server says of a `tool_choice` it cannot follow (a function not among `tools`,
   * a value of no known form). The gateway passes `tool_choice` on (spec §2.5), so this refusal
   * comes after the gateway's own checks of the model (`handleChat`), not with the body's.
   */
  toolChoiceRefusal: GatewayRefusal | undefined;
  responseFormat: ResponseFormat;
  maxTokens: number | undefined;
  /** Stop sequences (applied to text answers). */
  stop: string[];
  /**
   * `stream_options.include_usage` is `true`: the stream ends with the usage (docs/gateway-protocol.md
   * §5.6). Like vLLM and llama.cpp, a stream has no usage otherwise.
   */
  includeUsage: boolean;
}

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseTools(raw: unknown): ChatTool[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw invalidField('tools', '`tools` must be an array');
  return raw.map((tool, i) => {
    const fn = isJsonObject(tool) ? tool.function : undefined;
    if (!isJsonObject(tool) || tool.type !== 'function' || !isJsonObject(fn)) {
      throw invalidField(
        `tools[${i}]`,
        `\`tools[${i}]\` must be {type: 'function', function: {...}}`,
      );
    }
    if (typeof fn.name !== 'string' || fn.name === '') {
      throw invalidField(`tools[${i}].function.name`, `\`tools[${i}].function.name\` is required`);
    }
    return {
      type: 'function',
      function: {
        name: fn.name,
        description: typeof fn.description === 'string' ? fn.description : undefined,
        parameters: fn.parameters,
      },
    };
  });
}

/** The `tool_choice` the scripted model follows, or the model server's refusal of it. */
function parseToolChoice(raw: unknown, tools: ChatTool[]): ToolChoice | GatewayRefusal {
  if (raw === undefined || raw === null) return 'auto';
  if (raw === 'none' || raw === 'auto' || raw === 'required') return raw;
  const fn = isJsonObject(raw) ? raw.function : undefined;
  if (isJsonObject(raw) && raw.type === 'function' && isJsonObject(fn)) {
    const name = fn.name;
    if (typeof name === 'string' && tools.some((tool) => tool.function.name === name)) {
      return { type: 'function', name };
    }
    return invalidField(
      'tool_choice',
      `\`tool_choice\` names function '${String(name)}', which is not among \`tools\``,
    );
  }
  return invalidField(
    'tool_choice',
    "`tool_choice` must be 'none', 'auto', 'required' or {type: 'function', function: {name}}",
  );
}

function parseResponseFormat(raw: unknown): ResponseFormat {
  if (raw === undefined || raw === null) return { type: 'text' };
  if (!isJsonObject(raw))
    throw invalidField('response_format', '`response_format` must be an object');
  const type = raw.type;
  if (type === 'text' || type === 'json_object') return { type };
  if (type === 'json_schema') {
    const spec = raw.json_schema;
    if (!isJsonObject(spec) || (!isJsonObject(spec.schema) && typeof spec.schema !== 'boolean')) {
      throw invalidField(
        'response_format.json_schema',
        '`response_format.json_schema` with a `schema` object is required for type json_schema',
      );
    }
    // The spec's `json_schema` object is `{name, schema}`: both, as OpenAI and vLLM require too.
    // The param is the object, as core names it when it refuses the same request before sending.
    if (typeof spec.name !== 'string' || spec.name === '') {
      throw invalidField(
        'response_format.json_schema',
        `\`response_format.json_schema.name\` is required: a non-empty string naming the schema, got ${shownValue(spec.name)}`,
      );
    }
    return { type, name: spec.name, schema: spec.schema };
  }
  throw invalidField(
    'response_format.type',
    `\`response_format.type\` '${String(type)}' is not supported; use text, json_object or json_schema`,
  );
}

function parseMessages(raw: unknown): ChatMessage[] {
  if (!Array.isArray(raw)) throw invalidField('messages', '`messages` must be an array');
  if (raw.length < 1) {
    throw invalidField('messages', '`messages` has 0 items; at least 1 is required');
  }
  return raw.map((message, i) => {
    if (!isJsonObject(message) || typeof message.role !== 'string' || !ROLES.has(message.role)) {
      throw invalidField(
        `messages[${i}].role`,
        `\`messages[${i}].role\` must be one of system, user, assistant, tool`,
      );
    }
    const content = message.content;
    if (
      content !== undefined &&
      content !== null &&
      typeof content !== 'string' &&
      !Array.isArray(content)
    ) {
      throw invalidField(
        `messages[${i}].content`,
        `\`messages[${i}].content\` must be a string, an array of parts or null`,
      );
    }
    return message as unknown as ChatMessage;
  });
}

/** `stop` is passed to the model server unchanged; the scripted model reads what it can. */
function stopSequences(raw: unknown): string[] {
  if (typeof raw === 'string') return [raw];
  return Array.isArray(raw) ? raw.filter((item): item is string => typeof item === 'string') : [];
}

/** Checks a chat completion body (docs/gateway-protocol.md §4.1) and extracts what the scripted model needs. */
export function validateChatRequest(body: unknown): ChatRequest {
  if (!isJsonObject(body)) throw invalidField('body', 'The request body must be a JSON object');
  if (typeof body.model !== 'string' || body.model === '') {
    throw invalidField('model', '`model` is required: an id from GET /models');
  }
  const messages = parseMessages(body.messages);
  if (body.stream !== undefined && body.stream !== null && typeof body.stream !== 'boolean') {
    throw invalidField('stream', '`stream` must be a boolean');
  }
  const tools = parseTools(body.tools);
  const toolChoice = parseToolChoice(body.tool_choice, tools);
  const maxTokens = body.max_tokens;
  return {
    model: body.model,
    messages,
    stream: body.stream === true,
    tools,
    toolsSent: body.tools !== undefined && body.tools !== null,
    toolChoice: toolChoice instanceof GatewayRefusal ? 'auto' : toolChoice,
    toolChoiceRefusal: toolChoice instanceof GatewayRefusal ? toolChoice : undefined,
    responseFormat: parseResponseFormat(body.response_format),
    maxTokens: typeof maxTokens === 'number' && maxTokens > 0 ? Math.floor(maxTokens) : undefined,
    stop: stopSequences(body.stop),
    includeUsage: isJsonObject(body.stream_options) && body.stream_options.include_usage === true,
  };
}

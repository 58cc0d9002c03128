/**
 * Maps chat bodies (OpenAI format, as sent and received) to the GenAI semantic conventions'
 * message shape (`gen_ai.input.messages` / `gen_ai.output.messages`): a role and typed parts.
 * Used only when content recording is on. Bounded: a span holding a 2 MB prompt twice would be
 * refused or dropped by many exporters and backends — each text is cut at `MAX_PART_CHARS`, each
 * attribute kept within `MAX_MESSAGES_CHARS` (middle messages cut first), with a visible marker.
 */

/** Longest text a recorded part keeps: its content, a tool call's arguments or response. */
export const MAX_PART_CHARS = 8_192;
/** Longest value of a `gen_ai.input.messages` / `gen_ai.output.messages` attribute. */
export const MAX_MESSAGES_CHARS = 32_768;
/** Shorter part limits tried when the messages still do not fit, before cutting them all. */
const SMALLER_PART_LIMITS = [2_048, 512, 128];

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

/** What the key's redaction leaves in a text (errors/redact-secret.ts): kept whole or cut whole. */
const REDACTED = '[redacted]';

/**
 * `text` cut after `limit` characters, saying how much was cut: never inside a surrogate pair,
 * nor inside a `[redacted]` (a reader still sees that a key was there).
 */
function cut(text: string, limit: number): string {
  if (text.length <= limit) return text;
  let end = /[\uD800-\uDBFF]/.test(text[limit - 1] ?? '') ? limit - 1 : limit;
  const marker = text.lastIndexOf(REDACTED, end - 1);
  if (marker !== -1 && marker + REDACTED.length > end) end = marker;
  return `${text.slice(0, end)}…[cut: ${text.length - end} more chars]`;
}

/** A value a part carries: cut when it is text. */
const cutText = (value: unknown, limit: number): unknown =>
  typeof value === 'string' ? cut(value, limit) : value;

function contentParts(content: unknown, limit: number): GenAiPart[] {
  if (typeof content === 'string') {
    return content === '' ? [] : [{ type: 'text', content: cut(content, limit) }];
  }
  if (!Array.isArray(content)) return [];
  return content
    .filter(isObject)
    .map((part) =>
      typeof part.text === 'string'
        ? { type: 'text', content: cut(part.text, limit) }
        : { type: typeof part.type === 'string' ? part.type : 'unknown' },
    );
}

/**
 * The answer's reasoning as the conventions' `reasoning` part (`{ type: 'reasoning', content }`):
 * `reasoning_content` (DeepSeek, vLLM) or `reasoning` (OpenRouter, Ollama), as core reads them.
 */
function reasoningParts(reasoning: unknown, limit: number): GenAiPart[] {
  return typeof reasoning === 'string' && reasoning !== ''
    ? [{ type: 'reasoning', content: cut(reasoning, limit) }]
    : [];
}

function toolCallParts(toolCalls: unknown, limit: number): GenAiPart[] {
  if (!Array.isArray(toolCalls)) return [];
  return toolCalls.filter(isObject).map((call) => {
    const fn = isObject(call.function) ? call.function : {};
    const args = cutText(fn.arguments ?? call.arguments, limit);
    return { type: 'tool_call', id: call.id, name: fn.name ?? call.name, arguments: args };
  });
}

function message(raw: Json, limit: number, finishReason?: unknown): GenAiMessage {
  const role = typeof raw.role === 'string' ? raw.role : 'assistant';
  // A tool's response given as parts is read as other content is: texts cut, media by type.
  const response = Array.isArray(raw.content)
    ? contentParts(raw.content, limit)
    : cutText(raw.content, limit);
  const parts =
    role === 'tool'
      ? [{ type: 'tool_call_response', id: raw.tool_call_id, response }]
      : [
          ...reasoningParts(raw.reasoning_content ?? raw.reasoning, limit),
          ...contentParts(raw.content, limit),
          ...toolCallParts(raw.tool_calls, limit),
        ];
  return typeof finishReason === 'string'
    ? { role, parts, finish_reason: finishReason }
    : { role, parts };
}

/** The request's messages, or undefined when the body is not a chat request. */
export function inputMessages(body: string): string | undefined {
  const request = parse(body);
  if (!isObject(request) || !Array.isArray(request.messages)) return undefined;
  const raws = request.messages.filter(isObject);
  return bounded((limit) => raws.map((raw) => message(raw, limit)));
}

/**
 * The messages `build` makes, as JSON of at most `MAX_MESSAGES_CHARS`: each text cut at
 * `MAX_PART_CHARS`; when they still do not fit, the middle messages are cut (the first — a system
 * prompt, often — and the newest kept), then smaller part limits tried; at worst one marker.
 */
function bounded(build: (partLimit: number) => GenAiMessage[]): string {
  for (const limit of [MAX_PART_CHARS, ...SMALLER_PART_LIMITS]) {
    const messages = build(limit);
    const whole = JSON.stringify(messages);
    if (whole.length <= MAX_MESSAGES_CHARS) return whole;
    const kept = withoutMiddle(messages);
    if (kept !== undefined) return kept;
  }
  const all = build(0);
  return JSON.stringify([marker(all[0]?.role ?? 'user', all.length)]);
}

/** A message in place of `count` messages cut, in the role of the first of them. */
function marker(role: string, count: number): GenAiMessage {
  const content = `[cut: ${count} message(s), over the ${MAX_MESSAGES_CHARS}-char limit]`;
  return { role, parts: [{ type: 'text', content }] };
}

/**
 * `messages` as JSON within the limit, keeping the first and as many of the newest as fit, the
 * ones between replaced by a marker; undefined when the first and the newest alone do not fit.
 */
function withoutMiddle(messages: GenAiMessage[]): string | undefined {
  const [first, ...rest] = messages;
  if (first === undefined || rest.length === 0) return undefined;
  const sizes = rest.map((item) => JSON.stringify(item).length + 1);
  // The first, the marker (its count's digits at most those of the total), brackets and commas.
  let used = JSON.stringify([first, marker(rest[0]!.role, messages.length)]).length + 1;
  let from = rest.length;
  while (from > 0 && used + sizes[from - 1]! <= MAX_MESSAGES_CHARS) {
    from--;
    used += sizes[from]!;
  }
  if (from === rest.length) return undefined;
  return JSON.stringify([first, marker(rest[0]!.role, from), ...rest.slice(from)]);
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
    return bounded((limit) =>
      choices.map((choice) =>
        message(isObject(choice.message) ? choice.message : {}, limit, choice.finish_reason),
      ),
    );
  }
  if (typeof data.text === 'string' && Array.isArray(data.toolCalls)) {
    const { reasoning, text, toolCalls, finishReason } = data;
    return bounded((limit) => {
      const reply: GenAiMessage = {
        role: 'assistant',
        parts: [
          ...reasoningParts(reasoning, limit),
          ...contentParts(text, limit),
          ...toolCallParts(toolCalls, limit),
        ],
      };
      if (typeof finishReason === 'string') reply.finish_reason = finishReason;
      return [reply];
    });
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

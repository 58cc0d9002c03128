// docs/gateway-protocol.md §4.1, §4.3 (content and its parts), §4.4 (tool calls), §5.4 (dialects).
/**
 * How model servers put an answer's text and reasoning into a message or a stream delta
 * (the gateway passes them through):
 * - `content`: a string, or an array of parts (docs/gateway-protocol.md §4.1, §4.3): `{type:'text', text}`;
 *   `{type:'thinking', thinking}` where `thinking` is a string or an array of `{type:'text', text}`
 *   (Mistral's reasoning models); `{type:'reasoning', text}` (or `reasoning`/`summary` as a
 *   string); any type naming reasoning or thinking, or starting `summary` (`reasoning_text`,
 *   `summary_text` of the Responses API's family), is reasoning too.
 *   A part of any other type (or none) is text when it has a string `text` (`output_text`, …);
 *   without one it is ignored (images, citations, …), never fatal.
 * - `reasoning_content` (DeepSeek, Qwen, Moonshot, xAI) or `reasoning` as a string (Groq, vLLM).
 * - `refusal` (OpenAI and servers that copy it): the model declined; read as text (see
 *   `refusedFinishReason`).
 * - a tool call without an id, or with one an earlier call of the answer has: given one of ours
 *   (`uniqueCallId`); its arguments sent as JSON rather than its text: read as that text
 *   (`argumentsText`).
 */

type Json = Record<string, unknown>;

/** A stream's text deltas that carry a refusal's words (`markRefusal`). */
const refusalDeltas = new WeakSet<object>();

/**
 * `event` (a stream's text delta of `delta.refusal`) marked as a refusal's words: structured
 * output's event maps read the JSON from the other text and hand these on as they came.
 */
export function markRefusal<Event extends object>(event: Event): Event {
  refusalDeltas.add(event);
  return event;
}

/**
 * The text an answer asked for JSON hands on: `read`'s reading of `text` (its JSON) without the
 * refusal's words it ends with (a whole answer's, read after the content), which follow it once.
 */
export function jsonBesideRefusal(
  text: string,
  refusal: string | undefined,
  read: (text: string) => string,
): string {
  if (refusal === undefined || !text.endsWith(refusal)) return read(text);
  return read(text.slice(0, text.length - refusal.length)) + refusal;
}

/** `event` carries a refusal's words (`markRefusal`). */
export function isRefusalDelta(event: object): boolean {
  return refusalDeltas.has(event);
}

interface MessageParts {
  text: string;
  reasoning: string;
}

/**
 * The text and reasoning held by `content`; undefined when `content` is neither absent, a string
 * nor an array (truly unreadable).
 */
export function readContent(content: unknown): MessageParts | undefined {
  if (typeof content === 'string') return { text: content, reasoning: '' };
  if (content === undefined || content === null) return { text: '', reasoning: '' };
  if (!Array.isArray(content)) return undefined;
  let text = '';
  let reasoning = '';
  for (const part of content) {
    const piece = contentPiece(part);
    if (piece?.type === 'text') text += piece.text;
    else if (piece !== undefined) reasoning += piece.text;
  }
  return { text, reasoning };
}

/** A piece of a message's text or reasoning. */
export interface MessagePiece {
  type: 'text' | 'reasoning';
  text: string;
}

/**
 * A whole answer's message as its pieces in the order sent (what `readContent` and the fields
 * hold, the boundaries kept): the reasoning field first, then `content`'s parts, consecutive ones
 * of a kind joined (Mistral's `thinking` parts between text parts stay between them), then the
 * `refusal` as a text piece of its own. Empty pieces are left out.
 */
export function readMessagePieces(message: Json): MessagePiece[] {
  const pieces: MessagePiece[] = [];
  const add = (piece: MessagePiece | undefined) => {
    if (piece === undefined || piece.text === '') return;
    const last = pieces.at(-1);
    if (last?.type === piece.type) last.text += piece.text;
    else pieces.push({ ...piece });
  };
  add({ type: 'reasoning', text: readReasoningField(message) });
  const { content } = message;
  if (Array.isArray(content)) for (const part of content) add(contentPiece(part));
  else if (typeof content === 'string') add({ type: 'text', text: content });
  if (typeof message.refusal === 'string' && message.refusal !== '') {
    pieces.push({ type: 'text', text: message.refusal });
  }
  return pieces;
}

/** One part of an array `content`: text, reasoning, or nothing readable (an image, a citation). */
function contentPiece(part: unknown): MessagePiece | undefined {
  if (typeof part === 'string') return { type: 'text', text: part };
  if (typeof part !== 'object' || part === null) return undefined;
  const { type } = part as Json;
  // (The Responses API's family has `reasoning_text` and `summary_text`: never the answer's text,
  // a JSON answer would break.)
  if (typeof type === 'string' && /reasoning|thinking|^summary/.test(type)) {
    return { type: 'reasoning', text: reasoningPartText(part as Json) };
  }
  // Any other part with a string `text` is text, whatever its type (`output_text` of servers
  // that copy OpenAI's Responses API, …, or none): dropping it would give an empty success.
  const value = (part as Json).text;
  return typeof value === 'string' ? { type: 'text', text: value } : undefined;
}

function reasoningPartText(part: Json): string {
  for (const key of ['thinking', 'reasoning', 'text', 'summary']) {
    const value = part[key];
    if (typeof value === 'string') return value;
    if (Array.isArray(value)) {
      let joined = '';
      for (const inner of value) {
        if (typeof inner === 'string') joined += inner;
        else if (typeof inner === 'object' && inner !== null) {
          const innerText = (inner as Json).text;
          if (typeof innerText === 'string') joined += innerText;
        }
      }
      return joined;
    }
  }
  return '';
}

/** `reasoning_content`, else `reasoning` when it is a string; '' when neither. */
export function readReasoningField(message: Json): string {
  const { reasoning_content: reasoningContent, reasoning } = message;
  if (typeof reasoningContent === 'string') return reasoningContent;
  if (typeof reasoning === 'string') return reasoning;
  return '';
}

/**
 * A tool call's arguments as JSON text: as sent, or, sent as JSON rather than its text (an object:
 * llama.cpp#20198), that JSON's text; none (absent, null) is ''.
 */
export function argumentsText(value: unknown): string {
  if (typeof value === 'string') return value;
  return value === undefined || value === null ? '' : JSON.stringify(value);
}

/**
 * The id of an answer's call number `order` (from 0), sent at `index` with `given` (or none),
 * unique among the ids `taken` by the answer's earlier calls (and added to them). A call keeps the
 * server's id unless an earlier call has it (DeepSeek, GLM and some OpenRouter engines give
 * parallel calls one id: a history holding it twice is refused, and frameworks keep one result per
 * id). Such a call, and a call without an id, gets `<base>_<n>_<tag>`: `base` the id it was given,
 * else `call_<index>`; `n` its order (so two ids made here never meet); `tag` 12 random hex digits
 * (`call_<index>_<n>` alone would recur at every step of a tool loop), drawn again in the unlikely
 * case the result meets an id the server gave.
 */
export function uniqueCallId(
  taken: Set<string>,
  given: string | undefined,
  index: number,
  order: number,
): string {
  let id = given;
  while (id === undefined || taken.has(id)) id = `${given ?? `call_${index}`}_${order}_${tag()}`;
  taken.add(id);
  return id;
}

/** 12 random hex digits. */
function tag(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  let tag = '';
  for (const byte of bytes) tag += byte.toString(16).padStart(2, '0');
  return tag;
}

// docs/gateway-protocol.md §4.1 (messages and their content parts).
import type { ChatContentPart, ChatMessage, ToolCall } from '@infergate/core';
import {
  encodeBase64,
  invalidRequest,
  joinTextParts,
  mediaPart,
  sendsReasoningBack,
  toolCallOf,
} from '@infergate/core/internal';
import type { BaseMessage, MessageContent } from '@langchain/core/messages';
import { EXTRA_CONTENT_KWARG } from './convert-chat-result';
import { audioIdOf } from './generated-media';

interface ConvertMessagesOptions {
  /**
   * Send non-text content parts (images, audio, …) of user and tool messages. Default true: the
   * gateway lists no capability for parts, so it (or the model server) decides. `false` joins
   * the text parts and refuses any other part before sending.
   */
  acceptsContentParts?: boolean;
  /** Model id, named in the error when a part cannot be sent. */
  model?: string;
  /** Send AI messages' reasoning back as `reasoning_content`. Unset: those with tool calls only. */
  sendReasoning?: boolean;
}

/**
 * Blocks (from any provider) that carry no text for the model: tool calls live in an AI message's
 * `tool_calls`, reasoning is sent only as `reasoning_content` when asked; a user message drops them.
 */
const NON_TEXT_ASSISTANT_BLOCKS: ReadonlySet<string> = new Set([
  'tool_call',
  'tool_call_chunk',
  'invalid_tool_call',
  'server_tool_call',
  'server_tool_call_chunk',
  'server_tool_call_result',
  'reasoning',
  'thinking',
  'redacted_thinking',
]);

/** Other providers' tool-call blocks, read into `tool_calls` (Anthropic, OpenAI Responses). */
const TOOL_CALL_BLOCKS: ReadonlySet<string> = new Set(['tool_use', 'function_call']);

/**
 * Blocks a user message leaves out of its content: those above, Anthropic's `tool_use` (a call has
 * no place in a user turn; ChatOpenAI drops it too) and `tool_result` (sent as a tool message).
 */
const NOT_USER_CONTENT: ReadonlySet<string> = new Set([
  ...NON_TEXT_ASSISTANT_BLOCKS,
  'tool_use',
  'tool_result',
]);

/**
 * The prompt-cache marks a text part keeps (on the block, or in a v1 block's `extras`): Anthropic's
 * `cache_control`, read by OpenRouter and other relays, and OpenAI's `prompt_cache_breakpoint`.
 * No other extra field of a text block is sent (`annotations`, `id`, …).
 */
const CACHE_MARKS = ['cache_control', 'prompt_cache_breakpoint'] as const;

/** Block types already warned about, so a long history warns once per type per process. */
const warnedDroppedBlocks = new Set<string>();

/** LangChain messages → gateway chat messages (docs/gateway-protocol.md §4.1). */
export function convertToGatewayMessages(
  messages: BaseMessage[],
  options: ConvertMessagesOptions = {},
): ChatMessage[] {
  // Tool names by call id, for the tool messages a user message's `tool_result` blocks become.
  const callNames = new Map<string, string>();
  return messages.flatMap((message, index) => {
    const converted = convertMessage(message, index, options, callNames);
    if (Array.isArray(converted)) return converted;
    for (const call of converted.tool_calls ?? []) callNames.set(call.id, call.function.name);
    return converted;
  });
}

function convertMessage(
  message: BaseMessage,
  index: number,
  options: ConvertMessagesOptions,
  callNames: ReadonlyMap<string, string>,
): ChatMessage | ChatMessage[] {
  const role = gatewayRole(message, index);
  const field = `messages[${index}].content`;
  switch (role) {
    case 'assistant':
      return convertAssistantMessage(message, field, options);
    case 'tool':
      // Named by its tool (ToolNode and `tool.invoke(call)` set it): Gemini refuses it unnamed.
      return withName(
        {
          role: 'tool',
          tool_call_id: String((message as { tool_call_id?: unknown }).tool_call_id ?? ''),
          content: toolResultContent(message.content, options),
        },
        message,
      );
    case 'system':
      return withName(
        {
          role: 'system',
          content: joinText(
            textOnly(message.content, field, options.model, SYSTEM_TEXT_ONLY),
            options,
            'system',
          ),
        },
        message,
      );
    default:
      return convertUserMessage(message, field, options, callNames);
  }
}

/**
 * A user message. Its Anthropic `tool_result` blocks become tool messages answering their calls
 * (named by the call, for Gemini), sent first, as the chat wants them right after the calls' turn;
 * the rest of its content, when there is any, is the user message after them.
 */
function convertUserMessage(
  message: BaseMessage,
  field: string,
  options: ConvertMessagesOptions,
  callNames: ReadonlyMap<string, string>,
): ChatMessage[] {
  const results: ChatMessage[] = [];
  if (typeof message.content !== 'string') {
    for (const block of message.content) {
      if (blockType(block) !== 'tool_result') continue;
      const { tool_use_id: id, content } = block as { tool_use_id?: unknown; content?: unknown };
      const callId = String(id ?? '');
      const result: ChatMessage = {
        role: 'tool',
        tool_call_id: callId,
        content: toolResultContent(
          typeof content === 'string' || Array.isArray(content) ? content : '',
          options,
        ),
      };
      const name = callNames.get(callId);
      if (name) result.name = name;
      results.push(result);
    }
  }
  const content = convertContent(message.content, field, options);
  if (results.length > 0 && content.length === 0) return results;
  return [...results, withName({ role: 'user', content }, message)];
}

/** LangChain's message types as gateway roles. */
const ROLE_OF_TYPE: Readonly<Record<string, ChatMessage['role']>> = {
  human: 'user',
  ai: 'assistant',
  system: 'system',
  tool: 'tool',
};

/** A generic message's `role`: the gateway's names, LangChain's, and `developer` as system. */
const ROLE_OF_GENERIC: Readonly<Record<string, ChatMessage['role']>> = {
  ...ROLE_OF_TYPE,
  user: 'user',
  assistant: 'assistant',
  developer: 'system',
};

function gatewayRole(message: BaseMessage, index: number): ChatMessage['role'] {
  const type = message.type;
  if (Object.hasOwn(ROLE_OF_TYPE, type)) return ROLE_OF_TYPE[type]!;
  if (type === 'generic') {
    const role = (message as { role?: unknown }).role;
    if (typeof role === 'string' && Object.hasOwn(ROLE_OF_GENERIC, role)) {
      return ROLE_OF_GENERIC[role]!;
    }
    throw invalidRequest(
      `messages[${index}].role`,
      `role "${String(role)}" is not one of system, user, assistant, tool`,
    );
  }
  throw invalidRequest(
    `messages[${index}]`,
    `a "${type}" message cannot be sent to the gateway (use system, human, ai or tool messages)`,
  );
}

function convertAssistantMessage(
  message: BaseMessage,
  field: string,
  options: ConvertMessagesOptions,
): ChatMessage {
  const ai = message as BaseMessage & {
    tool_calls?: { id?: string; name: string; args: Record<string, unknown> }[];
    invalid_tool_calls?: { id?: string; name?: string; args?: string }[];
  };
  // Each call with the extra content its answer had (Gemini refuses the step without it).
  const extras = message.additional_kwargs?.[EXTRA_CONTENT_KWARG];
  const toolCalls: ToolCall[] = [
    ...(ai.tool_calls ?? []).map((call) =>
      gatewayToolCall(call.id, call.name, JSON.stringify(call.args ?? {}), extras),
    ),
    // Sent back as the model wrote them, so the tool message answering them has its call.
    ...(ai.invalid_tool_calls ?? []).map((call) =>
      gatewayToolCall(call.id, call.name ?? '', call.args ?? '', extras),
    ),
  ];
  const known = new Set(toolCalls.map((call) => call.id).filter((id) => id !== ''));
  const texts: ChatContentPart[] = [];
  const content = typeof message.content === 'string' ? [message.content] : message.content;
  for (const block of content) {
    const type = blockType(block);
    if (type === 'text') {
      texts.push(textPart(block));
      continue;
    }
    if (TOOL_CALL_BLOCKS.has(type) || type === 'tool_call') {
      // History written by another provider keeps its calls only in content blocks.
      const call = toolCallOfBlock(block as Record<string, unknown>);
      if (call && !known.has(call.id)) {
        known.add(call.id);
        toolCalls.push(call);
      }
      continue;
    }
    if (NON_TEXT_ASSISTANT_BLOCKS.has(type)) continue;
    warnDroppedBlock(type, field);
  }
  const text = joinText(texts, options, 'assistant');
  const converted = withName({ role: 'assistant', content: text }, message);
  // Unset is none here, as ChatOpenAI: Groq and Cerebras refuse `reasoning_content` (400), and a
  // LangChain app that worked with ChatOpenAI must keep working; thinking models ask for `true`.
  if (sendsReasoningBack(options.sendReasoning ?? false, toolCalls.length > 0)) {
    const reasoning = reasoningOf(message);
    if (reasoning) converted.reasoning_content = reasoning;
  }
  if (toolCalls.length > 0) {
    converted.tool_calls = toolCalls;
    if (text === '') converted.content = null;
  }
  // The audio the model spoke, referred to by its id (OpenAI's `audio: {id}`): the model hears it.
  const audioId = audioIdOf(message.additional_kwargs);
  if (audioId !== undefined) converted.audio = { id: audioId };
  return converted;
}

/** A call; its extra content is `extras[id]` (`additional_kwargs.tool_call_extra_content`). */
function gatewayToolCall(id = '', name: string, args: string, extras?: unknown): ToolCall {
  const extra = extras && Object.hasOwn(extras, id) ? (extras as Record<string, unknown>)[id] : 0;
  return toolCallOf(id, name, args, extra);
}

/**
 * A tool call written as a content block: LangChain's `tool_call` (`args`), Anthropic's
 * `tool_use` (`input`), OpenAI Responses' `function_call` (`call_id`, `arguments` as text).
 */
function toolCallOfBlock(block: Record<string, unknown>): ToolCall | undefined {
  const name = block.name;
  if (typeof name !== 'string' || name === '') return undefined;
  const id = [block.call_id, block.id].find((value) => typeof value === 'string') as
    | string
    | undefined;
  const args = block.arguments ?? block.input ?? block.args ?? {};
  return gatewayToolCall(id, name, typeof args === 'string' ? args : JSON.stringify(args));
}

/** An AI message block with no gateway form (an image, a provider's own block) is dropped. */
function warnDroppedBlock(type: string, field: string): void {
  if (warnedDroppedBlocks.has(type)) return;
  warnedDroppedBlocks.add(type);
  console.warn(
    `[infergate] "${type}" blocks of AI messages (first at ${field}) have no gateway form: left out (warned once).`,
  );
}

function withName(converted: ChatMessage, message: BaseMessage): ChatMessage {
  if (typeof message.name === 'string' && message.name !== '') converted.name = message.name;
  return converted;
}

/** `additional_kwargs.reasoning_content` (as read from the gateway), else the reasoning blocks. */
function reasoningOf(message: BaseMessage): string {
  const kept = message.additional_kwargs?.reasoning_content;
  if (typeof kept === 'string' && kept !== '') return kept;
  if (typeof message.content === 'string') return '';
  return message.content
    .map((block) => {
      const { type, reasoning, thinking } = block as {
        type?: string;
        reasoning?: unknown;
        thinking?: unknown;
      };
      if (type === 'reasoning' && typeof reasoning === 'string') return reasoning;
      if (type === 'thinking' && typeof thinking === 'string') return thinking;
      return '';
    })
    .join('');
}

/** A user message's content; `tool_result` blocks are left to `convertUserMessage`. */
function convertContent(
  content: MessageContent,
  field: string,
  options: ConvertMessagesOptions,
): string | ChatContentPart[] {
  if (typeof content === 'string') return content;
  if (options.acceptsContentParts === false) {
    const texts = textOnly(content, field, options.model, MODEL_TEXT_ONLY, NOT_USER_CONTENT);
    return joinText(texts, options, 'user');
  }
  const parts: ChatContentPart[] = [];
  for (const [i, block] of content.entries()) {
    // Tool calls and reasoning carry nothing for the model here (ChatOpenAI drops them too).
    if (NOT_USER_CONTENT.has(blockType(block))) continue;
    const record = block as Record<string, unknown>;
    parts.push(toGatewayPart(record) ?? refuseBlock(record, `${field}[${i}]`));
  }
  return parts;
}

/** Why `textOnly` refuses a part: the role's rule (whatever the model takes), or the model's setting. */
const SYSTEM_TEXT_ONLY = 'a system message takes text only';
const MODEL_TEXT_ONLY = 'the model was built with acceptsContentParts: false (text only)';

/**
 * The text parts; any other part is refused, saying `why` (the role takes text only, or the model
 * was not declared to accept parts), but those of `skipped` types, left out.
 */
function textOnly(
  content: MessageContent,
  field: string,
  model: string | undefined,
  why: typeof SYSTEM_TEXT_ONLY | typeof MODEL_TEXT_ONLY,
  skipped: ReadonlySet<string> = new Set(),
): ChatContentPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  const texts: ChatContentPart[] = [];
  for (const [i, block] of content.entries()) {
    const type = blockType(block);
    if (type === 'text') {
      texts.push(textPart(block));
      continue;
    }
    if (skipped.has(type)) continue;
    throw invalidRequest(
      `${field}[${i}]`,
      `a "${type}" content part cannot be sent${model ? ` to ${model}` : ''}: ${why}`,
    );
  }
  return texts;
}

/**
 * Text parts as one string, or as the parts when one carries a prompt-cache mark (CACHE_MARKS) and
 * the model takes parts: the mark is the reason they were written as parts. The string has them a
 * line apart (core's `joinTextParts`: "What is" and "2+2?" are not "What is2+2?"), but an AI
 * message's, the pieces of one answer (split around its reasoning or tool calls), joined as they are.
 */
function joinText(
  parts: ChatContentPart[],
  options: ConvertMessagesOptions,
  role: ChatMessage['role'],
): string | ChatContentPart[] {
  const marked = parts.some((part) => CACHE_MARKS.some((mark) => Object.hasOwn(part, mark)));
  if (marked && options.acceptsContentParts !== false) return parts;
  const texts = parts.map((part) => part.text ?? '');
  return role === 'assistant' ? texts.join('') : joinTextParts(texts);
}

/** A text block as a text part, with its prompt-cache marks (CACHE_MARKS) and no other field. */
function textPart(block: unknown): ChatContentPart {
  const part: ChatContentPart = { type: 'text', text: blockText(block) };
  if (typeof block !== 'object' || block === null) return part;
  const record = block as Record<string, unknown>;
  const extras = asObject(record.extras);
  for (const mark of CACHE_MARKS) {
    const value = record[mark] ?? extras[mark];
    if (value !== undefined && value !== null) part[mark] = value;
  }
  return part;
}

/**
 * A tool result: a string as it is; blocks as gateway parts (text as text parts, images as
 * `image_url` when parts are accepted), any other block as a text part holding its JSON.
 * Only text joins into one string.
 */
function toolResultContent(
  content: MessageContent,
  options: ConvertMessagesOptions,
): string | ChatContentPart[] {
  if (typeof content === 'string') return content;
  const parts = content.map((block): ChatContentPart => {
    const type = blockType(block);
    if (type === 'text') return textPart(block);
    if (options.acceptsContentParts !== false && (type === 'image' || type === 'image_url')) {
      const part = toGatewayPart(block as Record<string, unknown>);
      if (part?.type === 'image_url') return part;
    }
    return { type: 'text', text: JSON.stringify(block) };
  });
  return parts.every((part) => part.type === 'text') ? joinText(parts, options, 'tool') : parts;
}

/**
 * A user block as a gateway part, or undefined when it has none. A part that carries its payload
 * under its own type's name (`image_url`, `input_audio`, `file: {file_data | file_id}`, a server's
 * `video_url`) is in OpenAI's chat shape: the user's own wire part, sent as it is (as ChatOpenAI does).
 * LangChain's blocks (`url`, `data`, `fileId` or `source_type` at the top) are mapped by core, or
 * have no form.
 */
function toGatewayPart(block: Record<string, unknown>): ChatContentPart | undefined {
  const type = blockType(block);
  if (type === 'text') return textPart(block);
  const standard = fromAnthropicSource(block);
  if (standard) return toGatewayPart(standard);
  if (type === 'image_url') {
    const imageUrl = block.image_url;
    const url = typeof imageUrl === 'string' ? imageUrl : (imageUrl as { url?: unknown })?.url;
    return { ...block, type: 'image_url', image_url: { ...asObject(imageUrl), url } };
  }
  if (Object.hasOwn(block, type)) return block as ChatContentPart;
  // LangChain's wrapper for a provider's own part.
  if (type === 'non_standard') return toGatewayPart(asObject(block.value));
  // A text file given as text (v1's `text-plain`, a legacy `source_type: 'text'` file): its text.
  if ((type === 'text-plain' || block.source_type === 'text') && typeof block.text === 'string') {
    return { type: 'text', text: block.text };
  }
  if (MEDIA_BLOCKS.has(type)) {
    // Core builds the part (one rule and one default image type for every adapter); it reads a
    // data URL in `url` or `data` as data, typed by it when the block names no type.
    const mediaType = block.mimeType ?? block.mime_type;
    return mediaPart({
      mediaType: mediaType ? String(mediaType) : undefined,
      untypedAs: defaultMediaType(type),
      url: typeof block.url === 'string' ? block.url : undefined,
      data: base64Of(block.data),
      filename: filenameOf(block),
      // A file the model server holds, of any kind: core sends media given only by id as a file part.
      fileId: fileIdOf(block),
      detail: imageDetailOf(block),
      typeField: 'mimeType',
    });
  }
  return undefined;
}

/** LangChain's media blocks, mapped by core. */
const MEDIA_BLOCKS: ReadonlySet<string> = new Set([
  'image',
  'video',
  'audio',
  'file',
  'text-plain',
]);

/** An image's `detail`: LangChain's standard blocks keep it in `metadata` (legacy and v1 blocks alike). */
function imageDetailOf(block: Record<string, unknown>): string | undefined {
  const detail = asObject(block.metadata).detail;
  return typeof detail === 'string' ? detail : undefined;
}

/** A file id: v1's `fileId`, a legacy block's `id` (a v1 block's `id` names the block). */
function fileIdOf(block: Record<string, unknown>): string | undefined {
  const id = block.fileId ?? (block.source_type === 'id' ? block.id : undefined);
  return typeof id === 'string' ? id : undefined;
}

/**
 * A block no server reads: refused before any request, saying what to send instead (an Anthropic
 * block is named as written, and judged as the LangChain block it stands for).
 */
function refuseBlock(written: Record<string, unknown>, field: string): never {
  const block = fromAnthropicSource(written) ?? written;
  const type = blockType(block);
  const source = typeof block.url === 'string' ? ' by URL' : fileIdOf(block) ? ' by file id' : '';
  const instead = MEDIA_BLOCKS.has(type)
    ? 'give its data'
    : 'send text, image, video, audio or file blocks, or an OpenAI part';
  throw invalidRequest(
    field,
    `a "${blockType(written)}" block${source} has no chat part: ${instead}`,
  );
}

/**
 * Anthropic's `image` or `document` block (its payload in `source`: base64 data, a URL, a file id,
 * or a document's plain text) as the LangChain block it stands for, as LangChain reads it
 * (`message.contentBlocks`); a document's `title` is the file's name. Else undefined.
 */
function fromAnthropicSource(block: Record<string, unknown>): Record<string, unknown> | undefined {
  const type = blockType(block);
  const source = asObject(block.source);
  if ((type !== 'image' && type !== 'document') || typeof source.type !== 'string')
    return undefined;
  const as = type === 'image' ? 'image' : 'file';
  const metadata = typeof block.title === 'string' ? { filename: block.title } : undefined;
  switch (source.type) {
    case 'base64':
      return { type: as, data: source.data, mimeType: source.media_type, metadata };
    case 'url':
      return { type: as, url: source.url, metadata };
    case 'file':
      return { type: as, fileId: source.file_id };
    case 'text':
      return typeof source.data === 'string' ? { type: 'text', text: source.data } : undefined;
    default:
      return undefined;
  }
}

/**
 * A file block's name: LangChain's standard blocks keep it in `metadata` (`filename`, else `name`
 * or `title`, where ChatOpenAI reads it); a `filename` on the block itself is read first.
 */
function filenameOf(block: Record<string, unknown>): string | undefined {
  const metadata = asObject(block.metadata);
  const name = block.filename ?? metadata.filename ?? metadata.name ?? metadata.title;
  return typeof name === 'string' ? name : undefined;
}

/** A block's data as base64: as given, or its bytes encoded (v1 blocks may carry a Uint8Array). */
function base64Of(data: unknown): string | undefined {
  if (typeof data === 'string') return data;
  return data instanceof Uint8Array ? encodeBase64(data) : undefined;
}

/** A block whose MIME type and data URL name none: an image or audio of unknown format (core sniffs it), or bytes. */
function defaultMediaType(type: string): string {
  if (type === 'text-plain') return 'text/plain';
  return type === 'file' ? 'application/octet-stream' : type;
}

function asObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

/** A text block's text (a string block is its own text). */
function blockText(block: unknown): string {
  return typeof block === 'string' ? block : String((block as { text?: unknown }).text ?? '');
}

function blockType(block: unknown): string {
  if (typeof block === 'string') return 'text';
  const type = (block as { type?: unknown })?.type;
  return typeof type === 'string' ? type : 'unknown';
}

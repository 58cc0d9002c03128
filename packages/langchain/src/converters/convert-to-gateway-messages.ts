import type { ChatContentPart, ChatMessage, ToolCall } from '@infergate/core';
import { invalidRequest } from '@infergate/core/internal';
import type { BaseMessage, MessageContent } from '@langchain/core/messages';

export interface ConvertMessagesOptions {
  /** Send non-text content parts (images, …) as they are. Default false: text only. */
  acceptsContentParts?: boolean;
  /** Model id, named in the error when a part cannot be sent. */
  model?: string;
  /** Send an AI message's reasoning back as `reasoning_content`. Default false: dropped. */
  sendReasoning?: boolean;
}

/** Blocks LangChain keeps in an AI message's content that are not text for the model. */
const NON_CONTENT_BLOCK_TYPES: ReadonlySet<string> = new Set([
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

/** LangChain messages → gateway chat messages (docs/gateway-protocol.md §4.1). */
export function convertToGatewayMessages(
  messages: BaseMessage[],
  options: ConvertMessagesOptions = {},
): ChatMessage[] {
  return messages.map((message, index) => convertMessage(message, index, options));
}

function convertMessage(
  message: BaseMessage,
  index: number,
  options: ConvertMessagesOptions,
): ChatMessage {
  const role = gatewayRole(message, index);
  const field = `messages[${index}].content`;
  switch (role) {
    case 'assistant':
      return convertAssistantMessage(message, field, options);
    case 'tool':
      return {
        role: 'tool',
        tool_call_id: String((message as { tool_call_id?: unknown }).tool_call_id ?? ''),
        content: toolResultText(message.content),
      };
    case 'system':
      return { role: 'system', content: textOnly(message.content, field, options.model) };
    default: {
      const converted: ChatMessage = {
        role: 'user',
        content: convertContent(message.content, field, options),
      };
      if (message.name) converted.name = message.name;
      return converted;
    }
  }
}

function gatewayRole(message: BaseMessage, index: number): ChatMessage['role'] {
  const type = message.type;
  if (type === 'human') return 'user';
  if (type === 'ai') return 'assistant';
  if (type === 'system') return 'system';
  if (type === 'tool') return 'tool';
  if (type === 'generic') {
    const role = (message as { role?: unknown }).role;
    if (role === 'user' || role === 'human') return 'user';
    if (role === 'assistant' || role === 'ai') return 'assistant';
    if (role === 'system' || role === 'developer') return 'system';
    if (role === 'tool') return 'tool';
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
  const toolCalls: ToolCall[] = [
    ...(ai.tool_calls ?? []).map((call) => ({
      id: call.id ?? '',
      type: 'function' as const,
      function: { name: call.name, arguments: JSON.stringify(call.args ?? {}) },
    })),
    // Sent back as the model wrote them, so the tool message answering them has its call.
    ...(ai.invalid_tool_calls ?? []).map((call) => ({
      id: call.id ?? '',
      type: 'function' as const,
      function: { name: call.name ?? '', arguments: call.args ?? '' },
    })),
  ];
  const text = textOnly(stripNonContentBlocks(message.content), field, options.model);
  const converted: ChatMessage = { role: 'assistant', content: text };
  if (options.sendReasoning) {
    const reasoning = reasoningOf(message);
    if (reasoning) converted.reasoning_content = reasoning;
  }
  if (toolCalls.length > 0) {
    converted.tool_calls = toolCalls;
    if (text === '') converted.content = null;
  }
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

function stripNonContentBlocks(content: MessageContent): MessageContent {
  if (typeof content === 'string') return content;
  return content.filter((block) => !NON_CONTENT_BLOCK_TYPES.has(blockType(block)));
}

function convertContent(
  content: MessageContent,
  field: string,
  options: ConvertMessagesOptions,
): string | ChatContentPart[] {
  if (typeof content === 'string') return content;
  if (!options.acceptsContentParts) return textOnly(content, field, options.model);
  return content.map((block) => toGatewayPart(block as Record<string, unknown>));
}

/** Joins text parts; any other part is refused, since the model was not declared to accept parts. */
function textOnly(content: MessageContent, field: string, model?: string): string {
  if (typeof content === 'string') return content;
  const texts: string[] = [];
  for (const [i, block] of content.entries()) {
    const type = blockType(block);
    if (type === 'text') {
      texts.push(String((block as { text?: unknown }).text ?? ''));
      continue;
    }
    throw invalidRequest(
      `${field}[${i}]`,
      `a "${type}" content part cannot be sent${model ? ` to ${model}` : ''}: only text is sent ` +
        'unless the model accepts content parts (set acceptsContentParts: true on GatewayChatModel)',
    );
  }
  return texts.join('');
}

function toolResultText(content: MessageContent): string {
  if (typeof content === 'string') return content;
  const texts = content.filter((block) => blockType(block) === 'text');
  if (texts.length === content.length) {
    return texts.map((block) => String((block as { text?: unknown }).text ?? '')).join('');
  }
  return JSON.stringify(content);
}

function toGatewayPart(block: Record<string, unknown>): ChatContentPart {
  const type = blockType(block);
  if (type === 'text') return { type: 'text', text: String(block.text ?? '') };
  if (type === 'image_url') {
    const imageUrl = block.image_url;
    const url = typeof imageUrl === 'string' ? imageUrl : (imageUrl as { url?: unknown })?.url;
    return { ...block, type: 'image_url', image_url: { ...asObject(imageUrl), url } };
  }
  if (type === 'image') {
    const url = typeof block.url === 'string' ? block.url : dataUrl(block);
    if (url) return { type: 'image_url', image_url: { url } };
  }
  return { ...block, type };
}

function dataUrl(block: Record<string, unknown>): string | undefined {
  const data = block.data ?? (block.source_type === 'base64' ? block.data : undefined);
  if (typeof data !== 'string') return undefined;
  const mime = block.mimeType ?? block.mime_type ?? 'image/png';
  return `data:${String(mime)};base64,${data}`;
}

function asObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

function blockType(block: unknown): string {
  if (typeof block === 'string') return 'text';
  const type = (block as { type?: unknown })?.type;
  return typeof type === 'string' ? type : 'unknown';
}

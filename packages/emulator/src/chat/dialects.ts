// docs/gateway-protocol.md §5.4 (the dialects a client must accept).
import type { ScriptedAnswer, Usage } from './scripted-model';
import { countWords } from './scripted-model';

/**
 * How the model server behind a scripted model writes its chat answers (the gateway passes them
 * through). See the README's dialect table.
 */
export const CHAT_DIALECTS = [
  'gateway',
  'openai',
  'deepseek',
  'groq',
  'mistral',
  'azure',
  'minimal',
  'xai',
  'gemini',
  'deepseek-thinking',
] as const;
export type ChatDialect = (typeof CHAT_DIALECTS)[number];

export interface DialectShape {
  /** Where the reasoning goes; none: the model does not reason. */
  reasoning?: 'reasoning_content' | 'reasoning' | 'thinking_parts';
  /** `content` as an array of `{type:'text', text}` parts. */
  contentParts: boolean;
  /** Each tool call whole in one piece, without `index`. */
  indexlessToolCalls: boolean;
  /** No `delta.role` chunk. */
  noRole: boolean;
  /** A first chunk with `choices: []`, empty id/model, created 0 and `prompt_filter_results`. */
  contentFilterFirst: boolean;
  /**
   * Usage (when asked) inside the finish chunk, which stays the last before [DONE] (the spec's
   * order, §6.1); else in a usage-only chunk (`choices: []`) after it, OpenAI's order.
   */
  usageInFinish: boolean;
  /** Extra keys a server adds to every chunk. */
  extraKeys?: Record<string, unknown>;
  /** Reports cached prompt tokens (`prompt_tokens_details.cached_tokens`). */
  cachedTokens: boolean;
  /**
   * Counts the reasoning outside `completion_tokens` (which then count the text alone), in
   * `total_tokens` and `completion_tokens_details.reasoning_tokens` only, as xAI does.
   */
  reasoningOutsideCompletion: boolean;
  /**
   * Gemini 3: each tool call carries `extra_content.google.thought_signature`, and a request that
   * replays one of this turn's calls without it is refused with Gemini's 400.
   */
  thoughtSignatures?: boolean;
  /**
   * DeepSeek V4 / Kimi K2 in thinking mode: a request that replays an assistant message with
   * `tool_calls` but no `reasoning_content` is refused with DeepSeek's 400.
   */
  thinkingToolReplay?: boolean;
  /**
   * Groq (Cerebras alike): its request schema has no `reasoning_content` on assistant messages, so
   * a request that sends one back is refused with Groq's 400.
   */
  refusesReasoningContent?: boolean;
}

const PLAIN: DialectShape = {
  contentParts: false,
  indexlessToolCalls: false,
  noRole: false,
  contentFilterFirst: false,
  usageInFinish: true,
  cachedTokens: false,
  reasoningOutsideCompletion: false,
};

export const DIALECT_SHAPES: Record<ChatDialect, DialectShape> = {
  gateway: PLAIN,
  openai: { ...PLAIN, usageInFinish: false, extraKeys: { system_fingerprint: 'fp_emu' } },
  deepseek: { ...PLAIN, reasoning: 'reasoning_content', cachedTokens: true },
  groq: {
    ...PLAIN,
    reasoning: 'reasoning',
    extraKeys: { x_groq: { id: 'req_emu' } },
    refusesReasoningContent: true,
  },
  mistral: { ...PLAIN, reasoning: 'thinking_parts', contentParts: true },
  azure: { ...PLAIN, usageInFinish: false, contentFilterFirst: true },
  minimal: { ...PLAIN, noRole: true, indexlessToolCalls: true },
  xai: {
    ...PLAIN,
    reasoning: 'reasoning_content',
    usageInFinish: false,
    cachedTokens: true,
    reasoningOutsideCompletion: true,
  },
  gemini: { ...PLAIN, thoughtSignatures: true },
  'deepseek-thinking': {
    ...PLAIN,
    reasoning: 'reasoning_content',
    cachedTokens: true,
    thinkingToolReplay: true,
  },
};

export function isChatDialect(value: unknown): value is ChatDialect {
  return typeof value === 'string' && (CHAT_DIALECTS as readonly string[]).includes(value);
}

/** The `extra_content` of a tool call in this dialect: Gemini's signature, deterministic. */
export function toolCallExtra(
  shape: DialectShape,
  call: { id: string; name: string },
): Record<string, unknown> | undefined {
  if (shape.thoughtSignatures !== true) return undefined;
  return { google: { thought_signature: thoughtSignature(call.id, call.name) } };
}

/** Opaque to the client, as Gemini's are (base64); the same for the same call. */
export function thoughtSignature(id: string, name: string): string {
  return btoa(`emulator-thought|${id}|${name}`);
}

/** The scripted reasoning of a reasoning dialect, as word pieces (deterministic). */
export function reasoningPieces(shape: DialectShape, userText: string): string[] {
  if (shape.reasoning === undefined) return [];
  const words = countWords(userText);
  const text = `The user wrote ${words} word${words === 1 ? '' : 's'}. I answer by echoing them.`;
  return text.match(/\s*\S+\s*/g) ?? [];
}

/** The answer's usage as the dialect reports it (reasoning and cached token details). */
export function dialectUsage(
  shape: DialectShape,
  answer: ScriptedAnswer,
  reasoning: string[],
): Usage & Record<string, unknown> {
  if (shape.reasoning === undefined && !shape.cachedTokens) return { ...answer.usage };
  let reasoningTokens = 0;
  for (const piece of reasoning) reasoningTokens += countWords(piece);
  const completion = answer.usage.completion_tokens + reasoningTokens;
  const usage: Usage & Record<string, unknown> = {
    prompt_tokens: answer.usage.prompt_tokens,
    completion_tokens: shape.reasoningOutsideCompletion
      ? answer.usage.completion_tokens
      : completion,
    total_tokens: answer.usage.prompt_tokens + completion,
  };
  if (shape.reasoning !== undefined) {
    usage.completion_tokens_details = { reasoning_tokens: reasoningTokens };
  }
  if (shape.cachedTokens) {
    usage.prompt_tokens_details = { cached_tokens: Math.floor(answer.usage.prompt_tokens / 2) };
  }
  return usage;
}

/** A delta (or message) field set for a piece of reasoning. */
export function reasoningFields(shape: DialectShape, text: string): Record<string, unknown> {
  switch (shape.reasoning) {
    case 'reasoning_content':
      return { reasoning_content: text };
    case 'reasoning':
      return { reasoning: text };
    case 'thinking_parts':
      return { content: [{ type: 'thinking', thinking: [{ type: 'text', text }] }] };
    default:
      return {};
  }
}

/** `content` of a delta (or message) for a piece of text. */
export function contentValue(shape: DialectShape, text: string): unknown {
  return shape.contentParts ? [{ type: 'text', text }] : text;
}

/** The non-streamed `message` in this dialect. */
export function dialectMessage(
  shape: DialectShape,
  text: string | null,
  reasoning: string[],
): Record<string, unknown> {
  const message: Record<string, unknown> = { role: 'assistant' };
  const reasoningText = reasoning.join('');
  if (shape.reasoning === 'thinking_parts') {
    const parts: unknown[] = [];
    if (reasoningText !== '') {
      parts.push({ type: 'thinking', thinking: [{ type: 'text', text: reasoningText }] });
    }
    if (text) parts.push({ type: 'text', text });
    message.content = parts.length > 0 ? parts : text;
    return message;
  }
  message.content = text !== null && shape.contentParts ? contentValue(shape, text) : text;
  if (reasoningText !== '') Object.assign(message, reasoningFields(shape, reasoningText));
  return message;
}

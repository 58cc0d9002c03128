// docs/gateway-protocol.md §4.3 (the answer), §4.4 (tool calls), §4.5 (JSON output).

import { schemaStatedIn } from './json-answers';
import type { ChatMessage, ChatRequest, ChatTool } from './validate-chat-request';
import { isJsonObject } from './validate-chat-request';
import { valueForSchema } from './value-for-schema';

export interface ScriptedToolCall {
  id: string;
  name: string;
  arguments: string;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** What a scripted model answers. Content is given as pieces so long streams stay lazy. */
export interface ScriptedAnswer {
  pieceCount: number;
  piece(index: number): string;
  toolCalls: ScriptedToolCall[];
  finishReason: 'stop' | 'tool_calls' | 'length';
  usage: Usage;
}

/** The whole content of an answer (null when it only calls tools). */
export function answerText(answer: ScriptedAnswer): string | null {
  if (answer.pieceCount === 0 && answer.toolCalls.length > 0) return null;
  let text = '';
  for (let i = 0; i < answer.pieceCount; i++) text += answer.piece(i);
  return text;
}

export function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (isJsonObject(part) && typeof part.text === 'string' ? part.text : ''))
    .filter(Boolean)
    .join(' ');
}

export function countWords(text: string): number {
  let count = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const space = text.charCodeAt(i) <= 32;
    if (!space && !inWord) count++;
    inWord = !space;
  }
  return count;
}

function promptTokens(messages: ChatMessage[]): number {
  let total = 0;
  for (const message of messages) {
    total += countWords(messageText(message.content));
    for (const call of message.tool_calls ?? []) {
      total += countWords(`${call.function?.name ?? ''} ${call.function?.arguments ?? ''}`);
    }
  }
  return total;
}

const QUOTED = /"([^"]+)"|\u201c([^\u201d]+)\u201d|(?:^|\s)'([^']+)'(?=$|[\s.,!?;:])/u;

function quotedPart(text: string): string | undefined {
  const match = QUOTED.exec(text);
  return match ? (match[1] ?? match[2] ?? match[3]) : undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Tools the user's text names, in the order they appear in it. */
function toolsNamedIn(text: string, tools: ChatTool[]): ChatTool[] {
  const found: [number, ChatTool][] = [];
  for (const tool of tools) {
    const pattern = new RegExp(`(^|[^\\w])${escapeRegExp(tool.function.name)}($|[^\\w])`, 'u');
    const match = pattern.exec(text);
    if (match) found.push([match.index, tool]);
  }
  return found.sort((a, b) => a[0] - b[0]).map(([, tool]) => tool);
}

/**
 * After tool results a forced `tool_choice` (a named function, `'required'`) still calls a tool, as
 * a real model must. Of the forced tools not called since the last user message, the last one
 * listed: an agent's own answer tool comes after the user's tools (createAgent's structured
 * response, an AI SDK loop's `answer`), and tools the user did not ask for stay uncalled. When
 * every one has been called this turn, the last is called again: the caller's loop ends it
 * (`stopWhen`, a recursion limit), as with a real model.
 */
function forcedAfterTools(request: ChatRequest): ChatTool[] {
  const { tools, toolChoice, messages } = request;
  if (toolChoice !== 'required' && typeof toolChoice !== 'object') return [];
  const forced =
    typeof toolChoice === 'object'
      ? tools.filter((tool) => tool.function.name === toolChoice.name)
      : tools;
  const lastUser = messages.findLastIndex((message) => message.role === 'user');
  const called = new Set<string>();
  for (const message of messages.slice(lastUser + 1)) {
    for (const call of message.tool_calls ?? []) {
      if (call.function?.name) called.add(call.function.name);
    }
  }
  const fresh = forced.filter((tool) => !called.has(tool.function.name));
  return (fresh.length > 0 ? fresh : forced).slice(-1);
}

function toolsToCall(request: ChatRequest, lastUserText: string, lastIsUser: boolean): ChatTool[] {
  const { tools, toolChoice } = request;
  if (tools.length === 0 || toolChoice === 'none') return [];
  if (typeof toolChoice === 'object') {
    return tools.filter((tool) => tool.function.name === toolChoice.name).slice(0, 1);
  }
  const named = lastIsUser ? toolsNamedIn(lastUserText, tools) : [];
  if (named.length > 0) return named;
  return toolChoice === 'required' ? tools.slice(0, 1) : [];
}

/** The `tool` messages that end the conversation, in order. */
function trailingToolMessages(messages: ChatMessage[]): ChatMessage[] {
  let start = messages.length;
  while (start > 0 && messages[start - 1]!.role === 'tool') start--;
  return messages.slice(start);
}

/** Answer after tool results: one line per trailing `tool` message. */
function toolResultText(messages: ChatMessage[]): string {
  const names = new Map<string, string>();
  for (const message of messages) {
    for (const call of message.tool_calls ?? []) {
      if (call.id && call.function?.name) names.set(call.id, call.function.name);
    }
  }
  return trailingToolMessages(messages)
    .map((message) => {
      const name =
        (message.tool_call_id && names.get(message.tool_call_id)) || message.name || 'unknown';
      return `Tool ${name} returned: ${messageText(message.content)}`;
    })
    .join('\n');
}

/** The fields of the trailing tool results that are JSON objects (a later result wins). */
function toolResultFacts(messages: ChatMessage[]): Record<string, unknown> {
  const facts: Record<string, unknown> = {};
  for (const message of trailingToolMessages(messages)) {
    try {
      const value: unknown = JSON.parse(messageText(message.content));
      if (isJsonObject(value)) Object.assign(facts, value);
    } catch {
      // A plain-text result only feeds the answer's strings.
    }
  }
  return facts;
}

function wordPieces(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? (text === '' ? [] : [text]);
}

/** The largest N of `[[words:N]]` / `[[chunks:N]]`: a larger one is read as this (bounded output). */
const MAX_DIRECTIVE_COUNT = 100_000;

function directive(text: string, name: string): number | undefined {
  const match = new RegExp(`\\[\\[${name}:(\\d+)\\]\\]`).exec(text);
  return match ? Math.min(Number(match[1]), MAX_DIRECTIVE_COUNT) : undefined;
}

function hashString(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

/**
 * Deterministic scripted LLM: answers from the conversation alone (see the README's table of
 * behaviours and directives). `reshapeJson` turns a JSON answer into what the model sends (its
 * `jsonAnswers`: cut short, off the schema, wrapped).
 */
export function runScriptedModel(
  request: ChatRequest,
  reshapeJson?: (text: string, schema: unknown) => string,
): ScriptedAnswer {
  const { messages } = request;
  const prompt = promptTokens(messages);
  const last = messages[messages.length - 1]!;
  const lastUser = [...messages].reverse().find((message) => message.role === 'user');
  const userText = lastUser ? messageText(lastUser.content) : '';

  // After tool results the model answers from them (in the requested format), unless forced to call.
  const afterTools = last.role === 'tool';
  const calls = afterTools
    ? forcedAfterTools(request)
    : toolsToCall(request, userText, last.role === 'user');
  if (calls.length > 0) {
    return scriptedAnswer(prompt, [], 'tool_calls', scriptedToolCalls(messages, calls, userText));
  }
  const json = jsonAnswerText(request, userText, afterTools);
  if (json !== undefined) {
    const text = reshapeJson ? reshapeJson(json.text, json.schema) : json.text;
    return scriptedAnswer(prompt, wordPieces(text), 'stop');
  }
  if (afterTools) return scriptedAnswer(prompt, wordPieces(toolResultText(messages)), 'stop');
  return textAnswer(request, userText, prompt);
}

/** An answer's pieces: a list, or a count and a function that makes each (long answers). */
type Pieces = string[] | { count: number; at: (i: number) => string };

/**
 * The answer of these pieces and tool calls, with its usage: `prompt` tokens, and `completion`
 * ones (default: the words of the pieces and of each call's arguments, at least 1 a call).
 */
function scriptedAnswer(
  prompt: number,
  pieces: Pieces,
  finishReason: ScriptedAnswer['finishReason'],
  toolCalls: ScriptedToolCall[] = [],
  completion?: number,
): ScriptedAnswer {
  const count = Array.isArray(pieces) ? pieces.length : pieces.count;
  const at = Array.isArray(pieces) ? (i: number) => pieces[i]! : pieces.at;
  let completionTokens = completion ?? 0;
  if (completion === undefined) {
    for (let i = 0; i < count; i++) completionTokens += countWords(at(i));
    for (const call of toolCalls) completionTokens += Math.max(1, countWords(call.arguments));
  }
  return {
    pieceCount: count,
    piece: at,
    toolCalls,
    finishReason,
    usage: {
      prompt_tokens: prompt,
      completion_tokens: completionTokens,
      total_tokens: prompt + completionTokens,
    },
  };
}

/** Calls of these tools, their arguments filled from their schemas (and the user's quoted text). */
function scriptedToolCalls(
  messages: ChatMessage[],
  calls: ChatTool[],
  userText: string,
): ScriptedToolCall[] {
  const quoted = quotedPart(userText);
  // Deterministic for one request, yet distinct across conversations that differ anywhere (two
  // agents seeing histories of equal length must not reuse each other's call ids).
  const conversationId = hashString(
    `${JSON.stringify(messages)}|${calls.map((tool) => tool.function.name).join(',')}`,
  );
  return calls.map((tool, index) => ({
    id: `call_${conversationId}_${index}`,
    name: tool.function.name,
    arguments: JSON.stringify(
      valueForSchema(tool.function.parameters ?? { type: 'object' }, { text: quoted }) ?? {},
    ),
  }));
}

function systemTexts(messages: ChatMessage[]): string[] {
  return messages.filter((message) => message.role === 'system').map((m) => messageText(m.content));
}

/** A JSON answer's text and the schema it was made for (json_object: the one a system message states). */
interface JsonAnswer {
  text: string;
  schema: unknown;
}

/**
 * The JSON text `response_format` asks for, from the tool results or the user's text (cut short
 * on `[[invalid_json]]`); undefined when it asks for text. A json_object request whose system
 * message states a schema gets a value for it, as a model told the schema there answers.
 */
function jsonAnswerText(
  request: ChatRequest,
  userText: string,
  afterTools: boolean,
): JsonAnswer | undefined {
  const { messages, responseFormat: format } = request;
  const invalidJson = userText.includes('[[invalid_json]]');
  if (format.type === 'text') return undefined;
  const schema =
    format.type === 'json_schema' ? format.schema : schemaStatedIn(systemTexts(messages));
  if (schema !== undefined) {
    if (invalidJson) return { text: '{"answer": "unterminated', schema };
    const facts = afterTools ? toolResultFacts(messages) : {};
    const text = afterTools ? toolResultText(messages) : quotedPart(userText);
    return { text: JSON.stringify(valueForSchema(schema, { text, facts })), schema };
  }
  if (invalidJson) return { text: '{"answer": ', schema };
  const answer = afterTools ? toolResultText(messages) : echoText(userText);
  return { text: JSON.stringify({ answer }), schema };
}

function echoText(userText: string): string {
  return `Echo: ${userText}`;
}

/**
 * A text answer: `[[chunks:N]]` tokens, `[[words:N]]` words, else the echo; the words cut at the
 * first stop sequence, every answer at `max_tokens` pieces (finish reason `length`).
 */
function textAnswer(request: ChatRequest, userText: string, prompt: number): ScriptedAnswer {
  const limit = request.maxTokens ?? Number.POSITIVE_INFINITY;
  const chunks = directive(userText, 'chunks');
  if (chunks !== undefined) {
    const count = Math.min(chunks, limit);
    const pieces = { count, at: (i: number) => `tok${i} ` };
    return scriptedAnswer(prompt, pieces, count < chunks ? 'length' : 'stop', [], count);
  }
  const wordCount = directive(userText, 'words');
  const text =
    wordCount !== undefined
      ? Array.from({ length: wordCount }, (_, i) => `word${i + 1}`).join(' ')
      : echoText(userText);
  const pieces = wordPieces(cutAtStop(text, request.stop));
  if (pieces.length > limit) return scriptedAnswer(prompt, pieces.slice(0, limit), 'length');
  return scriptedAnswer(prompt, pieces, 'stop');
}

/** The text before the earliest stop sequence, as a model server does with `stop`. */
function cutAtStop(text: string, stop: string[]): string {
  let end = text.length;
  for (const sequence of stop) {
    const at = sequence === '' ? -1 : text.indexOf(sequence);
    if (at !== -1 && at < end) end = at;
  }
  return text.slice(0, end);
}

// docs/gateway-protocol.md §5.1 (the chunks of a streamed answer), §5.4 (their dialects), §5.6
// (usage only when asked).
import type { ChosenFault } from '../faults';
import {
  contentValue,
  DIALECT_SHAPES,
  type DialectShape,
  reasoningFields,
  toolCallExtra,
} from './dialects';
import type { ScriptedAnswer, ScriptedToolCall } from './scripted-model';

export interface ChunkMeta {
  id: string;
  created: number;
  model: string;
  /** How the model server writes its chunks (default: the plain shape of docs/gateway-protocol.md §5.1). */
  shape?: DialectShape;
  /** Reasoning pieces, sent before the text (reasoning dialects only). */
  reasoning?: string[];
  /**
   * The usage as the dialect reports it, sent only when the request asked for it
   * (`stream_options.include_usage`); undefined: the stream has no usage, as from vLLM or
   * llama.cpp when not asked.
   */
  usage?: unknown;
}

/** How many argument fragments each streamed tool call is split into (at least 2 when possible). */
const ARGUMENT_PIECES = 3;

export const DONE_EVENT = 'data: [DONE]\n\n';

/**
 * An SSE comment line, as gateways and proxies send to keep a connection open while a model has
 * not started (OpenRouter-style gateways while a request queues). Not an event: no data.
 */
export const KEEPALIVE_COMMENT = ': keep-alive\n\n';

/** The start of every chunk of one answer, up to its `choices` array. */
function chunkHead(meta: ChunkMeta, shape: DialectShape): string {
  const extra = shape.extraKeys ? `,${JSON.stringify(shape.extraKeys).slice(1, -1)}` : '';
  return `data: {"id":${JSON.stringify(meta.id)},"object":"chat.completion.chunk","created":${meta.created},"model":${JSON.stringify(meta.model)}${extra},"choices":[`;
}

/**
 * Empty deltas of one answer, alternately `"delta":{}` and `"delta":{"content":""}`: chunks that
 * carry nothing, as some servers send for tokens they do not show. For `empty_delta_stream`.
 */
export function emptyDeltas(meta: ChunkMeta): () => string {
  const head = chunkHead(meta, meta.shape ?? DIALECT_SHAPES.gateway);
  let sent = 0;
  return () => {
    const delta = sent++ % 2 === 0 ? '{}' : '{"content":""}';
    return `${head}{"index":0,"delta":${delta},"finish_reason":null}]}\n\n`;
  };
}

/** A `data: {"error": ...}` event as sent after the 200 (docs/gateway-protocol.md §5.3). */
export function errorEvent(code: string, message: string): string {
  return `data: ${JSON.stringify({ error: { code, message } })}\n\n`;
}

function splitArguments(text: string): string[] {
  if (text.length < 2) return [text];
  const size = Math.ceil(text.length / ARGUMENT_PIECES);
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size)
    pieces.push(text.slice(start, start + size));
  return pieces;
}

/** A chunk of one choice: its delta, its finish reason, and what follows `choices` (`tail`). */
function choiceChunk(head: string, delta: string, finish: string | null, tail = ''): string {
  return `${head}{"index":0,"delta":${delta},"finish_reason":${finish === null ? 'null' : JSON.stringify(finish)}}]${tail}}\n\n`;
}

/** Azure-style: a content-filter chunk before anything, without id, model or choices. */
const CONTENT_FILTER_CHUNK = `data: ${JSON.stringify({
  id: '',
  object: '',
  created: 0,
  model: '',
  choices: [],
  prompt_filter_results: [{ prompt_index: 0, content_filter_results: {} }],
})}\n\n`;

/**
 * The SSE events of one streamed answer, each already in wire form (`data: <json>\n\n`), built
 * lazily from a precomputed prefix so that 20 000-chunk streams cost one small string each.
 */
export function* chatEvents(
  answer: ScriptedAnswer,
  meta: ChunkMeta,
  fault: ChosenFault | undefined,
): Generator<string, void, undefined> {
  const cutAt = cutPoint(fault);
  let sent = 0;
  for (const event of answerChunks(answer, meta, fault?.fault !== 'no_finish')) {
    if (sent >= cutAt) break;
    sent++;
    yield event;
  }
  // A fault due after the last chunk still acts, in place of [DONE].
  if (sent >= cutAt) yield* interruption(fault!.fault);
  else yield DONE_EVENT;
}

/** How many chunks go out before the fault interrupts the stream (infinite: it does not). */
function cutPoint(fault: ChosenFault | undefined): number {
  switch (fault?.fault) {
    case 'stream_cut':
    case 'malformed_event':
    case 'stream_error':
    case 'stream_protocol_error':
      return fault.afterChunks;
    default:
      return Number.POSITIVE_INFINITY;
  }
}

/** What replaces the rest of an interrupted stream: a cut (thrown), or a bad event then [DONE]. */
function* interruption(fault: ChosenFault['fault']): Generator<string, void, undefined> {
  if (fault === 'stream_cut') throw new TypeError('terminated (stream_cut fault)');
  if (fault === 'malformed_event') yield 'data: {"choices":[{\n\n';
  else if (fault === 'stream_protocol_error')
    yield errorEvent(
      'provider_protocol_error',
      'The provider sent a chunk the gateway could not read (stream_protocol_error fault)',
    );
  else
    yield errorEvent(
      'provider_request_failed',
      'The provider failed while streaming (stream_error fault)',
    );
  yield DONE_EVENT;
}

/** The chunks of one answer in its dialect, in order, before [DONE]; the finish chunks if `finish`. */
function* answerChunks(
  answer: ScriptedAnswer,
  meta: ChunkMeta,
  finish: boolean,
): Generator<string, void, undefined> {
  const shape = meta.shape ?? DIALECT_SHAPES.gateway;
  const head = chunkHead(meta, shape);
  if (shape.contentFilterFirst) yield CONTENT_FILTER_CHUNK;
  if (!shape.noRole) yield choiceChunk(head, '{"role":"assistant"}', null);
  for (const piece of meta.reasoning ?? []) {
    yield choiceChunk(head, JSON.stringify(reasoningFields(shape, piece)), null);
  }
  for (let i = 0; i < answer.pieceCount; i++) {
    const content = shape.contentParts
      ? JSON.stringify(contentValue(shape, answer.piece(i)))
      : JSON.stringify(answer.piece(i));
    yield choiceChunk(head, `{"content":${content}}`, null);
  }
  for (const [index, call] of answer.toolCalls.entries()) {
    for (const delta of toolCallDeltas(call, index, shape)) {
      yield choiceChunk(head, delta, null);
    }
  }
  if (finish) yield* finishChunks(answer, meta, shape, head);
}

/**
 * One tool call's deltas: whole (without `index`), or its head then its arguments in fragments;
 * the dialect's `extra_content` (Gemini's signature) on the first.
 */
function* toolCallDeltas(
  call: ScriptedToolCall,
  index: number,
  shape: DialectShape,
): Generator<string, void, undefined> {
  const extra = toolCallExtra(shape, call);
  const extraField = extra === undefined ? '' : `,"extra_content":${JSON.stringify(extra)}`;
  if (shape.indexlessToolCalls) {
    yield `{"tool_calls":[{"id":${JSON.stringify(call.id)},"type":"function","function":{"name":${JSON.stringify(call.name)},"arguments":${JSON.stringify(call.arguments)}}${extraField}}]}`;
    return;
  }
  yield `{"tool_calls":[{"index":${index},"id":${JSON.stringify(call.id)},"type":"function","function":{"name":${JSON.stringify(call.name)},"arguments":""}${extraField}}]}`;
  for (const fragment of splitArguments(call.arguments)) {
    yield `{"tool_calls":[{"index":${index},"function":{"arguments":${JSON.stringify(fragment)}}}]}`;
  }
}

/** The finish chunk, with the usage in it or (when asked) after it, as the dialect sends it. */
function* finishChunks(
  answer: ScriptedAnswer,
  meta: ChunkMeta,
  shape: DialectShape,
  head: string,
): Generator<string, void, undefined> {
  const usageJson = meta.usage === undefined ? undefined : JSON.stringify(meta.usage);
  if (usageJson !== undefined && shape.usageInFinish) {
    // docs/gateway-protocol.md §5.1: the last chunk before [DONE] carries the finish_reason (and here the usage).
    yield choiceChunk(head, '{}', answer.finishReason, `,"usage":${usageJson}`);
    return;
  }
  // The finish chunk, then (when asked) a usage-only chunk with `choices: []`.
  yield choiceChunk(head, '{}', answer.finishReason);
  if (usageJson !== undefined) yield `${head}],"usage":${usageJson}}\n\n`;
}

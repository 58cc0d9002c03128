// docs/gateway-protocol.md §5 (a streamed answer as LangChain's content-block event stream), §5.4
// (its reasoning).
import type { ToolArguments } from '@infergate/core/internal';
import type {
  ChatModelStreamEvent,
  ContentBlockDelta,
  ContentBlockDeltaEvent,
  ContentBlockStartEvent,
  FinishReason,
} from '@langchain/core/language_models/event';
import type { AIMessageChunk, ContentBlock, UsageMetadata } from '@langchain/core/messages';
import type { ChatGenerationChunk } from '@langchain/core/outputs';

/**
 * How the model reads an answer's finish reason and a tool call's arguments (core's reading), and
 * the block number the stream converter gave each chunk's piece (`blocks`).
 */
export interface AnswerReaders {
  mapReason: (reason: string | undefined) => FinishReason;
  parseArguments: (text: string) => ToolArguments;
  blocks: Pick<WeakMap<AIMessageChunk, number>, 'get'>;
}

type OpenBlock =
  | { type: 'reasoning'; reasoning: string }
  | { type: 'text'; text: string }
  | { type: 'tool_call_chunk'; id?: string; name?: string; args: string; index: number };

/**
 * The blocks of one answer, numbered in the order they start (reasoning, text, each tool call:
 * as `ChatOpenAI` numbers them), so no two share a number and the assembled message keeps them in
 * that order.
 */
class AnswerBlocks {
  readonly blocks: OpenBlock[] = [];
  /** The numbers of the reasoning and text blocks (-1: not started), and of each tool call's. */
  reasoning = -1;
  text = -1;
  readonly tools = new Map<number, number>();
  /** The kind of the last reasoning or text piece. */
  last: 'reasoning' | 'text' | undefined;
  /** Our blocks by the stream converter's block numbers. */
  private readonly numbered = new Map<number, number>();

  /**
   * The start event of the reasoning or text block when a piece starts it, else undefined. A piece
   * the stream converter numbered (`block`) belongs to that block, as in the `outputVersion: 'v1'`
   * chunks and `contentBlocks` (reasoning sent in a field is one block, however the text comes
   * between); else a piece after one of the other kind starts a block of its own.
   */
  open(kind: 'reasoning' | 'text', block: number | undefined): ContentBlockStartEvent | undefined {
    const same = this.last === kind;
    this.last = kind;
    const known = block === undefined ? undefined : this.numbered.get(block);
    if (known !== undefined) {
      this[kind] = known;
      return undefined;
    }
    if (block === undefined && this[kind] >= 0 && same) return undefined;
    const start = this.start(
      kind === 'text' ? { type: 'text', text: '' } : { type: 'reasoning', reasoning: '' },
    );
    this[kind] = start.index;
    if (block !== undefined) this.numbered.set(block, start.index);
    return start;
  }

  start(block: OpenBlock): ContentBlockStartEvent {
    const index = this.blocks.push(block) - 1;
    return { event: 'content-block-start', index, content: { ...block } as ContentBlock };
  }

  delta(index: number, delta: ContentBlockDelta): ContentBlockDeltaEvent {
    const block = this.blocks[index]!;
    if (block.type === 'reasoning' && delta.type === 'reasoning-delta') {
      block.reasoning += delta.reasoning;
    } else if (block.type === 'text' && delta.type === 'text-delta') {
      block.text += delta.text;
    } else if (block.type === 'tool_call_chunk' && delta.type === 'tool-call-delta') {
      block.args += delta.args;
    }
    return { event: 'content-block-delta', index, delta };
  }
}

/**
 * The chat model's chunks as LangChain's content-block events: the reasoning the converters keep
 * in `additional_kwargs.reasoning_content` as a `reasoning` block (LangChain's own chunk bridge
 * reads only `content` and tool-call chunks), the text, each tool call, and a last
 * `message-finish` carrying the answer's real finish reason, usage and response metadata.
 * The readers are the model's own (map-finish-reason.ts, parse-tool-arguments.ts), given by it:
 * this file loads lazily and imports nothing, which would otherwise split the modules it shares
 * with the start path into more chunks (B5).
 */
export async function* convertToChatModelEvents(
  chunks: AsyncIterable<ChatGenerationChunk>,
  signal: AbortSignal | undefined,
  read: AnswerReaders,
): AsyncGenerator<ChatModelStreamEvent> {
  const answer = new AnswerBlocks();
  let metadata: Record<string, unknown> | undefined;
  let usage: UsageMetadata | undefined;
  let started = false;
  for await (const chunk of chunks) {
    signal?.throwIfAborted();
    const message = chunk.message as AIMessageChunk;
    if (!started) {
      started = true;
      yield { event: 'message-start', ...(message.id ? { id: message.id } : {}) };
    }
    const reasoning = message.additional_kwargs?.reasoning_content;
    if (typeof reasoning === 'string' && reasoning !== '') {
      const start = answer.open('reasoning', read.blocks.get(message));
      if (start) yield start;
      yield answer.delta(answer.reasoning, { type: 'reasoning-delta', reasoning });
    }
    const text = message.content;
    if (typeof text === 'string' && text !== '') {
      const start = answer.open('text', read.blocks.get(message));
      if (start) yield start;
      yield answer.delta(answer.text, { type: 'text-delta', text });
    }
    for (const piece of message.tool_call_chunks ?? []) {
      const call = piece.index ?? 0;
      let index = answer.tools.get(call);
      if (index === undefined) {
        const start = answer.start({
          type: 'tool_call_chunk',
          ...(piece.id != null ? { id: piece.id } : {}),
          ...(piece.name != null ? { name: piece.name } : {}),
          args: '',
          index: call,
        });
        index = start.index;
        answer.tools.set(call, index);
        yield start;
      } else if (piece.id != null) {
        // A later piece may bring the server's id (core's call keeps the latest).
        (answer.blocks[index] as { id?: string }).id = piece.id;
      }
      if (piece.args) yield answer.delta(index, { type: 'tool-call-delta', args: piece.args });
    }
    if (message.usage_metadata) {
      usage = message.usage_metadata;
      yield { event: 'usage', usage };
    }
    // The last chunk carries the whole metadata (every chunk names its provider only).
    if (message.response_metadata?.model_name !== undefined) {
      metadata = message.response_metadata;
    }
  }
  for (const [index, block] of answer.blocks.entries()) {
    yield { event: 'content-block-finish', index, content: finished(block, read.parseArguments) };
  }
  yield {
    event: 'message-finish',
    reason: read.mapReason(metadata?.finish_reason as string | undefined),
    ...(usage ? { usage } : {}),
    ...(metadata ? { responseMetadata: metadata } : {}),
  };
}

/**
 * A finished block: a tool call's arguments parsed as `invoke` reads them, or an
 * `invalid_tool_call` keeping the text and naming the fault as `invoke` does.
 */
function finished(block: OpenBlock, parseArguments: AnswerReaders['parseArguments']): ContentBlock {
  if (block.type !== 'tool_call_chunk') return block as ContentBlock;
  const { id, name, args } = block;
  const parsed = parseArguments(args);
  if (parsed.ok) return { type: 'tool_call', id, name: name ?? '', args: parsed.value };
  return { type: 'invalid_tool_call', id, name, args, error: parsed.error };
}

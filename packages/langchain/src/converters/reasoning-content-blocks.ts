// docs/gateway-protocol.md §5.4 (the reasoning read from an answer, as LangChain content blocks).
import type { AIMessage, AIMessageChunk, ContentBlock } from '@langchain/core/messages';
import { INTERLEAVED_KWARG, type OrderedBlock } from './interleaved-content';

/**
 * LangChain 1.x builds `contentBlocks` with the translator registered for the message's
 * `response_metadata.model_provider`. Ours reads what the converters put on the message: the
 * reasoning (`additional_kwargs.reasoning_content`, as ChatOpenAI and ChatDeepSeek keep it) as a
 * `reasoning` block first, then the text, then the tool calls; an answer that interleaved reasoning
 * and text (Mistral's `thinking` parts) keeps their order, a block per piece.
 */
function toStandardBlocks(message: AIMessage | AIMessageChunk): ContentBlock.Standard[] {
  const blocks = orderedBlocks(message) ?? textBlocks(message);
  for (const call of message.tool_calls ?? []) {
    blocks.push({
      type: 'tool_call',
      ...(call.id !== undefined ? { id: call.id } : {}),
      name: call.name,
      args: call.args,
    });
  }
  return blocks;
}

/**
 * The reasoning and text in the order the model sent them, when it interleaved them (kept by the
 * converters as `additional_kwargs.interleaved_content`) and they are still the message's text and
 * reasoning; else undefined. A copy whose `content` or `reasoning_content` was changed (redacted,
 * rewritten) no longer matches its stored order: its blocks are read from what it now holds.
 */
function orderedBlocks(message: AIMessage | AIMessageChunk): ContentBlock.Standard[] | undefined {
  const ordered = message.additional_kwargs?.[INTERLEAVED_KWARG];
  if (!Array.isArray(ordered)) return undefined;
  const joined = (type: string) =>
    (ordered as OrderedBlock[])
      .map((block) =>
        block.type !== type ? '' : block.type === 'text' ? block.text : block.reasoning,
      )
      .join('');
  const reasoning = message.additional_kwargs?.reasoning_content;
  if (joined('text') !== messageText(message) || joined('reasoning') !== (reasoning ?? '')) {
    return undefined;
  }
  return (ordered as OrderedBlock[]).map((block) =>
    block.type === 'reasoning'
      ? { type: 'reasoning', reasoning: block.reasoning }
      : { type: 'text', text: block.text },
  );
}

/** The message's text: `content` as a string, or its text blocks joined. */
function messageText(message: AIMessage | AIMessageChunk): string {
  const { content } = message;
  if (typeof content === 'string') return content;
  let text = '';
  for (const block of content) {
    if (typeof block === 'object' && block.type === 'text' && typeof block.text === 'string') {
      text += block.text;
    }
  }
  return text;
}

/** The reasoning (`reasoning_content`), then the text. */
function textBlocks(message: AIMessage | AIMessageChunk): ContentBlock.Standard[] {
  const blocks: ContentBlock.Standard[] = [];
  const reasoning = message.additional_kwargs?.reasoning_content;
  if (typeof reasoning === 'string' && reasoning.length > 0) {
    blocks.push({ type: 'reasoning', reasoning });
  }
  const { content } = message;
  if (typeof content === 'string') {
    if (content.length > 0) blocks.push({ type: 'text', text: content });
  } else {
    for (const block of content) {
      if (typeof block === 'object' && block.type === 'text' && typeof block.text === 'string') {
        blocks.push({ type: 'text', text: block.text });
      }
    }
  }
  return blocks;
}

/**
 * The block number of each stream chunk's piece (its reasoning, text or tool-call piece: one a
 * chunk), set by the stream converter (`StreamedPieces` counts them) and read by the translator and
 * `streamEvents`. Kept beside the chunk, not in it: it is no part of the message (v0 output,
 * serialization), only the `index` of its v1 blocks.
 */
export const CHUNK_BLOCKS = new WeakMap<AIMessageChunk, number>();

/**
 * One stream chunk's blocks, for `outputVersion: 'v1'` streams (LangChain casts each chunk on its
 * own, then callers concatenate them). Its piece's block has the piece's block number as `index`:
 * unique in the answer across block types and counted in the order the blocks start, so that
 * concatenation merges the pieces of one block (text and argument strings add up), never two
 * blocks, and the joined chunks hold `invoke`'s blocks in its order (reasoning sent in a field one
 * block, interleaved pieces a block each, each tool call a `tool_call_chunk` with its whole `args`
 * text). A chunk with no text has no text block.
 */
function toStandardChunkBlocks(message: AIMessageChunk, index: number): ContentBlock.Standard[] {
  const blocks: ContentBlock.Standard[] = [];
  const reasoning = message.additional_kwargs?.reasoning_content;
  if (typeof reasoning === 'string' && reasoning.length > 0) {
    blocks.push({ type: 'reasoning', reasoning, index });
  }
  const text = typeof message.content === 'string' ? message.content : '';
  if (text.length > 0) blocks.push({ type: 'text', text, index });
  for (const piece of message.tool_call_chunks ?? []) {
    blocks.push({
      type: 'tool_call_chunk',
      ...(piece.id !== undefined ? { id: piece.id } : {}),
      ...(piece.name !== undefined ? { name: piece.name } : {}),
      args: piece.args ?? '',
      index,
    });
  }
  return blocks;
}

export const MODEL_PROVIDER = 'infergate';

interface TranslatorRegistry {
  set(provider: string, translator: unknown): unknown;
  has(provider: string): boolean;
}

/**
 * Registers the translator in LangChain's own registry (created by @langchain/core when its
 * messages module loads, shared through globalThis across copies of the package).
 */
export function registerContentBlockTranslator(): void {
  const registry = (globalThis as { lc_block_translators_registry?: TranslatorRegistry })
    .lc_block_translators_registry;
  if (registry === undefined || registry.has(MODEL_PROVIDER)) return;
  // LangChain asks `translateContent` for chunks too. A piece of a stream (a chunk the stream
  // converter numbered) reads as its block's piece; a whole answer, the joined stream (or any
  // other message) as complete blocks.
  const translate = (message: AIMessage | AIMessageChunk) => {
    const index = CHUNK_BLOCKS.get(message as AIMessageChunk);
    return index === undefined
      ? toStandardBlocks(message)
      : toStandardChunkBlocks(message as AIMessageChunk, index);
  };
  registry.set(MODEL_PROVIDER, { translateContent: translate, translateContentChunk: translate });
}

// docs/gateway-protocol.md §4.3 (content and its parts), §5.4 (Mistral's `thinking` parts).
import { readMessagePieces } from '@infergate/core/internal';

/**
 * Where an AI message keeps its reasoning and text in the order the model sent them, when that
 * order is not "the reasoning, then the text" (Mistral's `thinking` parts between text parts):
 * LangChain's content blocks, each with its place (`index`). `content` (the text joined) and
 * `reasoning_content` (the reasoning joined) stay as they are; `contentBlocks` reads this.
 */
export const INTERLEAVED_KWARG = 'interleaved_content';

export type OrderedBlock =
  | { type: 'reasoning'; reasoning: string; index: number }
  | { type: 'text'; text: string; index: number };

function block(type: 'reasoning' | 'text', text: string, index: number): OrderedBlock {
  return type === 'reasoning' ? { type, reasoning: text, index } : { type, text, index };
}

/** Pieces in an order other than one reasoning piece, then one text piece (either may be absent). */
function interleaved(types: readonly string[]): boolean {
  return types.length > 2 || (types.length === 2 && types[0] === 'text');
}

/**
 * A whole answer's message (`message`, as the gateway sent it) as ordered blocks, when its pieces
 * are interleaved and are the text and reasoning core read (`text`, `reasoning`; core's differ
 * when it took JSON out of a fence for a schema); else undefined.
 */
export function interleavedBlocks(
  message: unknown,
  text: string,
  reasoning: string | undefined,
): OrderedBlock[] | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const pieces = readMessagePieces(message as Record<string, unknown>);
  if (!interleaved(pieces.map((piece) => piece.type))) return undefined;
  const joined = (type: string) =>
    pieces
      .filter((piece) => piece.type === type)
      .map((piece) => piece.text)
      .join('');
  if (joined('text') !== text || joined('reasoning') !== (reasoning ?? '')) return undefined;
  return pieces.map((piece, index) => block(piece.type, piece.text, index));
}

/**
 * A stream's pieces, as they arrive: the `INTERLEAVED_KWARG` entry a chunk carries so that the
 * joined chunks hold the ordered blocks. Nothing while the stream is "reasoning, then text"; the
 * first piece that breaks that order carries every piece so far, each later piece its own block
 * (chunks join blocks of one `index`, adding up their text). Only reasoning sent among the text
 * (`inContent`: content parts) has a place of its own; a reasoning field's goes first, as a whole
 * answer's does (readMessagePieces), whenever it arrives — a server sending reasoning and text in
 * each chunk is not interleaving.
 *
 * Each piece also belongs to a content block, numbered (`block`) across block types — reasoning,
 * text, each tool call (`callBlock`) — in the order the blocks start: the order concatenated
 * chunks hold them in.
 */
export class StreamedPieces {
  private readonly pieces: { type: 'reasoning' | 'text'; text: string; block: number }[] = [];
  private ordered = false;
  private blocks = 0;
  /** Each tool call's block number, by core's call number. */
  private readonly calls: number[] = [];
  /** The block number of the piece last added. */
  block = 0;

  /** The block number of tool call `call` (core's call number), given at its first piece. */
  callBlock(call: number): number {
    this.calls[call] ??= this.blocks++;
    return this.calls[call];
  }

  add(
    type: 'reasoning' | 'text',
    delta: string,
    inContent?: true,
  ): Record<string, OrderedBlock[]> | undefined {
    if (type === 'reasoning' && !inContent) {
      const first = this.pieces[0];
      if (first?.type === 'reasoning') {
        first.text += delta;
        this.block = first.block;
        return this.ordered ? { [INTERLEAVED_KWARG]: [block(type, delta, 0)] } : undefined;
      }
      // (Before any order is told, it becomes the first piece; after, it keeps its arrival place.)
      if (first !== undefined && !this.ordered) {
        this.block = this.blocks++;
        this.pieces.unshift({ type, text: delta, block: this.block });
        return undefined;
      }
    }
    const last = this.pieces.at(-1);
    if (last?.type === type) {
      last.text += delta;
      this.block = last.block;
    } else {
      this.block = this.blocks++;
      this.pieces.push({ type, text: delta, block: this.block });
    }
    const index = this.pieces.length - 1;
    if (this.ordered) return { [INTERLEAVED_KWARG]: [block(type, delta, index)] };
    if (!interleaved(this.pieces.map((piece) => piece.type))) return undefined;
    this.ordered = true;
    return {
      [INTERLEAVED_KWARG]: this.pieces.map((piece, at) => block(piece.type, piece.text, at)),
    };
  }
}

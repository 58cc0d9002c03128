import type { AssembledChat, AssembledToolCall, Usage } from './types';

/** Deltas joined into one flat string at a time. */
const PIECE_DELTAS = 1024;

interface ToolCallDraft {
  index: number;
  order: number;
  id: string;
  name: string;
  arguments: string;
}

/**
 * Builds the final answer of a stream from its pieces. Tool-call pieces are joined by `index`;
 * a piece whose `id` differs from the one already at that index starts a new call (some servers
 * send every call at index 0). Empty arguments become `"{}"`.
 */
export class ChatAssembler {
  id: string | undefined;
  model: string | undefined;
  finishReason: string | undefined;
  usage: Usage | undefined;
  readonly #drafts: ToolCallDraft[] = [];
  readonly #latestByIndex = new Map<number, ToolCallDraft>();

  /**
   * Deltas of the first choice not yet flattened. Text is never built with `+=`: V8 would keep a
   * rope node per delta alive until the end (~2× the text's size for a long stream).
   */
  #deltas: string[] = [];
  /** Flat pieces of up to PIECE_DELTAS deltas each. */
  readonly #pieces: string[] = [];

  addText(delta: string, choiceIndex: number): void {
    if (choiceIndex !== 0) return;
    this.#deltas.push(delta);
    if (this.#deltas.length === PIECE_DELTAS) this.#flatten();
  }

  /** The first choice's text so far. */
  get text(): string {
    if (this.#deltas.length > 0) this.#flatten();
    if (this.#pieces.length > 1) this.#pieces.splice(0, this.#pieces.length, this.#pieces.join(''));
    return this.#pieces[0] ?? '';
  }

  set text(value: string) {
    this.#deltas = [];
    this.#pieces.splice(0, this.#pieces.length, value);
  }

  #flatten(): void {
    this.#pieces.push(this.#deltas.join(''));
    this.#deltas = [];
  }

  /** Adds a tool-call piece; returns the call it belongs to (its order of start, from 0). */
  addToolCallDelta(
    index: number,
    id: string | undefined,
    name: string | undefined,
    args: string,
  ): number {
    let draft = this.#latestByIndex.get(index);
    if (
      draft === undefined ||
      (id !== undefined && id !== '' && draft.id !== '' && draft.id !== id)
    ) {
      draft = { index, order: this.#drafts.length, id: id ?? '', name: name ?? '', arguments: '' };
      this.#drafts.push(draft);
      this.#latestByIndex.set(index, draft);
    } else {
      if (id && draft.id === '') draft.id = id;
      if (name && draft.name === '') draft.name = name;
    }
    if (args !== '') draft.arguments += args;
    return draft.order;
  }

  setFinish(reason: string, choiceIndex: number): void {
    if (choiceIndex === 0 || this.finishReason === undefined) this.finishReason = reason;
  }

  get hasFinish(): boolean {
    return this.finishReason !== undefined;
  }

  toolCalls(): AssembledToolCall[] {
    return [...this.#drafts]
      .sort((a, b) => a.index - b.index || a.order - b.order)
      .map((draft) => ({
        id: draft.id !== '' ? draft.id : `call_${draft.index}_${draft.order}`,
        name: draft.name,
        arguments: draft.arguments.trim() === '' ? '{}' : draft.arguments,
      }));
  }

  /** The assembled answer; call only once a finish reason was seen. */
  result(): AssembledChat {
    const result: AssembledChat = {
      text: this.text,
      toolCalls: this.toolCalls(),
      finishReason: this.finishReason ?? 'unknown',
    };
    if (this.id !== undefined) result.id = this.id;
    if (this.model !== undefined) result.model = this.model;
    if (this.usage !== undefined) result.usage = this.usage;
    return result;
  }
}

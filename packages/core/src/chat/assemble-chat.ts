// docs/gateway-protocol.md §5 (a stream's chunks joined into the answer), §4.4 (tool calls), §5.4
// (dialects).
import type { AssembledChat, AssembledToolCall } from '../protocol/chat-result-types';
import type { Usage } from '../protocol/wire-types';

/** Deltas joined into one flat string at a time. */
const PIECE_DELTAS = 1024;

interface ToolCallDraft {
  index: number;
  order: number;
  id: string;
  /** The server sent no id with the call's first piece: `id` is ours (`call_<index>_<order>`). */
  idMadeUp: boolean;
  name: string;
  arguments: string;
}

/** A tool-call piece as joined: the call it belongs to, and whether it is the call's first. */
export interface JoinedToolCallPiece {
  /** The call, numbered from 0 in the order the calls started. */
  call: number;
  /** The call's id: the server's, or `call_<index>_<order>` when its first piece had none. */
  id: string;
  first: boolean;
}

/**
 * Builds the final answer of a stream from its pieces. Tool-call pieces are joined by `index`;
 * a piece whose `id` differs from the one already at that index starts a new call (some servers
 * send every call at index 0). An empty `id` is no id (DashScope repeats `id: ""` on every later
 * piece); a call whose first piece has none gets `call_<index>_<order>` at once, so that the
 * stream's events and the assembled answer name it alike. The first name a call gets is its name
 * (llama.cpp repeats the whole name on every piece). Empty arguments become `"{}"`.
 */
export class ChatAssembler {
  /**
   * False when the caller only iterates events (`chatStream(req, { assemble: false })`): text and
   * reasoning are not kept, so a long stream holds no copy of its answer.
   */
  keepText = true;
  id: string | undefined;
  model: string | undefined;
  /** `created` (Unix seconds) of the first chunk that had one. */
  created: number | undefined;
  /** The first choice's finish reason (other choices are not part of the answer). */
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

  /** Reasoning deltas of the first choice (far fewer and shorter than text in practice). */
  readonly #reasoning: string[] = [];

  addReasoning(delta: string, choiceIndex: number): void {
    if (choiceIndex === 0 && this.keepText) this.#reasoning.push(delta);
  }

  /** The first choice's reasoning so far ('' when the model sent none). */
  get reasoning(): string {
    if (this.#reasoning.length > 1)
      this.#reasoning.splice(0, this.#reasoning.length, this.#reasoning.join(''));
    return this.#reasoning[0] ?? '';
  }

  addText(delta: string, choiceIndex: number): void {
    if (choiceIndex !== 0 || !this.keepText) return;
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

  /** Adds a tool-call piece; returns the call it belongs to. */
  addToolCallDelta(
    index: number,
    id: string | undefined,
    name: string | undefined,
    args: string,
  ): JoinedToolCallPiece {
    const serverId = id === '' ? undefined : id;
    let draft = this.#latestByIndex.get(index);
    const first =
      draft === undefined || (serverId !== undefined && !draft.idMadeUp && draft.id !== serverId);
    if (draft === undefined || first) {
      const order = this.#drafts.length;
      draft = {
        index,
        order,
        id: serverId ?? `call_${index}_${order}`,
        idMadeUp: serverId === undefined,
        name: name ?? '',
        arguments: '',
      };
      this.#drafts.push(draft);
      this.#latestByIndex.set(index, draft);
    } else if (name && draft.name === '') {
      draft.name = name;
    }
    if (args !== '') draft.arguments += args;
    return { call: draft.order, id: draft.id, first };
  }

  setFinish(reason: string, choiceIndex: number): void {
    if (choiceIndex === 0) this.finishReason = reason;
  }

  get hasFinish(): boolean {
    return this.finishReason !== undefined;
  }

  toolCalls(): AssembledToolCall[] {
    return [...this.#drafts]
      .sort((a, b) => a.index - b.index || a.order - b.order)
      .map((draft) => ({
        id: draft.id,
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
    const reasoning = this.reasoning;
    if (reasoning !== '') result.reasoning = reasoning;
    if (this.id !== undefined) result.id = this.id;
    if (this.model !== undefined) result.model = this.model;
    if (this.created !== undefined) result.created = this.created;
    if (this.usage !== undefined) result.usage = this.usage;
    return result;
  }
}

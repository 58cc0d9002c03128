// docs/gateway-protocol.md §5 (a stream's chunks joined into the answer), §4.4 (tool calls), §5.4
// (dialects).
import type {
  AssembledAudio,
  AssembledChat,
  AssembledImage,
  AssembledToolCall,
} from '../protocol/chat-result-types';
import type { Usage } from '../protocol/wire-types';
import { refusedFinishReason } from './classify-finish-reason';
import { uniqueCallId } from './read-message-parts';

/** Deltas joined into one flat string at a time. */
const PIECE_DELTAS = 1024;
/** A piece of arguments that starts a JSON object or array (after any whitespace). */
const STARTS_VALUE = /^\s*[{[]/;

interface ToolCallDraft {
  index: number;
  order: number;
  /** The call's id: the server's, or ours (`uniqueCallId`) when it sent none or a taken one. */
  id: string;
  /** The id the server sent with the call's first piece, if any. */
  givenId: string | undefined;
  name: string;
  arguments: string;
  /** The first `extra_content` object a piece of the call carried. */
  extraContent?: Record<string, unknown>;
}

/** A tool-call piece as joined: the call it belongs to, and whether it is the call's first. */
export interface JoinedToolCallPiece {
  /** The call, numbered from 0 in the order the calls started. */
  call: number;
  /**
   * The call's id: the server's, or `<id or call_<index>>_<order>_<tag>` when its first piece had
   * none or one an earlier call of the answer has (`uniqueCallId`).
   */
  id: string;
  first: boolean;
}

/**
 * Builds the final answer of a stream from its pieces. Tool-call pieces are joined by `index`;
 * a piece at an index in use starts a new call when it carries another id than the call there,
 * names another function, or names it again and starts a JSON value after whole arguments
 * (some servers send every call at index 0, some without ids, some with one id for all); a piece
 * carrying the id of an earlier call joins that call (`callOfKnownId`). An empty
 * `id` is no id (DashScope repeats `id: ""` on every later piece); a call whose first piece has
 * none, or one an earlier call has, gets one of ours at once (`uniqueCallId`), so that the stream's
 * events and the assembled answer name it alike; a server id on a later piece of a call that had
 * none then replaces ours (`#adoptLaterId`). The first name a call gets is its name
 * (llama.cpp repeats the whole name on every piece). Empty arguments become `"{}"`.
 * A `refusal` is text, and marks the answer refused (`refusedFinishReason`).
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
  /** The first choice's finish reason as sent, when `finishReason` is another (refused). */
  sentFinishReason: string | undefined;
  usage: Usage | undefined;
  readonly #drafts: ToolCallDraft[] = [];
  /** The call a piece at an index joins: the latest started there, or the latest joined by id. */
  readonly #latestByIndex = new Map<number, ToolCallDraft>();
  /** The latest call the server gave each id (`callOfKnownId`). */
  readonly #byGivenId = new Map<string, ToolCallDraft>();
  /** The ids of this answer's calls (`uniqueCallId`), made when the first call starts. */
  #ids: Set<string> | undefined;
  /** The refusal of choice 0 (`#refused` even when the text is not kept). */
  readonly #refusal: string[] = [];
  #refused = false;
  /** `startsNextCall` read a piece naming the latest call's function again, that call still empty. */
  #namedAgainWithoutArguments = false;

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

  /** Choice 0's audio pieces: their `data` and `transcript` pieces, the latest id and expiry. */
  #audio: { id?: string; data: string[]; transcript: string[]; expiresAt?: number } | undefined;
  /** Choice 0's generated images, in the order sent. */
  #images: AssembledImage[] | undefined;

  /** A piece of the audio the model spoke (`delta.audio`): its fields kept, its text joined. */
  addAudio(piece: Partial<AssembledAudio>, choiceIndex: number): void {
    if (choiceIndex !== 0 || !this.keepText) return;
    this.#audio ??= { data: [], transcript: [] };
    const audio = this.#audio;
    if (piece.id !== undefined) audio.id = piece.id;
    if (piece.data !== undefined) audio.data.push(piece.data);
    if (piece.transcript !== undefined) audio.transcript.push(piece.transcript);
    if (piece.expiresAt !== undefined) audio.expiresAt = piece.expiresAt;
  }

  /** An image the model generated (`delta.images`). */
  addImage(url: string, choiceIndex: number): void {
    if (choiceIndex !== 0 || !this.keepText) return;
    this.#images ??= [];
    this.#images.push({ url });
  }

  /** The audio and images of choice 0 as `result()` gives them (none: nothing). */
  #media(): Pick<AssembledChat, 'audio' | 'images'> {
    const media: Pick<AssembledChat, 'audio' | 'images'> = {};
    const audio = this.#audio;
    if (audio !== undefined) {
      media.audio = {
        ...(audio.id !== undefined && { id: audio.id }),
        data: audio.data.join(''),
        transcript: audio.transcript.join(''),
        ...(audio.expiresAt !== undefined && { expiresAt: audio.expiresAt }),
      };
    }
    if (this.#images !== undefined) media.images = [...this.#images];
    return media;
  }

  addText(delta: string, choiceIndex: number): void {
    if (choiceIndex !== 0 || !this.keepText) return;
    this.#deltas.push(delta);
    if (this.#deltas.length === PIECE_DELTAS) this.#flatten();
  }

  /**
   * A refusal piece: text of the answer, and the marker of a refused choice 0 (one after its
   * finish makes that finish refused too, as in a whole answer: a `stop` is `content_filter`).
   */
  addRefusal(delta: string, choiceIndex: number): void {
    if (choiceIndex !== 0) return;
    this.#refused = true;
    if (this.finishReason !== undefined && this.sentFinishReason === undefined) {
      this.setFinish(this.finishReason, 0);
    }
    this.addText(delta, choiceIndex);
    if (this.keepText) this.#refusal.push(delta);
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
    const repeat = this.#namedAgainWithoutArguments;
    this.#namedAgainWithoutArguments = false;
    const first =
      draft === undefined ||
      this.#isOtherCall(draft, serverId, name, args) ||
      (repeat && isWholeOrEmpty(args));
    if (draft === undefined || first) {
      const order = this.#drafts.length;
      this.#ids ??= new Set();
      draft = {
        index,
        order,
        id: uniqueCallId(this.#ids, serverId, index, order),
        givenId: serverId,
        name: name ?? '',
        arguments: '',
      };
      this.#drafts.push(draft);
      this.#latestByIndex.set(index, draft);
      if (serverId !== undefined) this.#byGivenId.set(serverId, draft);
    } else {
      if (name && draft.name === '') draft.name = name;
      this.#adoptLaterId(draft, serverId);
    }
    if (args !== '') draft.arguments += args;
    return { call: draft.order, id: draft.id, first };
  }

  /**
   * The server's id on a later piece of a call whose first piece had none replaces the one made up
   * for it (unless an earlier call has it), as frameworks that join pieces keep the latest id: the
   * assembled answer, and the event of that piece, carry it.
   */
  #adoptLaterId(draft: ToolCallDraft, serverId: string | undefined): void {
    if (serverId === undefined || draft.givenId !== undefined || this.#ids?.has(serverId)) return;
    this.#ids?.delete(draft.id);
    this.#ids?.add(serverId);
    draft.id = serverId;
    draft.givenId = serverId;
    this.#byGivenId.set(serverId, draft);
  }

  /**
   * A piece carrying the id the server gave an earlier call joins that call, when that call is not
   * the one the piece would join anyway (the latest at `index`) and the piece's own index, if it
   * sent one, is that call's: servers that tell parallel calls apart only by id interleave their
   * pieces without index or all at index 0. Returns that call's index (and makes the call the one
   * its index continues), or undefined: the piece is read by index, as without an id. A piece at
   * another index than the call's follows its index (parallel calls given one id, DeepSeek), and so
   * does a named piece that starts another call (`#isOtherCall`).
   */
  callOfKnownId(
    id: string,
    index: number,
    indexSent: boolean,
    name: string | undefined,
    args: string,
  ): number | undefined {
    const draft = this.#byGivenId.get(id);
    if (draft === undefined || draft === this.#latestByIndex.get(index)) return undefined;
    if (indexSent && index !== draft.index) return undefined;
    if (this.#isOtherCall(draft, id, name, args)) return undefined;
    this.#latestByIndex.set(draft.index, draft);
    return draft.index;
  }

  /**
   * Whether a piece without a name contradicts itself: the `index` it sent is a call's the server
   * gave another id, and its id is that of a call at another index. It belongs to neither for
   * sure, so it is left out and both calls stay as they were (as the AI SDK drops it). One id the
   * server gave calls at two indexes (DeepSeek) is no contradiction: the index's call has that id.
   */
  contradictsIndex(id: string, index: number, name: string | undefined): boolean {
    if (name !== undefined) return false;
    const ofId = this.#byGivenId.get(id);
    const atIndex = this.#latestByIndex.get(index);
    if (ofId === undefined || atIndex === undefined || ofId.index === index) return false;
    return atIndex.givenId !== undefined && atIndex.givenId !== id;
  }

  /**
   * A piece of call `call` carried `extra_content` (rare: Gemini's thought signature): kept when
   * the call has none yet. True when kept, so that the stream reports it once per call.
   */
  addToolCallExtra(call: number, extra: Record<string, unknown>): boolean {
    const draft = this.#drafts[call] as ToolCallDraft;
    if (draft.extraContent) return false;
    draft.extraContent = extra;
    return true;
  }

  /**
   * A named piece at the index of `draft` belongs to another call when it carries another id than
   * the server gave `draft`, names another function than `draft` already has (OpenRouter sends
   * calls of two tools at one index with one id), or names it again and starts a JSON value while
   * the arguments of `draft` are already one whole value (two whole calls of one tool at one index,
   * without ids). A piece without a name (the common one) continues `draft`, whatever its id
   * (Poolside changes the id after a call's first piece), and never parses.
   */
  #isOtherCall(
    draft: ToolCallDraft,
    serverId: string | undefined,
    name: string | undefined,
    args: string,
  ): boolean {
    if (name === undefined) return false;
    if (serverId !== undefined && draft.givenId !== undefined && draft.givenId !== serverId)
      return true;
    if (draft.name === '') return false;
    return draft.name !== name || (STARTS_VALUE.test(args) && isWholeJson(draft.arguments));
  }

  /**
   * A named piece without index, after the latest call at `index`: the next call when it carries
   * another id than the server gave that call, or (without an id) that call is named and this
   * names another function or its arguments are already one whole JSON value (whole calls sent one
   * after the other); else a continuation (servers that repeat the name on every piece) — except
   * that after a call of the same name without arguments yet, the piece added next is another call
   * when its own arguments are whole or empty (two calls of a tool without parameters, `""` each).
   */
  startsNextCall(index: number, id: string | undefined, name: string): boolean {
    const draft = this.#latestByIndex.get(index);
    if (draft === undefined) return false;
    if (id !== undefined) return id !== draft.givenId;
    if (draft.name === '') return false;
    if (draft.name !== name || isWholeJson(draft.arguments)) return true;
    this.#namedAgainWithoutArguments = draft.arguments.trim() === '';
    return false;
  }

  /** Sets choice 0's finish; returns the reason as reported (a refused `stop`: `content_filter`). */
  setFinish(reason: string, choiceIndex: number): string {
    if (choiceIndex !== 0) return reason;
    this.finishReason = this.#refused ? refusedFinishReason(reason) : reason;
    if (this.finishReason !== reason) this.sentFinishReason = reason;
    return this.finishReason;
  }

  get hasFinish(): boolean {
    return this.finishReason !== undefined;
  }

  /** The calls that got a function name (`named`), or those that never did (`named` false). */
  toolCalls(named = true): AssembledToolCall[] {
    return [...this.#drafts]
      .filter((draft) => (draft.name !== '') === named)
      .sort((a, b) => a.index - b.index || a.order - b.order)
      .map((draft) => ({
        id: draft.id,
        name: draft.name,
        arguments: draft.arguments.trim() === '' ? '{}' : draft.arguments,
        ...(draft.extraContent && { extraContent: draft.extraContent }),
      }));
  }

  /** The assembled answer; call only once a finish reason was seen. */
  result(): AssembledChat {
    const result: AssembledChat = {
      text: this.text,
      toolCalls: this.toolCalls(),
      finishReason: this.finishReason ?? null,
    };
    const reasoning = this.reasoning;
    if (reasoning !== '') result.reasoning = reasoning;
    if (this.#refusal.length > 0) result.refusal = this.#refusal.join('');
    // A call that never got a name is no call to run (§4.4): kept apart, not dropped.
    const unnamed = this.toolCalls(false);
    if (unnamed.length > 0) result.unnamedToolCalls = unnamed;
    if (this.sentFinishReason !== undefined) result.sentFinishReason = this.sentFinishReason;
    if (this.id !== undefined) result.id = this.id;
    if (this.model !== undefined) result.model = this.model;
    if (this.created !== undefined) result.created = this.created;
    if (this.usage !== undefined) result.usage = this.usage;
    return Object.assign(result, this.#media());
  }
}

/** `text` is one whole JSON object or array (the cheap end test first: this runs on rare pieces). */
function isWholeJson(text: string): boolean {
  const end = text.trimEnd();
  const last = end[end.length - 1];
  if (last !== '}' && last !== ']') return false;
  try {
    JSON.parse(end);
    return true;
  } catch {
    return false;
  }
}

/** `text` is empty (a call without arguments) or one whole JSON object or array. */
function isWholeOrEmpty(text: string): boolean {
  return text.trim() === '' || isWholeJson(text);
}

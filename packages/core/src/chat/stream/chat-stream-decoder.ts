// docs/gateway-protocol.md §5.1 (events), §5.2 (end and completeness), §5.3 (failures after the
// 200), §5.4 (dialects).
import { GatewayError } from '../../errors/errors';
import { clip } from '../../errors/escape-control';
import { DEFAULT_ERROR_BODY_BYTES, keptErrorBody } from '../../http/kept-error-body';
import { reportedFailure } from '../../http/reported-failure';
import type { AssembledChat, ChatStreamEvent } from '../../protocol/chat-result-types';
import { isJsonObject } from '../../protocol/json-object';
import { ChatAssembler } from '../assemble-chat';
import { choiceIndexes, indexSent } from '../choice-position';
import { refusedFinishReason } from '../classify-finish-reason';
import { readAudioPiece, readImageUrls } from '../generated-media';
import {
  argumentsText,
  markRefusal,
  readMessagePieces,
  readReasoningField,
} from '../read-message-parts';
import { typedUsage } from '../typed-usage';
import { SseDataSplitter } from './split-sse-data';

interface DecoderContext {
  requestedModel?: string;
  servedModel?: string;
  /** Keep the answer's text and reasoning for `result()` (default true). */
  assemble?: boolean;
  /** Give each event's JSON as a `raw` event too (default false: nothing kept). */
  rawChunks?: boolean;
  /** Most bytes of an error event's text kept on its error (the client's `maxErrorBodyBytes`). */
  maxErrorBodyBytes?: number;
}

type Json = Record<string, unknown>;
/** The events that carry the answer's id and model. */
type Named = Extract<ChatStreamEvent, { type: 'role' | 'metadata' }>;
type Finish = Extract<ChatStreamEvent, { type: 'finish' }>;
type UsageEvent = Extract<ChatStreamEvent, { type: 'usage' }>;

/**
 * Turns the text of an SSE chat stream into typed events and the assembled answer.
 * Errors are thrown from `feed` / `end` as GatewayError:
 * an `{error:{...}}` event keeps its code; a malformed event is `provider_protocol_error`;
 * an end without any `finish_reason` is `stream_incomplete` (thrown by `end`; after `[DONE]` the
 * events that still come before the body's end are read: a late usage or finish); a stream
 * whose choices never include choice 0 is `provider_protocol_error`. The last event of a body
 * that ends without its blank line is read when it is one whole JSON object (as openai-node does).
 *
 * Liberal in what it reads (model servers' dialects, passed through by the gateway): reasoning in
 * `delta.reasoning_content` / `delta.reasoning` / thinking parts, `delta.content` as an array of
 * parts, `delta.refusal` (as text; a refused `stop` is reported as `content_filter`), tool-call
 * pieces without `index`, `choices: []` chunks (content filters, usage), extra keys, and
 * `id`/`model`/`created` from the first chunk that has a non-empty value. The answer is choice 0:
 * other choices' text, reasoning and finish come as events with their `choiceIndex` (left out of
 * `result()`); their tool calls are not read.
 */
export class ChatStreamDecoder {
  readonly #assembler = new ChatAssembler();
  /** Events decoded but not yet taken; read from `#head`. */
  #queue: ChatStreamEvent[] = [];
  #head = 0;
  #done = false;
  #roleSent = false;
  #events = 0;
  /** The choices whose finish was handed out (one `finish` event each). */
  readonly #finished = new Set<number>();
  /** Pieces of the answer decoded so far (see `answered`). */
  #answered = 0;
  /** Some choice other than 0 finished (a stream without choice 0 is unreadable, not empty). */
  #otherChoiceFinished = false;
  #choiceZeroSeen = false;
  /**
   * One choice asked: a chunk's lone choice came without `index`, so from then on each lone choice
   * is the answer's, whatever index it says (`#loneAt`), until a chunk of several (`#severalSent`).
   */
  #indexlessSent = false;
  #severalSent = false;
  /** The index the server gave the answer (`#answerOf`): read as 0, and 0 as it. */
  #answerIndex: number | undefined;
  readonly #oneChoice: boolean;
  /** The choices other than 0 that sent a refusal (their `stop` is `content_filter`). */
  #refusedChoices: Set<number> | undefined;
  /** The choices other than 0 decoded so far (a request with `n` > 1): none for most answers. */
  #otherChoices: Set<number> | undefined;
  /** Highest tool-call index seen, and the index of the latest piece (for pieces without one). */
  #maxToolIndex = -1;
  #lastToolIndex = 0;
  /** The answer's `system_fingerprint` and `service_tier`, as its finish events carry them. */
  readonly #tags: Pick<Finish, 'systemFingerprint' | 'serviceTier'> = {};
  readonly #splitter: SseDataSplitter;
  readonly #context: DecoderContext;
  /** `DecoderContext.rawChunks`, read once: a stream that did not ask pays one test per event. */
  readonly #raw: boolean;

  /**
   * `choices`: those the request asked for (`n`). With 1, the first choice the stream sends is the
   * answer whatever its index, as a whole answer's lone choice is (§4.3): its index and 0 are read
   * swapped. Unset: the answer is the choice of index 0.
   */
  constructor(context: DecoderContext = {}, choices?: number) {
    this.#context = context;
    this.#raw = context.rawChunks === true;
    this.#oneChoice = choices === 1;
    if (context.assemble === false) this.#assembler.keepText = false;
    this.#splitter = new SseDataSplitter(
      (data) => this.#onData(data),
      undefined,
      (data) => this.#onErrorEvent(data),
      context,
    );
  }

  /** Characters of whole SSE events read so far (see `SseDataSplitter.settledChars`). */
  get settledChars(): number {
    return this.#splitter.settledChars;
  }

  /** Characters of `data` fed but in no event yet, that `end` drops (0: none). */
  get heldDataChars(): number {
    return this.#done ? 0 : this.#splitter.heldDataChars;
  }

  /** Data events decoded so far (chunks, error objects; not comments, `[DONE]` or empty ones). */
  get events(): number {
    return this.#events;
  }

  /**
   * Pieces of the answer decoded so far: text, reasoning and tool-call pieces and finish reasons.
   * What the stall clocks count as content: SSE comments, role-only chunks, empty deltas, metadata
   * and usage are not the answer (§4.7).
   */
  get answered(): number {
    return this.#answered;
  }

  /** The answer's `model`: the first non-empty one a chunk carried, once one did. */
  get model(): string | undefined {
    return this.#assembler.model;
  }

  /**
   * `[DONE]` came, or the input ended complete. What still comes after `[DONE]` is decoded (a
   * server may send its usage, or even its finish, after it); its failures are dropped once the
   * answer has its finish.
   */
  get done(): boolean {
    return this.#done;
  }

  /** The choices other than 0 the answer had so far (each has its own `finish`). */
  get otherChoices(): Iterable<number> {
    return this.#otherChoices ?? [];
  }

  /** Some event carried choice 0's finish_reason (the answer is whole). */
  get hasFinish(): boolean {
    return this.#assembler.hasFinish;
  }

  /**
   * Every choice begun has its finish and the usage came: nothing a server still sends after
   * `[DONE]` can add to the answer (what it may add is a usage, asked or not, or a missing
   * finish). The one rule of a read after `[DONE]` (§5.2): it ends here, a body kept open not
   * waited on; else it reads on for a cut request's grace at most.
   */
  get complete(): boolean {
    return this.#assembler.usage !== undefined && this.#allFinished();
  }

  /** Choice 0 and every other choice begun have their finish. */
  #allFinished(): boolean {
    if (!this.#assembler.hasFinish) return false;
    for (const index of this.otherChoices) if (!this.#finished.has(index)) return false;
    return true;
  }

  /** The answer of choice 0 assembled from the events decoded so far. */
  result(): AssembledChat {
    return this.#assembler.result();
  }

  feed(text: string): void {
    if (!this.over) {
      this.#splitter.feed(text);
      return;
    }
    // After `[DONE]` and the finish: read for what it adds (the usage), a failure dropped.
    try {
      this.#splitter.feed(text);
    } catch {}
  }

  /**
   * `[DONE]` and every begun choice's finish came: what follows is read for what it adds, its
   * failures dropped. A choice still being read (`n` > 1) keeps failures reported, as without `[DONE]`.
   */
  get over(): boolean {
    return this.#done && this.#allFinished();
  }

  /** Takes the next decoded event, or undefined when none is pending. */
  take(): ChatStreamEvent | undefined {
    if (this.#head === this.#queue.length) return undefined;
    const event = this.#queue[this.#head++];
    if (this.#head === this.#queue.length) {
      this.#queue.length = 0;
      this.#head = 0;
    }
    return event;
  }

  /** Takes every decoded event not yet taken (in order), or undefined when none is pending. */
  takeAll(): ChatStreamEvent[] | undefined {
    if (this.#head === this.#queue.length) return undefined;
    const events = this.#head === 0 ? this.#queue : this.#queue.slice(this.#head);
    this.#queue = [];
    this.#head = 0;
    return events;
  }

  /**
   * The input ended: checks the answer is complete. An unterminated last event is read when its
   * data is one whole JSON object (openai-node reads it), else dropped (as SSE says): a cut.
   */
  end(): void {
    this.#readTail();
    // A stream cut after its finish_reason lost only `[DONE]` (and maybe usage): the answer is whole.
    const how = this.#done ? 'done' : 'closed';
    const incomplete = this.#assembler.hasFinish ? undefined : this.incomplete(how);
    this.#splitter.end();
    if (incomplete) throw incomplete;
    this.#done = true;
  }

  /** The data of an event no blank line ended, decoded when it is one whole JSON object. */
  #readTail(): void {
    const tail = this.#splitter.heldData();
    if (tail === undefined || tail.trimEnd().slice(-1) !== '}') return;
    try {
      if (!isJsonObject(JSON.parse(tail))) return;
    } catch {
      return;
    }
    const typed = this.#splitter.heldIsError;
    this.#splitter.end();
    if (typed) this.#onErrorEvent(tail);
    else this.#onData(tail);
  }

  /**
   * `stream_incomplete`, saying how the stream ended: `[DONE]` came but no choice had a
   * finish_reason (`done`), the body ended before `[DONE]` (`closed`), or reading it failed (`cut`).
   */
  incomplete(how: 'done' | 'closed' | 'cut', cause?: unknown): GatewayError {
    if (this.#otherChoiceFinished && !this.#choiceZeroSeen) {
      return this.#protocolError(
        'The chat stream answered without choice 0 (only other choices finished)',
        '',
        cause,
      );
    }
    const events = `${this.#events} event(s)`;
    // Data an event not ended by a blank line held is dropped (as SSE says): say so.
    const held = how === 'done' ? 0 : this.heldDataChars;
    const dropped =
      held === 0 ? '' : ` (${held} characters in an event no blank line ended, dropped)`;
    const message =
      how === 'done'
        ? `The chat stream sent [DONE] after ${events} but no choice had a finish_reason`
        : `The connection ${how === 'cut' ? 'failed' : 'closed'} before [DONE] and before any finish_reason, after ${events}${dropped}${
            cause instanceof Error ? `: ${cause.message}` : ''
          }`;
    // (The gateway answered 200: the stream's other failures say so too.)
    return new GatewayError({
      code: 'stream_incomplete',
      message,
      status: 200,
      cause,
      ...this.#context,
    });
  }

  #protocolError(message: string, data: string, cause?: unknown): GatewayError {
    return new GatewayError({
      code: 'provider_protocol_error',
      message,
      status: 200,
      body: clip(data, 2000),
      cause,
      ...this.#context,
    });
  }

  #onData(data: string): void {
    if (!this.over) {
      this.#read(data);
      return;
    }
    try {
      this.#read(data);
    } catch {}
  }

  #read(data: string): void {
    // An empty event (`data:` alone, a keep-alive some servers send) carries nothing: skipped.
    if (data === '') return;
    if (data === '[DONE]') {
      this.#onDone();
      return;
    }
    let chunk: unknown;
    try {
      chunk = JSON.parse(data);
    } catch (cause) {
      // (Read liberally: `[DONE]` with whitespace around it is the end too.)
      const trimmed = data.trim();
      if (trimmed === '[DONE]') {
        this.#onDone();
        return;
      }
      this.#events++;
      if (trimmed === '') return;
      throw this.#protocolError(
        'The chat stream sent an event that is not valid JSON',
        data,
        cause,
      );
    }
    this.#events++;
    if (!isJsonObject(chunk)) {
      throw this.#protocolError('The chat stream sent an event that is not a JSON object', data);
    }
    // `error: null` beside an answer (Foundry Local sends it on every chunk) is no failure.
    if (chunk.error != null) throw this.#streamError(chunk, data);
    if (this.#raw) this.#queue.push({ type: 'raw', chunk });
    this.#onChunk(chunk, data);
  }

  /**
   * `[DONE]`: the stream's end. Without any finish_reason yet it is incomplete unless one still
   * comes before the body ends (`end` decides; the stream reads on for a grace at most).
   */
  #onDone(): void {
    this.#done = true;
  }

  /** An event typed `event: error`: a failure whatever its data (JSON or the server's words). */
  #onErrorEvent(data: string): void {
    let object: unknown;
    try {
      object = JSON.parse(data);
    } catch {
      // Not JSON: the data itself is the server's words.
    }
    if (!this.over) throw this.#streamError(isJsonObject(object) ? object : undefined, data, true);
  }

  /** `typed`: the event was typed `error`, so its own `message` is the server's words too. */
  #streamError(object: Json | undefined, data: string, typed = false): GatewayError {
    const failure = reportedFailure(object, data, typed);
    if (!failure) return this.#protocolError('The chat stream sent a malformed error event', data);
    // Its code and words read from the whole event; its text kept as an error answer's body is
    // (up to `maxErrorBodyBytes`, the cut marked), its parsed data only when kept whole.
    const body = keptErrorBody(data, this.#context.maxErrorBodyBytes ?? DEFAULT_ERROR_BODY_BYTES);
    return new GatewayError({
      ...failure,
      status: 200,
      body,
      data: body === data ? object : undefined,
      ...this.#context,
    });
  }

  #onChunk(chunk: Json, data: string): void {
    const assembler = this.#assembler;
    // The first chunk may be a content filter's `choices: []` with an empty id/model: take each
    // from the first chunk that has a non-empty value, and announce them when they arrive.
    const { id, model, created } = chunk;
    let metadata = false;
    if (assembler.id === undefined && typeof id === 'string' && id !== '') {
      assembler.id = id;
      metadata = true;
    }
    if (assembler.model === undefined && typeof model === 'string' && model !== '') {
      assembler.model = model;
      metadata = true;
    }
    const time = typeof created === 'number' && Number.isFinite(created) && created > 0;
    if (assembler.created === undefined && time) {
      assembler.created = created;
      metadata = true;
    }
    if (metadata) {
      // Read here and on a finish only: no other chunk pays for them.
      this.#readTags(chunk);
      const event: Named = { type: 'metadata' };
      if (assembler.created !== undefined) event.created = assembler.created;
      this.#queue.push(this.#named(event));
    }
    const choices = chunk.choices;
    if (choices !== undefined && choices !== null) {
      if (!Array.isArray(choices)) throw this.#protocolError('`choices` is not an array', data);
      // (Only a chunk of several is looked through; a lone choice is read by `#loneAt`.)
      const indexes = choices.length > 1 ? choiceIndexes(choices) : undefined;
      if (indexes !== undefined) this.#severalSent = true;
      if (this.#answerIndex === undefined && choices.length > 0)
        this.#answerIndex = this.#answerOf(choices, indexes);
      for (let i = 0; i < choices.length; i++) {
        this.#onChoice(choices[i], indexes?.[i] ?? this.#loneAt(choices[i]), data, chunk);
      }
    }
    const usage = chunk.usage;
    if (usage !== undefined && usage !== null) {
      if (typeof usage !== 'object' || Array.isArray(usage)) {
        throw this.#protocolError('`usage` is not an object', data);
      }
      const read = typedUsage(usage as Json);
      assembler.usage = read;
      // The answer's tags go along (a server may send them only with its usage, on a chunk that
      // repeats a finish handed out already): read where a finish does not take them.
      this.#readTags(chunk);
      const event: UsageEvent = { type: 'usage', usage: read, ...this.#tags };
      this.#queue.push(event);
    }
  }

  /**
   * The index of the answer's choice, read from the first chunk with choices: 0, unless one choice
   * was asked and that chunk has none of index 0: then its first choice's (a lone choice of another
   * index is the answer, as in a whole answer). `indexes`: a chunk of several choices' (below).
   */
  #answerOf(choices: unknown[], indexes: number[] | undefined): number {
    if (!this.#oneChoice) return 0;
    let first = 0;
    for (let i = 0; i < choices.length; i++) {
      const choice = choices[i];
      const index = indexes?.[i] ?? indexSent(choice) ?? 0;
      if (index === 0) return 0;
      if (i === 0) first = index;
    }
    return first;
  }

  /**
   * The index a chunk's lone choice is read at: its own, else 0 (its position). One choice asked,
   * once a lone choice came without `index` and while no chunk had several, each lone choice is
   * the answer's whatever it says, as the AI SDK (each chunk's first choice) and ChatOpenAI (every
   * chunk joined) read them: `[{}]` then `[{ index: 1 }]`, or `[{ index: 1 }]`, `[{}]`, then a
   * finish at `index: 0`, is one answer.
   */
  #loneAt(choice: unknown): number {
    const own = indexSent(choice);
    if (!this.#oneChoice || this.#severalSent) return own ?? 0;
    if (own === undefined) this.#indexlessSent = true;
    return this.#indexlessSent ? (this.#answerIndex ?? 0) : (own ?? 0);
  }

  /** The first non-empty `system_fingerprint` and `service_tier` (OpenAI's) of the chunks read. */
  #readTags(chunk: Json): void {
    const { system_fingerprint: fingerprint, service_tier: tier } = chunk;
    const tags = this.#tags;
    if (typeof fingerprint === 'string' && fingerprint) tags.systemFingerprint ??= fingerprint;
    if (typeof tier === 'string' && tier) tags.serviceTier ??= tier;
  }

  /** `event` with the answer's id and model, when known. */
  #named<T extends Named>(event: T): T {
    if (this.#assembler.id !== undefined) event.id = this.#assembler.id;
    if (this.#assembler.model !== undefined) event.model = this.#assembler.model;
    return event;
  }

  /**
   * One choice of a chunk, sent at `sent`: its own index, or choice-position.ts's for it in a chunk
   * of several, or `#loneAt`'s for a lone one.
   */
  #onChoice(choice: unknown, sent: number, data: string, chunk: Json): void {
    if (!isJsonObject(choice)) throw this.#protocolError('A choice is not an object', data);
    const { delta, finish_reason: finishReason } = choice;
    // (One choice asked: the first one sent is the answer, as a whole answer's lone choice is.)
    const answer = this.#answerIndex ?? 0;
    const choiceIndex = sent === answer ? 0 : sent === 0 ? answer : sent;
    // After `[DONE]` a choice begun and unfinished is read whole, as the AI SDK reads it (a short
    // answer is never kept in silence); one finished gets nothing appended, one not begun before
    // it is no answer (§5.2).
    if (this.#done && !this.#begun(choiceIndex)) return;
    if (this.#done && this.#finished.has(choiceIndex)) {
      this.#finishOf(finishReason, choiceIndex, chunk, data);
      return;
    }
    if (choiceIndex === 0) this.#choiceZeroSeen = true;
    else {
      this.#otherChoices ??= new Set();
      this.#otherChoices.add(choiceIndex);
    }
    if (delta !== undefined && delta !== null) {
      if (!isJsonObject(delta)) throw this.#protocolError('`delta` is not an object', data);
      const { role, content, tool_calls: toolCalls, refusal } = delta;
      if (role !== undefined && role !== null && !this.#roleSent) {
        this.#roleSent = true;
        this.#queue.push(this.#named({ type: 'role', role: 'assistant' }));
      }
      // Reasoning comes before the text of the same delta (servers think, then answer).
      const reasoning = readReasoningField(delta);
      if (reasoning !== '') this.#reasoning(reasoning, choiceIndex);
      if (typeof content === 'string') {
        if (content !== '') this.#text(content, choiceIndex);
      } else if (content !== undefined && content !== null) {
        if (!Array.isArray(content)) {
          throw this.#protocolError('`delta.content` is neither a string nor an array', data);
        }
        // Parts in the order sent: a `thinking` part may stand between text parts.
        for (const piece of readMessagePieces({ content })) {
          if (piece.type === 'text') this.#text(piece.text, choiceIndex);
          else this.#reasoning(piece.text, choiceIndex, true);
        }
      }
      if (typeof refusal === 'string' && refusal !== '') this.#refusal(refusal, choiceIndex);
      if (delta.audio != null || delta.images != null) this.#media(delta, choiceIndex);
      if (isJsonObject(delta.function_call) && choiceIndex === 0)
        this.#functionCall(delta.function_call);
      if (toolCalls !== undefined && toolCalls !== null) {
        if (!Array.isArray(toolCalls))
          throw this.#protocolError('`delta.tool_calls` is not an array', data);
        // The answer is choice 0's (§4.3): another choice's calls are not read, only counted as
        // the server's progress (as its text is), or their pieces would join choice 0's calls.
        if (choiceIndex !== 0) this.#answered += toolCalls.length;
        else for (let i = 0; i < toolCalls.length; i++) this.#onToolCall(toolCalls[i], data);
      }
    }
    // (Sent when asked, `logprobs: true`: handed on as the server sent them, when an object.)
    const { logprobs } = choice;
    if (isJsonObject(logprobs)) this.#queue.push({ type: 'logprobs', logprobs, choiceIndex });
    this.#finishOf(finishReason, choiceIndex, chunk, data);
  }

  /** A choice decoded before (`[DONE]` came: see `#onChoice`). */
  #begun(choiceIndex: number): boolean {
    return choiceIndex === 0 ? this.#choiceZeroSeen : this.#otherChoices?.has(choiceIndex) === true;
  }

  /** A choice's `finish_reason` as sent: none yet, or its finish (`#onFinish`). */
  #finishOf(finishReason: unknown, choiceIndex: number, chunk: Json, data: string): void {
    // SGLang and older Ollama send `""` on every chunk before the last: no reason yet, as null.
    if (typeof finishReason === 'string' && finishReason !== '') {
      this.#onFinish(finishReason, choiceIndex, chunk);
    } else if (finishReason !== undefined && finishReason !== null && finishReason !== '') {
      throw this.#protocolError('`finish_reason` is not a string', data);
    }
  }

  /** A choice's `finish_reason`: recorded, and handed out once per choice. */
  #onFinish(finishReason: string, choiceIndex: number, chunk: Json): void {
    if (choiceIndex !== 0) this.#otherChoiceFinished = true;
    // (A server may send them on its last chunk only, where ChatOpenAI reads them.)
    this.#readTags(chunk);
    // A choice's finish repeated (OpenRouter: again on the usage chunk) is handed out once, and
    // its first reason is the one kept (the result says what the finish event said); the chunk's
    // usage is its own event.
    if (this.#finished.has(choiceIndex)) return;
    // (Another choice's refused `stop` is `content_filter` too: choice 0's rule, as a whole answer's.)
    const reason =
      choiceIndex !== 0 && this.#refusedChoices?.has(choiceIndex)
        ? refusedFinishReason(finishReason)
        : this.#assembler.setFinish(finishReason, choiceIndex);
    this.#finished.add(choiceIndex);
    this.#answered++;
    // (A refused `stop` is reported as `content_filter`: the server's word goes along.)
    const sent = reason !== finishReason && { sent: finishReason };
    this.#queue.push({ type: 'finish', reason, choiceIndex, ...this.#tags, ...sent });
  }

  #text(delta: string, choiceIndex: number): void {
    this.#assembler.addText(delta, choiceIndex);
    this.#answered++;
    this.#queue.push({ type: 'text-delta', delta, choiceIndex });
  }

  /** The model declined (OpenAI's `delta.refusal`): its words are the answer's text. */
  #refusal(delta: string, choiceIndex: number): void {
    this.#assembler.addRefusal(delta, choiceIndex);
    if (choiceIndex !== 0) {
      this.#refusedChoices ??= new Set();
      this.#refusedChoices.add(choiceIndex);
    }
    this.#answered++;
    this.#queue.push(markRefusal({ type: 'text-delta', delta, choiceIndex }));
  }

  /** A delta's audio piece and images (generated-media.ts): the answer, as its text is. */
  #media(delta: Json, choiceIndex: number): void {
    const audio = readAudioPiece(delta.audio);
    if (audio !== undefined && Object.keys(audio).length > 0) {
      this.#assembler.addAudio(audio, choiceIndex);
      this.#answered++;
      this.#queue.push({ type: 'audio-delta', choiceIndex, ...audio });
    }
    for (const url of readImageUrls(delta.images)) {
      this.#assembler.addImage(url, choiceIndex);
      this.#answered++;
      this.#queue.push({ type: 'image', url, choiceIndex });
    }
  }

  /** A piece of a legacy `function_call` (OpenAI's `functions` API): handed on, not a tool call. */
  #functionCall(piece: Json): void {
    const { name } = piece;
    this.#answered++;
    this.#queue.push({
      type: 'function-call-delta',
      ...(typeof name === 'string' && name !== '' && { name }),
      argumentsDelta: argumentsText(piece.arguments),
    });
  }

  #reasoning(delta: string, choiceIndex: number, inContent?: true): void {
    this.#assembler.addReasoning(delta, choiceIndex);
    this.#answered++;
    this.#queue.push({
      type: 'reasoning-delta',
      delta,
      choiceIndex,
      ...(inContent && { inContent }),
    });
  }

  /**
   * The index a tool-call piece is joined at: that of the earlier call whose id it carries
   * (`callOfKnownId`), else the one it sent, else (servers that send each whole call without
   * `index`) the next when it starts another call (`startsNextCall`), else the latest.
   */
  #toolCallIndex(
    rawIndex: unknown,
    callId: string | undefined,
    name: string | undefined,
    args: string,
  ): number {
    const sent = typeof rawIndex === 'number';
    const at = sent ? rawIndex : this.#lastToolIndex;
    let index =
      callId === undefined
        ? undefined
        : this.#assembler.callOfKnownId(callId, at, sent, name, args);
    if (index === undefined)
      index =
        !sent && name !== undefined && this.#assembler.startsNextCall(at, callId, name)
          ? this.#maxToolIndex + 1
          : at;
    if (index > this.#maxToolIndex) this.#maxToolIndex = index;
    this.#lastToolIndex = index;
    return index;
  }

  #onToolCall(piece: unknown, data: string): void {
    if (!isJsonObject(piece)) throw this.#protocolError('A tool-call piece is not an object', data);
    const { index: rawIndex, id, function: fn, extra_content: extra } = piece;
    if (rawIndex !== undefined && rawIndex !== null && typeof rawIndex !== 'number')
      throw this.#protocolError('A tool-call piece has an `index` that is not a number', data);
    let name: string | undefined;
    let args = '';
    if (fn !== undefined && fn !== null) {
      if (!isJsonObject(fn))
        throw this.#protocolError('`tool_calls[].function` is not an object', data);
      if (typeof fn.name === 'string' && fn.name !== '') name = fn.name;
      // Arguments sent as JSON rather than its text: read as that text (§5.4).
      args = argumentsText(fn.arguments);
    }
    const callId = typeof id === 'string' && id !== '' ? id : undefined;
    // (A piece whose index and id name two different calls joins neither: its words count as the
    // server's progress, as another choice's do.)
    if (
      typeof rawIndex === 'number' &&
      callId !== undefined &&
      this.#assembler.contradictsIndex(callId, rawIndex, name)
    ) {
      this.#answered++;
      return;
    }
    const index = this.#toolCallIndex(rawIndex, callId, name, args);
    const joined = this.#assembler.addToolCallDelta(index, callId, name, args);
    const event: ChatStreamEvent = {
      type: 'tool-call-delta',
      index,
      call: joined.call,
      argumentsDelta: args,
    };
    // The call's id on its first piece (made up when the server sent none), and on later pieces
    // that repeat it; never another one for the same call.
    if (joined.first || callId === joined.id) event.id = joined.id;
    if (name !== undefined) event.name = name;
    // Gemini's thought signature rides here: reported once per call (a non-object is ignored).
    if (
      extra !== undefined &&
      isJsonObject(extra) &&
      this.#assembler.addToolCallExtra(joined.call, extra)
    ) {
      event.extraContent = extra;
      event.id = joined.id;
    }
    this.#answered++;
    this.#queue.push(event);
  }
}

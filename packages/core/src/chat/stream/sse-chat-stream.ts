// docs/gateway-protocol.md §2.5 (a stream holds its slot until its body ends), §5.2, §5.3, §5.5 (no
// replay after the first bytes), §4.7 (a stream silent between pieces of content is stopped).
import { monotonicNow } from '../../call/monotonic-clock';
import type { SilenceClock } from '../../call/stall-timer';
import { GatewayError, isGatewayError, redactOwnKey } from '../../errors/errors';
import { completeAnswerFailure } from '../../errors/response-headers';
import { BodyReadAhead, cancelUnreachable, READ_SLICE_BYTES } from '../../http/body-read-ahead';
import { CUT_REQUEST_GRACE_MS } from '../../http/slot-source';
import type { OpenResponse } from '../../http/transport';
import { answeredByAnother, answeringModel } from '../../protocol/answering-model';
import type { AssembledChat, ChatStream, ChatStreamEvent } from '../../protocol/chat-result-types';
import type { ChatRoute } from '../../protocol/chat-route';
import { ChatStreamDecoder } from './chat-stream-decoder';

interface ChatStreamMeta {
  requestedModel: string;
  /** `X-Service-Model`, else the model sent (until a chunk names one: `modelInChunks`). */
  servedModel: string;
  /**
   * No `X-Service-Model` named the answering model: the first `model` the chunks carry does
   * (§4.6: the header, else the body's `model`, else the model sent).
   */
  modelInChunks: boolean;
  headers: Headers;
  route: ChatRoute;
  assemble: boolean;
  /** Each event's JSON as a `raw` event too (`ChatStreamOptions.rawChunks`). */
  rawChunks?: boolean;
  /**
   * The choices the request asked for (its `n`; default 1): the last finish is that of every one
   * of them, a choice whose first bytes have not come yet included (`#tookFinish`).
   */
  choices?: number;
  /** Most bytes of an error event's text kept on its error (the client's `maxErrorBodyBytes`). */
  maxErrorBodyBytes?: number;
  /**
   * `chunkTimeoutMs`'s clock: restarted by each piece of content decoded (comments and empty
   * chunks do not count); when it runs out the stream fails with its stall. With it the stream is
   * decoded as it arrives, whether or not anyone reads, so that the clock sees the content.
   */
  silence?: SilenceClock | undefined;
  /** A steered call's: its error, carrying the route (every error of such a call has one). */
  failed?: ((error: GatewayError) => GatewayError) | undefined;
  /**
   * A steered call's: told once the stream's outcome is known — undefined as soon as its answer is
   * whole (read or not), else its error as the call ends (the caller's stop included), and an
   * `aborted` error when it is dropped unread and collected. More calls may follow: the first one
   * counts (`SteeredAnswer.ended`).
   */
  ended?: ((error: GatewayError | undefined) => void) | undefined;
  /**
   * The call's end for its client's count of pending calls (`budget.pendingCalls`): once its body
   * settled (read to its end, failed, cut or cancelled — a dropped stream's by its finalizer), as
   * its slot is released. Safe to call more than once (only the first counts).
   */
  callEnded?: (() => void) | undefined;
  /**
   * A call asking for structured output, or for JSON with no schema: its events as the caller
   * reads them, its end checked (a schema's: the stream assembled, `assemble` true).
   */
  structured?: StructuredStream | undefined;
}

/** What the stream reads its decoded events from. */
export type DecodedEvents = Pick<ChatStreamDecoder, 'take' | 'takeAll'>;

/** A structured stream's events; `failed()` queues the text it still held, for before the error. */
export type MappedEvents = DecodedEvents & { failed(): void };

/** A structured-output stream's hooks (chat/structured-stream.ts, loaded with the steering module). */
export interface StructuredStream {
  /** The decoder's events as the caller gets them. */
  events(decoder: DecodedEvents): MappedEvents;
  /** The assembled answer checked and cleaned; rejects with the typed error when it fails. */
  check(answer: AssembledChat): Promise<AssembledChat>;
}

/**
 * `whole`: the answer is read to its end (its slot back, its body let go) but the caller has not
 * taken its (last) `finish` event yet (`#rest`): an abort or a cancel still ends the call, dropping
 * the rest, as a `fetch` body whose chunks wait unread. `done`: the caller took it, or every event
 * (the call's `done`, ok); the events after it (the usage) are still handed out.
 */
type State = 'open' | 'whole' | 'done' | 'failed';

/** No redaction here: `#own` redacts the whole error, its headers too. */

/**
 * A streamed chat answer read from an SSE body. The body is read ahead into a buffer as fast as
 * the network delivers it, and the slot is released when the body ends, fails or is cancelled —
 * whether or not anyone reads (a `for await` that breaks early cancels it; an unreachable stream
 * object is cancelled by the garbage collector's finalizer).
 */
export class GatewayChatStream implements ChatStream {
  readonly requestedModel: string;
  readonly headers: Headers;
  readonly route: ChatRoute;
  readonly #open: OpenResponse;
  readonly #body: BodyReadAhead;
  readonly #text = new TextDecoder();
  readonly #decoder: ChatStreamDecoder;
  /** The decoded events as the caller gets them (a structured stream's, mapped). */
  readonly #events: DecodedEvents | MappedEvents;
  readonly #structured: StructuredStream | undefined;
  /** A structured stream's end being checked: readers wait on it as on a network read. */
  #checking: Promise<void> | undefined;
  #state: State = 'open';
  #error: GatewayError | undefined;
  #result: AssembledChat | undefined;
  /**
   * The events of a read stream not taken yet, last first (taken by `pop`: linear, each let go
   * as taken); never empty while `whole`.
   */
  #rest: ChatStreamEvent[] = [];
  /** While `whole`: the call ends once `#rest` is this short (its last `finish` taken). */
  #endsAt = 0;
  /** Bytes received so far, and their bound: the answer assembled from them stays bounded too. */
  #received = 0;
  readonly #maxBytes: number;
  /** The network read in progress: every reader waits on this one (one chunk is fed at a time). */
  #pumping: Promise<void> | undefined;
  /** The silence clock between pieces of content (`ChatStreamMeta.silence`). */
  #silence: { start(): void; stop(): void } | undefined;
  /** `ChatStreamMeta.failed`: a steered call's errors carry its route. */
  readonly #routed: ((error: GatewayError) => GatewayError) | undefined;
  /**
   * The models the stream's errors name (the answering one may come with the first chunk): one
   * record, the decoder's context too, so that its errors and the stream's name the same models.
   */
  readonly #decoding: {
    requestedModel: string;
    servedModel: string;
    assemble: boolean;
    rawChunks?: boolean;
    maxErrorBodyBytes?: number;
  };
  /** `ChatStreamMeta.modelInChunks`, until a chunk named the model. */
  #modelInChunks: boolean;
  /** The buffered rest of a body that ended being decoded (`#readRest`). */
  #restRead: Promise<void> | undefined;
  /**
   * The choices whose finish the caller took while the body was still read (`#took`): once it took
   * every choice's (the last finish), its answer is complete for it, so a stop after that no longer
   * fails the call (`#stop`, `#tookFinish`).
   */
  readonly #finishesTaken = new Set<number>();
  /** `ChatStreamMeta.choices`. */
  readonly #choices: number;
  /** A stop's decoding of the bytes it had buffered, the call's end after it (`cancel` waits). */
  #stopping: Promise<void> | undefined;
  /** Stopped after the caller took the finish: the call ends (ok) once the stream is whole. */
  #stoppedAfterFinish = false;
  /**
   * A stop after the caller took the finish of every choice begun, choices asked for (`n`) not
   * begun yet: held while the body is read on (`#readOn`). A server that made fewer (one ignoring
   * `n`) ends the body without another: the call ends ok. A choice that begins, or the grace run
   * out first, ends it with this stop's error.
   */
  #heldStop: { error: GatewayError; reason: unknown } | undefined;
  /**
   * While a stop is held: the call's end (`#end` resolves it). Nothing is handed out meanwhile (a
   * choice may begin, and the stop then ends the call: README), and `cancel` waits for it.
   */
  #heldOver: { ended: Promise<void>; resolve: () => void } | undefined;
  /** The body is read on for the grace (`#readOn`): once per stream. */
  #readsOn = false;
  /** Listens to the caller's signal until the stream ends (`#ended`, holding this object weakly). */
  readonly #onCallerAbort: () => void;
  /** `ChatStreamMeta.ended`. */
  readonly #told: ((error: GatewayError | undefined) => void) | undefined;

  constructor(open: OpenResponse, meta: ChatStreamMeta) {
    this.#open = open;
    this.requestedModel = meta.requestedModel;
    this.headers = meta.headers;
    this.route = meta.route;
    this.#routed = meta.failed;
    this.#told = meta.ended;
    this.#modelInChunks = meta.modelInChunks;
    this.#choices = meta.choices ?? 1;
    const { requestedModel, servedModel, assemble, rawChunks, maxErrorBodyBytes } = meta;
    this.#decoding = { requestedModel, servedModel, assemble, rawChunks, maxErrorBodyBytes };
    this.#decoder = new ChatStreamDecoder(this.#decoding, this.#choices);
    this.#structured = meta.structured;
    this.#events = meta.structured?.events(this.#decoder) ?? this.#decoder;
    const body = open.response.body;
    const reader =
      open.reader ??
      body?.getReader() ??
      new ReadableStream<Uint8Array>({ start: (c) => c.close() }).getReader();
    // On abort or deadline the read-ahead fails, the slot is released and the call ends at once,
    // read or not (`#ended`).
    const limit = open.maxBufferedBytes;
    this.#maxBytes = limit;
    // Nothing handed to the read-ahead or the caller's signal may reference this object: the
    // finalizer needs it unreachable (`ended` holds it weakly).
    const decoding = this.#decoding;
    const ref = weakly(this);
    const ended = GatewayChatStream.#endsWeakly(ref);
    const readRest = GatewayChatStream.#readsRestWeakly(ref);
    this.#body = new BodyReadAhead(
      reader,
      open.chunks,
      open.scope.signal,
      (how) => {
        // Over as its slot is: no longer pending (first: what follows may throw).
        meta.callEnded?.();
        // A body we cut: the gateway counts the request until it sees the close. One lost by
        // itself is no cut: its outcome is what its buffered bytes and its error say.
        open.release(how === 'cut');
        open.scope.dispose();
        // A body in whole is decoded at once, read or not: the stream is whole as soon as its
        // body is, whichever read brought its end (the rule of `State`).
        if (how === 'whole') readRest();
        else ended();
      },
      {
        maxBufferedBytes: limit,
        overflow: () =>
          new GatewayError({
            code: 'response_too_large',
            message: `The stream passed maxResponseBytes (${limit} bytes) unread; it was stopped`,
            requestedModel: decoding.requestedModel,
            servedModel: decoding.servedModel,
          }),
      },
    );
    this.#onCallerAbort = ended;
    this.#watchEnd(open, meta);
    if (meta.silence) this.#watchSilence(meta.silence);
  }

  /**
   * The stream's end, read or not: at the caller's abort (once the body is in, the scope has left
   * the caller's signal: the stream listens itself), and once dropped unread and collected (a
   * `done` event, so that its span ends and a handler's state for it is freed).
   */
  #watchEnd(open: OpenResponse, meta: ChatStreamMeta): void {
    const { events, callerSignal: caller } = open;
    // (Nothing in these closures may reference this object: see `#watchSilence`.)
    const ended = this.#onCallerAbort;
    const told = meta.ended;
    const callEnded = meta.callEnded;
    const models = { requestedModel: meta.requestedModel, servedModel: meta.servedModel };
    caller?.addEventListener('abort', ended, { once: true });
    cancelUnreachable.register(
      this,
      this.#body,
      (caller || events || told || callEnded) &&
        (() => {
          // (The body's cancel above ended it already: only the first call counts.)
          callEnded?.();
          caller?.removeEventListener('abort', ended);
          events?.abandoned();
          // (Told already when its answer was whole: the first call counts.)
          told?.(
            new GatewayError({
              code: 'aborted',
              message: 'The chat stream was dropped unread',
              ...models,
            }),
          );
        }),
    );
    // (Aborted before the read-ahead was made: `ended` had no body to cancel yet.)
    if (open.scope.aborted) this.#ended();
  }

  /**
   * `#ended` of the stream, held weakly where the runtime can (`WeakRef`, else `{ deref }` holding
   * it). Its closure captures the reference only: one capturing the stream would keep it alive.
   */
  static #endsWeakly(ref: { deref(): GatewayChatStream | undefined }): () => void {
    return () => {
      const stream = ref.deref();
      if (stream) stream.#ended();
    };
  }

  /** `#readRest` of the stream, held weakly (see `#endsWeakly`). */
  static #readsRestWeakly(ref: { deref(): GatewayChatStream | undefined }): () => void {
    return () => {
      const stream = ref.deref();
      if (stream) stream.#readRest();
    };
  }

  /**
   * The body ended: its buffered rest is decoded now (no network), so that the stream is whole (or
   * done) whether or not anyone reads, with or without the silence clock — in slices, the event
   * loop given a turn between them (a large body unread must not block it). A stop asked meanwhile
   * wins as before the body's end (`#stop`), unless the caller took the finish.
   */
  #readRest(): void {
    if (this.#state !== 'open' || this.#restRead) return;
    this.#restRead = (async () => {
      await this.#readSliced(this.#opened);
      this.#restRead = undefined;
    })();
  }

  /** Whether the stream is still read (`#readSliced`'s while the body is). */
  readonly #opened = (): boolean => this.#state === 'open';

  /**
   * Decodes the body while `more()` holds, giving the event loop a turn after each
   * `READ_SLICE_BYTES` (each turn costs little: the time stays linear in the body's size).
   */
  async #readSliced(more: () => boolean): Promise<void> {
    let turnAt = this.#received + READ_SLICE_BYTES;
    while (more()) {
      await this.#pump();
      if (this.#received < turnAt) continue;
      await nextTurn();
      turnAt = this.#received + READ_SLICE_BYTES;
    }
  }

  /**
   * The call's scope ended (the caller's abort, the deadline while the body comes) before the
   * caller took the stream's finish (or last event): the call ends now, read or not (its `done`),
   * and what was buffered is dropped — the next read rejects with the scope's error, as a fetch
   * body does once its signal aborted (a body already in whole too).
   */
  #ended(): void {
    const open = this.#open;
    // (`#body` unset: still in the constructor, which checks once it is set. The caller's own
    // signal too: a hedged run's scope left it with its race's once the body was in.)
    if (this.#body === undefined || !(open.scope.aborted || open.callerSignal?.aborted)) return;
    this.#stop(this.#open.scope.error(this.#models()));
  }

  /**
   * The answering model (§4.6): `X-Service-Model`; without it, the first `model` a chunk carried
   * once one was read (a reader sees it by the `metadata` event that announces it), else the model
   * sent.
   */
  get servedModel(): string {
    return this.#decoding.servedModel;
  }

  /** Answered by another model than the one asked (`servedModel`, as known so far). */
  get fallback(): boolean {
    return answeredByAnother(this.requestedModel, this.#decoding.servedModel);
  }

  /** Without `X-Service-Model`: the chunks' `model`, once decoded, names the answering model. */
  #readModel(): void {
    const model = this.#decoder.model;
    if (!this.#modelInChunks || model === undefined) return;
    this.#modelInChunks = false;
    // (A snapshot of the model sent, `m/x-2025-01-01` for `m/x`, is that model: `answeringModel`.)
    const served = answeringModel(undefined, model, this.#decoding.servedModel);
    this.#decoding.servedModel = served;
    this.route.answeredBy = served;
  }

  /**
   * Starts the silence clock. A method of its own: a closure over `this` made in the constructor
   * would share the constructor's context with the read-ahead's callbacks, and through them the
   * finalizer's registry would keep every stream reachable (never collected, never cancelled).
   */
  #watchSilence(silence: SilenceClock): void {
    // A silence after the finish_reason (the usage, or [DONE], late) ends an answer that is
    // whole: it is finished as it is (without the usage), as a read error after it is.
    this.#silence = silence((error) =>
      this.#decoder.hasFinish ? this.#graceOver() : this.#fail(error),
    );
    this.#silence.start();
    void this.#decodeAhead();
  }

  /** Decodes the stream as it arrives (for the silence clock), restarting the clock on content. */
  async #decodeAhead(): Promise<void> {
    while (this.#state === 'open') {
      const answered = this.#decoder.answered;
      await this.#pump();
      // (Not once the read ended the stream: a clock started then would outlive it.)
      if (this.#state === 'open' && this.#decoder.answered !== answered) this.#silence?.start();
    }
  }

  /**
   * Once content was decoded, the attempt that sent the stream succeeded (its `response` event):
   * a failure after it fails the stream, not the attempt; one before it fails both.
   */
  #contentBegan(): void {
    // (Told again with each chunk: a no-op once its `response` was sent.)
    if (this.#decoder.answered > 0) this.#open.events?.answerBegan();
  }

  /** The next event, or undefined at the end; throws the stream's typed error. */
  async next(): Promise<ChatStreamEvent | undefined> {
    for (;;) {
      if (this.#rest.length > 0) return this.#handOut(this.#rest.pop());
      if (this.#held) {
        await this.#heldOver?.ended;
        continue;
      }
      const event = this.#events.take();
      if (event !== undefined) return this.#took(event);
      if (this.#state === 'done') return undefined;
      if (this.#state === 'failed') throw this.#error;
      await this.#pump();
    }
  }

  /**
   * Every event decoded from the next network chunk(s) that gave any, in order; undefined at the
   * end; throws the stream's typed error. One await per chunk instead of one per event.
   */
  async readBatch(): Promise<ChatStreamEvent[] | undefined> {
    for (;;) {
      if (this.#rest.length > 0) {
        const events = this.#rest.reverse();
        this.#rest = [];
        return this.#handOut(events);
      }
      if (this.#held) {
        await this.#heldOver?.ended;
        continue;
      }
      const events = this.#events.takeAll();
      if (events !== undefined) {
        for (const event of events) this.#took(event);
        return events;
      }
      if (this.#state === 'done') return undefined;
      if (this.#state === 'failed') throw this.#error;
      await this.#pump();
    }
  }

  /** A held stop still deciding: what its read on decodes waits for the outcome (`#heldOver`). */
  get #held(): boolean {
    return this.#heldStop !== undefined && this.#state === 'open';
  }

  /**
   * `event` handed to the caller while the body is read: notes the finishes it took. Once it took
   * the last one, the call's scope leaves the caller's signal: an abort then (the caller is done
   * with the answer) must not cut the body the usage is still read from; the stream hears it
   * itself and reads on for the usage as after a stop (`#endAfterFinish`, bounded).
   */
  #took(event: ChatStreamEvent): ChatStreamEvent {
    if (event.type !== 'finish') return event;
    this.#finishesTaken.add(event.choiceIndex ?? 0);
    // (Every choice begun finished for the caller: the stream decides what a stop then means.)
    if (this.#tookBegun) this.#open.scope.leaveCaller();
    return event;
  }

  /**
   * The caller took the finish of choice 0 and of every other choice decoded so far (once each: a
   * finish a server repeats for a choice is no new one to wait for).
   */
  get #tookBegun(): boolean {
    const taken = this.#finishesTaken;
    if (!taken.has(0)) return false;
    for (const index of this.#decoder.otherChoices) if (!taken.has(index)) return false;
    return true;
  }

  /**
   * The caller took the last finish: that of each choice the request asked for (`n`), one whose
   * bytes have not come yet included, and of any other choice decoded so far (README, a stream's
   * end: the last one, with several choices); or it stopped after it did.
   */
  get #tookFinish(): boolean {
    const taken = this.#finishesTaken;
    if (this.#stoppedAfterFinish) return true;
    if (!this.#tookBegun) return false;
    // (Stops at the first choice not finished: bounded by the finishes taken, whatever `n` is.)
    for (let index = 1; index < this.#choices; index++) if (!taken.has(index)) return false;
    return true;
  }

  /**
   * Decodes the next network chunk. Readers that ask while a read is in progress share it, so any
   * number of `next()`, `readBatch()`, `result()` and iterators may wait at once: each is woken
   * when the chunk (or the end, or the error) is in, and chunks are fed to the decoder in order.
   */
  #pump(): Promise<void> {
    this.#pumping ??= this.#checking ?? this.#pumpOnce();
    return this.#pumping;
  }

  async #pumpOnce(): Promise<void> {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await this.#body.read();
    } catch (cause) {
      this.#pumping = undefined;
      this.#readFailed(cause);
      return;
    }
    // What follows is synchronous: the next reader to ask starts the next read.
    this.#pumping = undefined;
    if (this.#state !== 'open') {
      // (Stopped meanwhile: its bytes are still decoded, for the usage only: `#stop`.)
      if (this.#state === 'failed' && !chunk.done) this.#decodeStopped(chunk.value);
      return;
    }
    // (Not while the rest of an ended body is read, its end came first: `#stop` decides; nor once
    // the caller took the finish.)
    if (this.#open.scope.aborted && !this.#restRead && !this.#tookFinish) {
      this.#fail(this.#open.scope.error(this.#models()));
      return;
    }
    try {
      if (chunk.done) {
        this.#decoder.feed(this.#text.decode());
        this.#readModel();
        this.#decoder.end();
        this.#finish();
        return;
      }
      this.#received += chunk.value.byteLength;
      if (this.#received > this.#maxBytes) {
        this.#failRead(
          new GatewayError({
            code: 'response_too_large',
            // (The assembled answer is bounded by the same limit.)
            message: `The stream passed maxResponseBytes (${this.#maxBytes} bytes) in total; it was stopped`,
            ...this.#models(),
          }),
        );
        return;
      }
      this.#decoder.feed(this.#text.decode(chunk.value, { stream: true }));
      this.#contentBegan();
      if (this.#modelInChunks) this.#readModel();
      if (this.#decoder.done) this.#afterDone();
    } catch (error) {
      this.#fromAnswer(error);
      this.#failRead(
        isGatewayError(error)
          ? error
          : new GatewayError({
              code: 'provider_protocol_error',
              message: `The chat stream could not be decoded: ${error instanceof Error ? error.message : String(error)}`,
              cause: error,
              ...this.#models(),
            }),
      );
    }
  }

  /**
   * `[DONE]` came: what still comes before the body ends (a late usage or finish) is read, for a
   * cut request's grace at most (a body kept open after it must not hold the call); at once the
   * end of a stream the caller stopped (it read on for the usage only).
   */
  #afterDone(): void {
    // (Every choice begun has its finish and the usage came: nothing left to wait for.)
    if (this.#stoppedAfterFinish || this.#heldStop || this.#decoder.complete) this.#finish();
    else this.#readOn();
  }

  /** A read of the body failed: the call's end, the body's own error, else a cut answer. */
  #readFailed(cause: unknown): void {
    const scope = this.#open.scope;
    // (Once the caller took the finish, the end that cut the body ends the answer as it is.)
    if (scope.aborted && this.#tookFinish) this.#finish();
    else if (scope.aborted) this.#fail(scope.error(this.#models()));
    else if (isGatewayError(cause)) this.#failRead(cause);
    else if (this.#decoder.hasFinish) this.#finish();
    else {
      // Cut after it began: the answer's own end, with its models and headers.
      const cut = this.#decoder.incomplete('cut', cause);
      this.#fromAnswer(cut);
      this.#failRead(cut);
    }
  }

  /**
   * A failure reading the body: the call's, unless the caller stopped after taking the finish —
   * what is read on then is for the usage only (as a stop before it drops failures,
   * `#decodeStopped`): the answer is finished as it is, ok.
   */
  #failRead(error: GatewayError): void {
    // (So too once `[DONE]` and every begun choice's finish came: what follows could only add the usage.)
    if (this.#stoppedAfterFinish || this.#heldStop || this.#decoder.over) this.#finish();
    else this.#fail(error);
  }

  /**
   * A failure the answer's bytes made (the decoder's, thrown by a feed), completed with what the
   * answer says: the model a chunk before it in the same feed named (§4.6; the feed threw before
   * `#readModel` ran, so the error named the model known until then), and, for one the answer
   * itself reported or made unreadable (a 2xx: an error event, a malformed event), the answer's
   * headers (its `x-request-id`): `completeAnswerFailure`, as a steered stream's start. Redacted
   * with the rest of the error (`#own`).
   */
  #fromAnswer(error: unknown): void {
    const before = this.#decoding.servedModel;
    if (this.#modelInChunks) this.#readModel();
    if (!isGatewayError(error)) return;
    completeAnswerFailure(error, this.headers, { ...this.#models(), servedBefore: before });
  }

  #models(): { requestedModel: string; servedModel: string } {
    const { requestedModel, servedModel } = this.#decoding;
    return { requestedModel, servedModel };
  }

  /**
   * `events` of a read stream: once its last `finish` is out (the answer is complete for the
   * caller; the usage may follow it), the call ends (its `done`, ok).
   */
  #handOut<T>(events: T): T {
    if (this.#state === 'whole' && this.#rest.length <= this.#endsAt) {
      this.#state = 'done';
      this.#end();
    }
    return events;
  }

  /** The stream read to its end; a structured one's answer first checked (`checked`: it passed). */
  #finish(checked?: AssembledChat): void {
    if (this.#state !== 'open') return;
    const held = this.#heldStop;
    // (A choice began after a held stop: the stop ends the call, as before its finish.)
    if (held && !this.#tookBegun) {
      this.#stopNow(held.error, held.reason);
      return;
    }
    if (this.#structured && !checked) {
      // Complete at the gateway: its slot back (not cut) while the answer is checked; ended
      // before its [DONE] (a silence or a stop after the finish), a cut (`#close`).
      this.#silence?.stop();
      this.#open.release(!this.#decoder.done);
      this.#checking ??= this.#structured.check(this.#decoder.result()).then(
        (answer) => this.#finish(answer),
        (error: GatewayError) => this.#fail(error),
      );
      return;
    }
    this.#state = 'whole';
    // The answer is whole: the model's outcome, whether or not the caller reads the rest.
    this.#told?.(undefined);
    this.#result = checked ?? this.#decoder.result();
    const rest = this.#events.takeAll()?.reverse() ?? [];
    this.#rest = rest;
    // (The caller stopped after taking its last finish: the call ends now.)
    this.#endsAt = this.#stoppedAfterFinish || held ? rest.length : this.#lastFinishIn(rest);
    this.#close();
    this.#handOut(0);
  }

  /**
   * Where in `rest` (last first) the caller takes the last finish it has not taken: one of each
   * choice with a finish there whose finish it did not take yet (a finish repeated for a choice
   * already taken is no new one); `rest.length` when none is left: the call ends now.
   */
  #lastFinishIn(rest: ChatStreamEvent[]): number {
    const waiting = new Set<number>();
    for (const event of rest) {
      const index = event.type === 'finish' ? (event.choiceIndex ?? 0) : -1;
      if (index >= 0 && !this.#finishesTaken.has(index)) waiting.add(index);
    }
    let at = rest.length;
    while (waiting.size > 0) {
      const event = rest[--at]!;
      if (event.type === 'finish') waiting.delete(event.choiceIndex ?? 0);
    }
    return at;
  }

  #fail(error: GatewayError): void {
    if (this.#state !== 'open') return;
    if ('failed' in this.#events) this.#events.failed();
    this.#state = 'failed';
    // (After a held stop, the caller stopped first: its stop is the call's end.)
    this.#error = this.#own(this.#heldStop?.error ?? error);
    this.#close();
  }

  /**
   * The stream's error as its caller gets it: with a steered call's route, and redacted of its
   * client's key here (a stream's errors reach the caller after the call returned).
   */
  #own(error: GatewayError): GatewayError {
    return redactOwnKey(this.#routed ? this.#routed(error) : error, this.#open.owner);
  }

  /**
   * The stream is read (or failed): its slot, body and deadline let go; its call ends unless
   * `whole`. `began`: content decoded since began the answer (not for a stopped stream's drain).
   */
  #close(reason?: unknown, began = true): void {
    this.#silence?.stop();
    if (began) this.#contentBegan();
    // Released before the body is cancelled: a stream that reached [DONE] is complete at the
    // gateway, not cut, though its body has not ended yet; one finished before its [DONE] (a
    // silence, or a stop after the finish, its tail still coming) is cut: the gateway counts it
    // until it sees the close. (A body that ended was released by the read-ahead: this is then a
    // no-op; a slot is released once: a `whole` stream stopped later releases nothing.)
    this.#open.release(this.#state === 'failed' || !this.#decoder.done);
    this.#body.cancel(reason);
    this.#open.scope.dispose();
    if (this.#state !== 'whole') this.#end();
  }

  /** The call's end as its caller sees it: its `done` event; the caller's signal left. */
  #end(): void {
    this.#told?.(this.#error);
    this.#open.callerSignal?.removeEventListener('abort', this.#onCallerAbort);
    this.#open.events?.streamEnded(this.#error, this.#result);
    this.#heldOver?.resolve();
  }

  async result(): Promise<AssembledChat> {
    while ((await this.next()) !== undefined) {
      // Drain: the events are assembled as they are decoded.
    }
    return this.#result!;
  }

  async cancel(reason?: unknown): Promise<void> {
    this.#stop(
      new GatewayError({
        code: 'aborted',
        message: 'The chat stream was cancelled',
        cause: reason,
        ...this.#models(),
      }),
      reason,
    );
    // (Resolved once the call ended: its buffered bytes decoded, its `done` told — a held stop's
    // too, once its read on decided, within the grace. After the last finish the call ends ok on
    // its own: the usage read on for the grace is not waited for.)
    await this.#stopping;
  }

  /**
   * Fails the stream dropping its pending events: a cancelled or aborted stream yields nothing more.
   * A no-op once the call ended for its caller: it failed, or the caller took its finish (or its
   * last event). The bytes already read are still decoded, for the `done` event's usage only (its
   * tokens were spent): the call ends once they are.
   */
  #stop(error: GatewayError, reason?: unknown): void {
    if (this.#state === 'done' || this.#state === 'failed') return;
    // (`whole` with its last finish taken: only while `#finish` lets the body go, its cancel heard
    // here, the caller's signal aborted; the call is ending ok.)
    if (this.#tookFinish) {
      if (this.#state === 'open') this.#endAfterFinish();
      return;
    }
    // (A stop held already decides; `whole` after one: `#finish` lets the body go, ending ok.)
    if (this.#heldStop) return;
    // (Only choices asked for and not begun are missing: a server may have made fewer.)
    if (this.#state === 'open' && this.#tookBegun) {
      this.#heldStop = { error, reason };
      let resolve = () => {};
      const ended = new Promise<void>((done) => {
        resolve = done;
      });
      this.#heldOver = { ended, resolve };
      this.#stopping = ended;
      this.#readOn();
      return;
    }
    this.#stopNow(error, reason);
  }

  /** `#stop`'s end of the call: its pending events dropped, the buffered bytes decoded (usage). */
  #stopNow(error: GatewayError, reason: unknown): void {
    this.#state = 'failed';
    this.#error = this.#own(error);
    this.#silence?.stop();
    this.#events.takeAll();
    this.#rest = [];
    // (A cancel's scope is aborted here, so is the request; an ended scope's was already. Its
    // read-ahead settles at once: the slot is back now.)
    if (!this.#open.scope.aborted) this.#open.scope.abort(reason);
    // (Content decoded by then began the answer: its attempt succeeded. What is drained is not
    // the caller's: it changes nothing of the attempt's outcome.)
    this.#contentBegan();
    const end = () => {
      // (Its answer so far, for the usage only: `result()` rejects with the stop.)
      this.#result ??= this.#decoder.result();
      this.#close(reason, false);
    };
    // (Not while a structured answer is checked: its body was decoded to its end already.)
    if (this.#body.buffered && !this.#checking) {
      this.#stopping = this.#readSliced(() => this.#body.buffered).then(end);
    } else end();
  }

  /** Bytes of a stopped stream, decoded for the usage only: their events and failures dropped. */
  #decodeStopped(bytes: Uint8Array): void {
    this.#received += bytes.byteLength;
    try {
      this.#decoder.feed(this.#text.decode(bytes, { stream: true }));
    } catch {}
    this.#events.takeAll();
  }

  /**
   * A stop after the caller took the last finish, the body still read: the answer is complete
   * for the caller, the call ends ok. What follows on the wire (the usage) is read on for a cut
   * request's grace (`CUT_REQUEST_GRACE_MS`) at most: the answer is then finished as it is.
   */
  #endAfterFinish(): void {
    if (this.#stoppedAfterFinish) return;
    this.#stoppedAfterFinish = true;
    this.#readOn();
  }

  /**
   * Reads the body on after a stop or `[DONE]`, for the grace at most (a held stop: until a choice
   * begins); what is left of it when `[DONE]` came before content: its read then began the grace
   * (`OpenResponse.graceEndsAt`). (A body that ended is being decoded: `#readRest` ends the call.)
   */
  #readOn(): void {
    if (this.#restRead || this.#readsOn) return;
    this.#readsOn = true;
    const endsAt = this.#open.graceEndsAt;
    const ms = endsAt === undefined ? CUT_REQUEST_GRACE_MS : endsAt - monotonicNow();
    const grace = setTimeout(() => this.#graceOver(), Math.max(0, ms));
    (grace as { unref?: () => void }).unref?.();
    void this.#readSliced(this.#readingOn).then(() => {
      clearTimeout(grace);
      // (A choice began: the held stop ends the call now.)
      if (this.#state === 'open') this.#graceOver();
    });
  }

  /** Still read on after a stop: open, and no choice began since a held one. */
  readonly #readingOn = (): boolean =>
    this.#state === 'open' && (this.#heldStop === undefined || this.#tookBegun);

  /**
   * The read on after a stop, after `[DONE]` (or a silence after the finish) ends with the body not
   * whole: `[DONE]` without any finish_reason is `stream_incomplete`.
   */
  #graceOver(): void {
    if (this.#state !== 'open') return;
    const held = this.#heldStop;
    if (held) this.#stopNow(held.error, held.reason);
    else if (this.#decoder.hasFinish) this.#finish();
    else {
      const incomplete = this.#decoder.incomplete('done');
      this.#fromAnswer(incomplete);
      this.#fail(incomplete);
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<ChatStreamEvent> {
    return {
      next: () => this.next().then(iteratorResult),
      return: async () => {
        const cancelled = this.cancel();
        // (A `break` does not wait for a held stop's outcome, up to the grace: the stream reads on
        // and ends the call by itself. `await cancel()` does.)
        if (!this.#held) await cancelled;
        return { done: true, value: undefined };
      },
    };
  }
}

function iteratorResult(event: ChatStreamEvent | undefined): IteratorResult<ChatStreamEvent> {
  return event === undefined ? { done: true, value: undefined } : { done: false, value: event };
}

/** A turn of the event loop (a macrotask: timers, I/O and other callers run before it ends). */
function nextTurn(): Promise<void> {
  return new Promise((resolve) =>
    typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0),
  );
}

/** A weak reference to `target` where the runtime has them; else one holding it. */
function weakly<T extends object>(target: T): { deref(): T | undefined } {
  return typeof WeakRef === 'function' ? new WeakRef(target) : { deref: () => target };
}

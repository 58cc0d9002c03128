// docs/gateway-protocol.md §5 (streaming: events, completeness §5.2, failures after the 200 §5.3), §4.4 (tool calls).
import type {
  LanguageModelV4FinishReason,
  LanguageModelV4StreamPart,
  SharedV4ProviderMetadata,
  SharedV4Warning,
} from '@ai-sdk/provider';
import { generateId } from '@ai-sdk/provider-utils';
import {
  type AssembledChat,
  type ChatStream,
  type ChatStreamEvent,
  type FailedChatRoute,
  GatewayError,
  isGatewayError,
  type Usage,
} from '@infergate/core';
import { convertGatewayUsage } from './convert-gateway-usage';
import { audioFilePart, imageFilePart, imageLink } from './generated-files';
import { mapGatewayFinishReason } from './map-gateway-finish-reason';
import { toolCallInput } from './tool-call-input';
import { toolCallMetadata } from './tool-call-metadata';

/**
 * What the conversion reads of core's `ChatStream`; `result()` once the events have ended, for the
 * answer's finish reason as core reports it.
 */
type ChatEventSource = Pick<ChatStream, 'readBatch' | 'cancel' | 'servedModel'> &
  Partial<Pick<ChatStream, 'result'>>;

interface StreamConversionOptions {
  warnings: SharedV4Warning[];
  /**
   * Emit core's `raw` events (each SSE chunk's JSON, kept when the call asked with `rawChunks`)
   * as `raw` parts.
   */
  includeRawChunks?: boolean;
  /** Maps a failure of the gateway stream to the error put into the `error` part. */
  mapError: (error: unknown) => unknown;
  /** `providerMetadata` for the `finish` part, given the usage seen (none: no model answered). */
  providerMetadata?: (
    usage: Usage | undefined,
    imageLinks: readonly string[],
  ) => SharedV4ProviderMetadata;
  /**
   * A steered call's route as it stands at the end: the `finish` part's usage then counts every
   * hop's (core's `callUsage`), the answer's own staying in `providerMetadata`.
   */
  route?: () => FailedChatRoute | undefined;
  /**
   * A stream handed on at its headers (opened-at-headers.ts): its first part waits for this, and
   * core's failure it gives is written as `refusedAnswerStream` writes one.
   */
  opened?: Promise<{ error: unknown } | undefined>;
}

/**
 * Turns a gateway chat stream (core's typed events) into V4 stream parts:
 * `stream-start`, `response-metadata` (the answering model as core knows it at the start: the
 * header's, else the model sent; then id, timestamp and the answering model again — without the
 * header, the chunks' `model` — from whichever chunk carries them), reasoning blocks (closed where text or a tool input
 * begins), text blocks, tool
 * input pieces, then — only once the stream has ended cleanly — each complete `tool-call` and
 * `finish`. A failure, a malformed event or a stream without `finish_reason` yields an `error`
 * part and finish reason `error`, never a short success. Aborts error the stream instead, which
 * is how `ai` recognises them.
 */
export function convertGatewayChatStream(
  stream: ChatEventSource,
  options: StreamConversionOptions,
): ReadableStream<LanguageModelV4StreamPart> {
  const parts = new GatewayStreamParts(stream, options);
  let started = false;
  let settled = false;

  return new ReadableStream<LanguageModelV4StreamPart>({
    // One pull awaits one batch of gateway events (one network chunk) and enqueues all their
    // parts synchronously, straight into the controller: one promise hop per chunk, and no
    // function or object per chunk beyond the parts themselves.
    async pull(controller) {
      try {
        if (!started) {
          started = true;
          const failed = options.opened && (await options.opened);
          if (failed) {
            settled = true;
            writeRefused(failed.error, options, controller);
            controller.close();
            return;
          }
          parts.start(controller);
        }
        // A batch may give no part (e.g. only usage): read on, since a pull that enqueues
        // nothing is not called again.
        const before = parts.enqueued;
        while (!settled && parts.enqueued === before) {
          let events: ChatStreamEvent[] | undefined;
          try {
            events = await stream.readBatch();
            if (settled) return;
            if (events !== undefined) for (const event of events) parts.event(event, controller);
            else parts.answered(await answerOf(stream));
            if (settled) return;
          } catch (error) {
            if (settled) return;
            settled = true;
            await stream.cancel().catch(() => {});
            parts.failed(error, controller);
            controller.close();
            return;
          }
          if (events === undefined) {
            settled = true;
            parts.end(controller);
            controller.close();
          }
        }
      } catch (error) {
        settled = true;
        controller.error(error);
      }
    },
    async cancel(reason) {
      settled = true;
      await stream.cancel(reason).catch(() => {});
    },
  });
}

/**
 * The stream of a call whose answer core's structured-output check refused before any of it was
 * passed on (its text held, as for prose around JSON): `stream-start`, then what a stream that
 * fails writes (`GatewayStreamParts.failed`: the `error` part, the refusal mapped by `mapError`,
 * then `finish` with reason `error` and the refused answer's usage) — as a provider reports an
 * error inside its stream, so `streamText` still reports the usage and runs `onFinish`. No model
 * answered: no `response-metadata`, and no `providerMetadata` on `finish`.
 */
export function refusedAnswerStream(
  refusal: GatewayError,
  options: Pick<StreamConversionOptions, 'warnings' | 'mapError'>,
): ReadableStream<LanguageModelV4StreamPart> {
  return new ReadableStream<LanguageModelV4StreamPart>({
    start(controller) {
      writeRefused(refusal, options, controller);
      controller.close();
    },
  });
}

/**
 * `stream-start`, then the failure of a call no model answered (`GatewayStreamParts.failed`; an
 * abort is thrown). Nothing was read: the source is never asked for a batch nor for the answering
 * model. Its usage is the call's: the refused answers' of the route (the last one's counted once).
 */
function writeRefused(
  refusal: unknown,
  options: Pick<StreamConversionOptions, 'warnings' | 'mapError'>,
  out: PartSink,
): void {
  const { warnings, mapError } = options;
  const route = () => (isGatewayError(refusal) ? refusal.route : undefined);
  const parts = new GatewayStreamParts(NO_SOURCE, { warnings, mapError, route });
  out.enqueue({ type: 'stream-start', warnings });
  parts.failed(refusal, out);
}

/** The source of a stream that failed before its response: nothing to read. */
const NO_SOURCE: ChatEventSource = {
  readBatch: async () => undefined,
  cancel: async () => {},
  servedModel: '',
};

interface ToolCallInProgress {
  id: string;
  name: string | undefined;
  started: boolean;
  arguments: string;
  /** The call's `extra_content` (Gemini's thought signature), from the piece that carried it. */
  extraContent?: Record<string, unknown>;
}

/** Where the parts go: the stream's controller (counted by `GatewayStreamParts.enqueued`). */
interface PartSink {
  enqueue(part: LanguageModelV4StreamPart): void;
}

/**
 * The conversion's state: gateway events in, V4 parts out into a sink, synchronously.
 * `start`, then `event` for each gateway event, then `end` (clean end) or `failed` (stream error).
 * A text delta inside an open text block (nearly every event of a stream) gives its one part
 * without any other check.
 */
class GatewayStreamParts {
  readonly #stream: ChatEventSource;
  readonly #options: StreamConversionOptions;
  /** Parts put out so far (a pull reads on until its batch gave one). */
  enqueued = 0;
  /** Id of the open text block, if any; blocks are numbered `text-0`, `text-1`, … */
  #textId: string | undefined;
  #textBlocks = 0;
  /** Id of the open reasoning block, if any (`reasoning-0`, …). */
  #reasoningId: string | undefined;
  #reasoningBlocks = 0;
  readonly #toolCalls = new Map<number, ToolCallInProgress>();
  #rawFinishReason: string | undefined;
  /** The server's word when core reports another (a refused `stop`: `content_filter`). */
  #sentFinishReason: string | undefined;
  #usage: Usage | undefined;
  /** Choice 0's audio pieces (one `file` part at the end: a V4 file is whole). */
  #audio: { id?: string; data: string[]; transcript: string[]; expiresAt?: number } | undefined;
  /** Images given as links: the finish's `providerMetadata.infergate.images`. */
  readonly #imageLinks: string[] = [];

  constructor(stream: ChatEventSource, options: StreamConversionOptions) {
    this.#stream = stream;
    this.#options = options;
  }

  #put(out: PartSink, part: LanguageModelV4StreamPart): void {
    this.enqueued++;
    out.enqueue(part);
  }

  start(out: PartSink): void {
    this.#put(out, { type: 'stream-start', warnings: this.#options.warnings });
    this.#put(out, { type: 'response-metadata', modelId: this.#stream.servedModel });
  }

  event(event: ChatStreamEvent, out: PartSink): void {
    switch (event.type) {
      case 'raw':
        if (this.#options.includeRawChunks) this.#put(out, { type: 'raw', rawValue: event.chunk });
        break;

      case 'metadata':
        // Core announces id/model/created from whichever chunk first carries them.
        this.#put(out, {
          type: 'response-metadata',
          ...(event.id !== undefined ? { id: event.id } : {}),
          modelId: this.#stream.servedModel,
          ...(event.created !== undefined ? { timestamp: new Date(event.created * 1000) } : {}),
        });
        break;

      case 'reasoning-delta':
        if (event.choiceIndex !== 0 || event.delta.length === 0) break;
        this.#endText(out);
        if (this.#reasoningId === undefined) {
          this.#reasoningId = `reasoning-${this.#reasoningBlocks++}`;
          this.#put(out, { type: 'reasoning-start', id: this.#reasoningId });
        }
        this.#put(out, { type: 'reasoning-delta', id: this.#reasoningId, delta: event.delta });
        break;

      case 'text-delta':
        // Only the first choice is an AI SDK answer; the adapter never asks for more.
        if (event.choiceIndex !== 0 || event.delta.length === 0) break;
        this.#text(event.delta, out);
        break;

      case 'tool-call-delta':
        this.#endReasoning(out);
        this.#toolCallDelta(event, out);
        break;

      case 'finish':
        if (event.choiceIndex === 0) {
          this.#rawFinishReason = event.reason;
          this.#sentFinishReason = event.sent;
        }
        break;

      case 'usage':
        this.#usage = event.usage;
        break;

      case 'image':
      case 'audio-delta':
        this.#media(event, out);
        break;
    }
  }

  /** A generated image: its `file` part at once; an audio piece: kept for `#endAudio`. */
  #media(event: Extract<ChatStreamEvent, { type: 'image' | 'audio-delta' }>, out: PartSink): void {
    if (event.choiceIndex !== 0) return;
    if (event.type === 'image') {
      const part = imageFilePart(event.url);
      if (part !== undefined) this.#put(out, part);
      const link = part === undefined ? imageLink(event.url) : undefined;
      if (link !== undefined) this.#imageLinks.push(link);
      return;
    }
    this.#audio ??= { data: [], transcript: [] };
    const audio = this.#audio;
    if (event.id !== undefined) audio.id = event.id;
    if (event.data !== undefined) audio.data.push(event.data);
    if (event.transcript !== undefined) audio.transcript.push(event.transcript);
    if (event.expiresAt !== undefined) audio.expiresAt = event.expiresAt;
  }

  /** The audio the model spoke, joined, as one `file` part (generated-files.ts). */
  #endAudio(out: PartSink): void {
    const audio = this.#audio;
    if (audio === undefined || audio.data.length === 0) return;
    const { id, expiresAt } = audio;
    const joined = { data: audio.data.join(''), transcript: audio.transcript.join('') };
    this.#put(
      out,
      audioFilePart({
        ...joined,
        ...(id !== undefined && { id }),
        ...(expiresAt !== undefined && { expiresAt }),
      }),
    );
  }

  /**
   * The events have ended: choice 0's finish is the answer's as core's `result()` reports it (one
   * rule, core's), which may differ from its `finish` event (a refusal sent after the finish chunk).
   */
  answered(answer: AssembledChat | undefined): void {
    if (answer?.finishReason == null || this.#rawFinishReason === undefined) return;
    this.#rawFinishReason = answer.finishReason;
    this.#sentFinishReason = answer.sentFinishReason;
  }

  /**
   * The gateway stream failed: an `error` part and finish reason `error` (with the usage of an
   * answer refused by core's structured-output check: its tokens were spent); aborts are rethrown.
   */
  failed(error: unknown, out: PartSink): void {
    const mapped = this.#options.mapError(error);
    // (An abort maps to the caller's reason, whatever it is.)
    if (isAbortError(mapped) || (isGatewayError(error) && error.code === 'aborted')) throw mapped;
    this.#endReasoning(out);
    this.#endText(out);
    // A failed stream still closes every tool input it opened (no `tool-call` follows).
    for (const call of this.#callsInOrder()) {
      if (call.started) this.#put(out, { type: 'tool-input-end', id: call.id });
    }
    this.#put(out, { type: 'error', error: mapped });
    if (this.#usage === undefined && isGatewayError(error)) this.#usage = error.usage;
    this.#finish({ unified: 'error', raw: undefined }, out);
  }

  /** The gateway stream ended cleanly: complete tool calls, then `finish`. */
  end(out: PartSink): void {
    const rawFinishReason = this.#rawFinishReason;
    // Core already fails a stream that ends without a finish_reason (stream_incomplete); it does
    // not check tool call names, so an unnamed call is refused here.
    const unnamed = [...this.#toolCalls.values()].find((call) => call.name === undefined);
    if (rawFinishReason === undefined || unnamed !== undefined) {
      this.failed(
        rawFinishReason === undefined
          ? new GatewayError({
              code: 'stream_incomplete',
              message:
                'The gateway stream ended without a finish_reason: the answer is incomplete.',
            })
          : new GatewayError({
              code: 'invalid_response',
              message: `The gateway stream sent a tool call (${unnamed?.id}) without a function name.`,
            }),
        out,
      );
      return;
    }
    this.#endReasoning(out);
    this.#endText(out);
    this.#endAudio(out);
    for (const call of this.#callsInOrder()) {
      this.#put(out, { type: 'tool-input-end', id: call.id });
      this.#put(out, {
        type: 'tool-call',
        toolCallId: call.id,
        toolName: call.name as string,
        input: toolCallInput(call.arguments),
        ...toolCallMetadata(call.extraContent),
      });
    }
    this.#finish(mapGatewayFinishReason(rawFinishReason, this.#sentFinishReason), out);
  }

  #finish(finishReason: LanguageModelV4FinishReason, out: PartSink): void {
    const { providerMetadata } = this.#options;
    this.#put(out, {
      type: 'finish',
      finishReason,
      usage: convertGatewayUsage(this.#usage, this.#options.route?.()),
      ...(providerMetadata
        ? { providerMetadata: providerMetadata(this.#usage, this.#imageLinks) }
        : {}),
    });
  }

  #text(delta: string, out: PartSink): void {
    // An open text block means no open reasoning block (each ends the other).
    if (this.#textId === undefined) {
      this.#endReasoning(out);
      this.#textId = `text-${this.#textBlocks++}`;
      this.#put(out, { type: 'text-start', id: this.#textId });
    }
    this.#put(out, { type: 'text-delta', id: this.#textId, delta });
  }

  #endText(out: PartSink): void {
    if (this.#textId === undefined) return;
    this.#put(out, { type: 'text-end', id: this.#textId });
    this.#textId = undefined;
  }

  /** Reasoning ends where the text or a tool input begins (it may resume later as a new block). */
  #endReasoning(out: PartSink): void {
    if (this.#reasoningId === undefined) return;
    this.#put(out, { type: 'reasoning-end', id: this.#reasoningId });
    this.#reasoningId = undefined;
  }

  #callsInOrder(): ToolCallInProgress[] {
    return [...this.#toolCalls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
  }

  #toolCallDelta(
    event: Extract<ChatStreamEvent, { type: 'tool-call-delta' }>,
    out: PartSink,
  ): void {
    // Core says which call a piece belongs to (a reused index with a new id is a new call).
    let call = this.#toolCalls.get(event.call);
    if (call === undefined) {
      call = { id: event.id ?? generateId(), name: event.name, started: false, arguments: '' };
      this.#toolCalls.set(event.call, call);
    } else if (call.name === undefined && event.name !== undefined) {
      call.name = event.name;
    }
    // Core reports a call's extra content once, on whichever piece carried it.
    if (event.extraContent) call.extraContent = event.extraContent;

    call.arguments += event.argumentsDelta;

    if (!call.started && call.name !== undefined) {
      call.started = true;
      this.#put(out, { type: 'tool-input-start', id: call.id, toolName: call.name });
      // Pieces that arrived before the name are sent now, in order.
      if (call.arguments.length > 0) {
        this.#put(out, { type: 'tool-input-delta', id: call.id, delta: call.arguments });
      }
    } else if (call.started && event.argumentsDelta.length > 0) {
      this.#put(out, { type: 'tool-input-delta', id: call.id, delta: event.argumentsDelta });
    }
  }
}

/**
 * The ended stream's answer as core assembled it (nothing left to read): its finish reason is the
 * one a whole answer reports (a refusal after the finish chunk makes a `stop` `content_filter`).
 */
async function answerOf(stream: ChatEventSource): Promise<AssembledChat | undefined> {
  return stream.result?.().catch(() => undefined);
}

function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

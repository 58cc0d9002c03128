// docs/gateway-protocol.md §5.1 (stream events as LangChain chunks).
import type {
  AssembledImage,
  ChatStream,
  ChatStreamEvent,
  StructuredResult,
  UncheckedStructured,
  Usage,
} from '@infergate/core';
import type { FunctionCall, OpenAIToolCall } from '@langchain/core/messages';
import { ChatGenerationChunk } from '@langchain/core/outputs';
import { throwIfAborted } from '../utils/errors';
import { EXTRA_CONTENT_KWARG, structuredKwargs } from './convert-chat-result';
import { GatewayMessageChunk } from './gateway-message-chunk';
import { audioPieceKwarg, IMAGES_KWARG, imageBlocks } from './generated-media';
import { StreamedPieces } from './interleaved-content';
import { spentUsage } from './map-usage';
import {
  CHUNK_BLOCKS,
  MODEL_PROVIDER,
  registerContentBlockTranslator,
} from './reasoning-content-blocks';
import { buildResponseMetadata, streamedFinishInfo } from './response-metadata';

registerContentBlockTranslator();

/** What the converter reads of core's chat stream: who answered, and the events in batches. */
type EventSource = Pick<
  ChatStream,
  'requestedModel' | 'servedModel' | 'fallback' | 'route' | 'readBatch' | 'cancel'
> &
  Partial<Pick<ChatStream, 'result'>>;

type StreamIdentity = Pick<ChatStream, 'requestedModel' | 'servedModel' | 'fallback' | 'route'>;

/**
 * Gateway stream events → LangChain generation chunks. Text and tool-call pieces become chunks as
 * they arrive; usage and response metadata are held back for one final chunk, because LangChain
 * adds up usage (and concatenates strings) when chunks are concatenated.
 */
class StreamChunkConverter {
  private id: string | undefined;
  private finishReason: string | undefined;
  private usage: Usage | undefined;
  /** The model server's tags as core's finish event reports them (`system_fingerprint`, …). */
  private tags: Record<string, unknown> | undefined;
  /** The `model` the chunks named (`response_metadata.model`). */
  private model: string | undefined;
  /** Choice 0's reasoning and text pieces, for their order (`StreamedPieces`). */
  private readonly pieces = new StreamedPieces();
  /** Choice 0's generated images, held for the last chunk (`finish`). */
  private images: AssembledImage[] | undefined;
  /** An audio piece's `expires_at` went out (LangChain adds numbers up on concat). */
  private expirySent = false;

  constructor(private readonly identity: StreamIdentity) {}

  /** The chunk for one event, or undefined for events that only carry state. */
  convert(event: ChatStreamEvent): ChatGenerationChunk | undefined {
    switch (event.type) {
      case 'role':
      case 'metadata':
        // Whichever chunk first carries the id (role chunk or not); the model as the chunks name it.
        if (event.id) this.id = event.id;
        if (event.model) this.model = event.model;
        return undefined;
      case 'reasoning-delta':
        if (event.choiceIndex !== 0 || event.delta === '') return undefined;
        // Chunks concatenate additional_kwargs strings, so the whole reasoning adds up.
        return this.chunk(
          new GatewayMessageChunk({
            content: '',
            ...this.idField(),
            additional_kwargs: {
              reasoning_content: event.delta,
              ...this.pieces.add('reasoning', event.delta, event.inContent),
            },
          }),
          '',
          this.pieces.block,
        );
      case 'text-delta':
        if (event.choiceIndex !== 0 || event.delta === '') return undefined;
        return this.chunk(
          new GatewayMessageChunk({
            content: event.delta,
            ...this.idField(),
            ...orderedKwargs(this.pieces.add('text', event.delta)),
          }),
          event.delta,
          this.pieces.block,
        );
      case 'tool-call-delta':
        return this.toolCallChunk(event);
      case 'finish':
        if (event.choiceIndex === 0) {
          this.finishReason = event.reason;
          this.tags = {
            system_fingerprint: event.systemFingerprint,
            service_tier: event.serviceTier,
          };
        }
        return undefined;
      case 'usage':
        this.usage = event.usage;
        // (A server may name them only on its repeated finish chunk, with the usage.)
        if (event.systemFingerprint || event.serviceTier) {
          this.tags = {
            system_fingerprint: event.systemFingerprint ?? this.tags?.system_fingerprint,
            service_tier: event.serviceTier ?? this.tags?.service_tier,
          };
        }
        return undefined;
      case 'logprobs':
        return this.logprobsChunk(event);
      case 'audio-delta':
        return this.audioChunk(event);
      case 'image':
        // Held for the last chunk's `additional_kwargs.images` (`finish`).
        if (event.choiceIndex === 0) this.images = [...(this.images ?? []), { url: event.url }];
        return undefined;
      case 'function-call-delta': {
        // As `ChatOpenAI`'s chunks carry it: concat adds up the arguments, keeps the name.
        const { name, argumentsDelta: args } = event;
        const call = { ...(name !== undefined && { name }), arguments: args } as FunctionCall;
        const kwargs = { function_call: call };
        return this.chunk(
          new GatewayMessageChunk({ content: '', ...this.idField(), additional_kwargs: kwargs }),
          '',
        );
      }
      default:
        return undefined;
    }
  }

  /** A piece of one of choice 0's tool calls (core joined them by call). */
  private toolCallChunk(
    event: Extract<ChatStreamEvent, { type: 'tool-call-delta' }>,
  ): ChatGenerationChunk {
    return this.chunk(
      new GatewayMessageChunk({
        content: '',
        ...this.idField(),
        tool_call_chunks: [
          {
            type: 'tool_call_chunk',
            // LangChain joins chunks by index: core's call number keeps two calls sent at
            // one server index apart.
            index: event.call,
            ...(event.id !== undefined ? { id: event.id } : {}),
            ...(event.name !== undefined ? { name: event.name } : {}),
            args: event.argumentsDelta,
          },
        ],
        additional_kwargs: {
          // OpenAI's raw piece, as `ChatOpenAI`'s chunks carry it: concat joins the pieces
          // of a call by `index` (its arguments added up, its latest id and name kept).
          // (A piece, typed as a whole call: its id and name only where the server sent them.)
          tool_calls: [
            {
              index: event.call,
              ...(event.id !== undefined ? { id: event.id, type: 'function' } : {}),
              function: {
                ...(event.name !== undefined ? { name: event.name } : {}),
                arguments: event.argumentsDelta,
              },
            } as OpenAIToolCall,
          ],
          // Core reports a call's extra content once, with its id: no entry doubles on concat.
          ...(event.extraContent !== undefined && event.id !== undefined
            ? { [EXTRA_CONTENT_KWARG]: { [event.id]: event.extraContent } }
            : {}),
        },
      }),
      '',
      this.pieces.callBlock(event.call),
    );
  }

  /** A piece of the audio the model spoke, as `additional_kwargs.audio` (generated-media.ts). */
  private audioChunk(
    event: Extract<ChatStreamEvent, { type: 'audio-delta' }>,
  ): ChatGenerationChunk | undefined {
    if (event.choiceIndex !== 0) return undefined;
    const audio = audioPieceKwarg(event, this.expirySent);
    if (audio.expires_at !== undefined) this.expirySent = true;
    const kwargs = { audio };
    return this.chunk(
      new GatewayMessageChunk({ content: '', ...this.idField(), additional_kwargs: kwargs }),
      '',
    );
  }

  /**
   * A chunk's logprobs, as `ChatOpenAI` gives them (`generationInfo.logprobs`, which LangChain
   * copies into the message's `response_metadata`): concatenated chunks join their lists.
   */
  private logprobsChunk(
    event: Extract<ChatStreamEvent, { type: 'logprobs' }>,
  ): ChatGenerationChunk | undefined {
    if (event.choiceIndex !== 0) return undefined;
    const generated = this.chunk(new GatewayMessageChunk({ content: '', ...this.idField() }), '');
    const { message } = generated;
    message.response_metadata = { ...message.response_metadata, logprobs: event.logprobs };
    generated.generationInfo = { logprobs: event.logprobs };
    return generated;
  }

  /**
   * The last chunk: usage once, who answered and why it stopped (`answered`: the finish reason of
   * core's assembled answer), the structured answer core checked at the stream's end
   * (`additional_kwargs.parsed`, as `invoke` has it), and the images the model generated as
   * `image` blocks in `additional_kwargs.images`: every chunk's content stays a string, as
   * `ChatOpenAI`'s does (`text += chunk.content`, `StringOutputParser`), and concat keeps the one
   * list once.
   */
  finish(
    structured?: StructuredResult | UncheckedStructured,
    answered?: string | null,
  ): ChatGenerationChunk {
    const responseMetadata = buildResponseMetadata(
      this.identity,
      // Core's `result()` has the last word on why the answer ended (one rule, core's).
      (this.finishReason !== undefined && answered) || this.finishReason,
      this.usage,
      this.id,
      { ...this.tags, model: this.model },
    );
    return new ChatGenerationChunk({
      text: '',
      message: new GatewayMessageChunk({
        content: '',
        ...this.idField(),
        usage_metadata: spentUsage(this.usage, this.identity.route),
        additional_kwargs: {
          ...(structured && structuredKwargs(structured)),
          ...(this.images && { [IMAGES_KWARG]: imageBlocks(this.images) }),
        },
        response_metadata: responseMetadata,
      }),
      generationInfo: streamedFinishInfo(responseMetadata),
    });
  }

  /** A chunk of `message`; `block`: the number of the block its piece belongs to (`StreamedPieces`). */
  private chunk(message: GatewayMessageChunk, text: string, block?: number): ChatGenerationChunk {
    // Every chunk names its provider, so LangChain builds its content blocks (e.g. for
    // `outputVersion: 'v1'`) with our translator; the name merges to itself on concat.
    message.response_metadata = { model_provider: MODEL_PROVIDER };
    if (block !== undefined) CHUNK_BLOCKS.set(message, block);
    return new ChatGenerationChunk({ text, message });
  }

  private idField(): { id?: string } {
    return this.id ? { id: this.id } : {};
  }
}

/**
 * A gateway stream as LangChain chunks, the final one (usage, metadata) last. One await per
 * network chunk rather than per event; a consumer that stops early (break, abort) cancels the
 * stream, which frees its slot at once. A batch can hold hundreds of events: once the call's
 * signal has aborted, none more is handed out (a slow, awaited token handler would otherwise see
 * the rest of the batch after the abort); the call rejects with core's error for the abort.
 */
export async function* readChatChunks(
  stream: EventSource,
  signal?: AbortSignal,
): AsyncGenerator<ChatGenerationChunk> {
  const converter = new StreamChunkConverter(stream);
  let finished = false;
  try {
    for (let batch = await stream.readBatch(); batch; batch = await stream.readBatch()) {
      for (const event of batch) {
        const chunk = converter.convert(event);
        if (!chunk) continue;
        throwIfAborted(signal);
        yield chunk;
      }
    }
    finished = true;
  } finally {
    if (!finished) await stream.cancel().catch(() => undefined);
  }
  // The answer as core assembled it (nothing left to read): its finish reason is the one `invoke`
  // reports (a refusal after the finish chunk makes a `stop` `content_filter`); a structured
  // answer that passed core's end check (its hop says so) has its value there.
  const answer = await stream.result?.();
  const asked = stream.route.hops.some((hop) => 'structured' in hop && hop.structured?.checked);
  // (An answer handed on unchecked: how it was served, for `includeRaw`'s raw message.)
  const served = asked ? answer?.structured : answer?.structuredUnchecked;
  yield converter.finish(served, answer?.finishReason);
}

/** A text chunk's `additional_kwargs`: the ordered pieces' entry when there is one. */
function orderedKwargs(entry: Record<string, unknown> | undefined) {
  return entry === undefined ? {} : { additional_kwargs: entry };
}

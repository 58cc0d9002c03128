import type { KeyBudget } from './concurrency-budget';
import type { GatewayEventHandler } from './gateway-events';

/**
 * Wire types of the gateway API (revision 0.2.0) and the public types of the client.
 * Objects the spec marks "additional fields may be present/allowed" carry an index signature.
 */

// ---------------------------------------------------------------------------------------------
// Catalog: GET /models, GET /capabilities
// ---------------------------------------------------------------------------------------------

export type ModelCapability = 'chat' | 'streaming' | 'tools' | 'json_object' | 'json_schema';

export type ModelOwner = 'service-owner' | 'service-pool' | 'service-community';

export interface GatewayModel {
  id: string;
  object: 'model';
  created?: number;
  owned_by: ModelOwner | (string & {});
  name?: string;
  kind: 'chat' | (string & {});
  capabilities: (ModelCapability | (string & {}))[];
  verification?: 'exact' | 'provider_claimed' | (string & {});
  pool?: string;
  copies?: number;
  available_nodes?: number;
  capacity?: number;
  inflight?: number;
  [key: string]: unknown;
}

export interface GatewayList<T> {
  object: 'list';
  data: T[];
  [key: string]: unknown;
}

export type ServiceId = 'translation' | 'ocr' | 'speech_to_text' | 'embeddings';

export interface EmbeddingEngine {
  id: string;
  name?: string;
  capacity?: number;
  [key: string]: unknown;
}

export interface GatewayService {
  id: ServiceId | (string & {});
  object: 'capability';
  name?: string;
  endpoint: string;
  available_nodes: number;
  capacity?: number;
  inflight?: number;
  /** Embeddings entry only. */
  engines?: EmbeddingEngine[];
  [key: string]: unknown;
}

// ---------------------------------------------------------------------------------------------
// Chat: POST /chat/completions
// ---------------------------------------------------------------------------------------------

export type ChatRole = 'system' | 'user' | 'assistant' | 'tool';

export interface ChatContentPart {
  type: string;
  text?: string;
  [key: string]: unknown;
}

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
  [key: string]: unknown;
}

export interface ChatMessage {
  role: ChatRole;
  content?: string | ChatContentPart[] | null;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
  name?: string;
  /**
   * An assistant message's reasoning, in the field DeepSeek-style servers read. The adapters send
   * it only when asked (`sendReasoning`); the spec passes unknown message fields through.
   */
  reasoning_content?: string;
  [key: string]: unknown;
}

export interface ChatTool {
  type: 'function';
  function: {
    name: string;
    description?: string;
    parameters?: Record<string, unknown>;
    strict?: boolean;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

export type ToolChoice =
  | 'none'
  | 'auto'
  | 'required'
  | { type: 'function'; function: { name: string } }
  | (string & {});

export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | {
      type: 'json_schema';
      json_schema: {
        name: string;
        schema: Record<string, unknown>;
        description?: string;
        strict?: boolean;
        [key: string]: unknown;
      };
    };

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  /** Set by `chat()` / `chatStream()`; you need not pass it. */
  stream?: boolean;
  tools?: ChatTool[];
  tool_choice?: ToolChoice | Record<string, unknown>;
  response_format?: ResponseFormat;
  temperature?: number;
  max_tokens?: number;
  top_p?: number;
  stop?: string | string[];
  seed?: number;
  /** Not in the gateway's table: forwarded to the model server unchanged, as any unlisted field. */
  presence_penalty?: number;
  frequency_penalty?: number;
  /** Fields not listed reach the model server unchanged. */
  [key: string]: unknown;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  [key: string]: unknown;
}

export interface ChatChoice {
  index: number;
  message: ChatMessage;
  finish_reason: string | null;
  [key: string]: unknown;
}

export interface ChatCompletionResponse {
  id: string;
  object: 'chat.completion' | (string & {});
  created: number;
  model: string;
  choices: ChatChoice[];
  usage?: Usage;
  [key: string]: unknown;
}

export interface ToolCallDelta {
  index: number;
  id?: string;
  type?: 'function';
  function?: { name?: string; arguments?: string };
  [key: string]: unknown;
}

export interface ChatChunkChoice {
  index: number;
  delta: {
    role?: ChatRole;
    content?: string | null;
    tool_calls?: ToolCallDelta[];
    [key: string]: unknown;
  };
  finish_reason?: string | null;
  [key: string]: unknown;
}

export interface ChatCompletionChunk {
  id?: string;
  object: 'chat.completion.chunk' | (string & {});
  created?: number;
  model: string;
  choices: ChatChunkChoice[];
  usage?: Usage | null;
  [key: string]: unknown;
}

// ---------------------------------------------------------------------------------------------
// Services
// ---------------------------------------------------------------------------------------------

/** Exactly the fields the spec allows: the gateway refuses any other field. */
export interface TranslationRequest {
  input: string;
  target_language: string;
  source_language?: string;
  /** Ignored by the gateway. */
  model?: string;
}

export interface TranslationResponse {
  object: 'translation' | (string & {});
  text: string;
  source_language?: string;
  target_language: string;
  [key: string]: unknown;
}

export type EmbeddingInputType = 'document' | 'query';

export interface EmbeddingsRequest {
  input: string | string[];
  /** Engine id from `GET /capabilities`; filled in by the client when only one engine exists. */
  model?: string;
  input_type?: EmbeddingInputType;
  /** Sent as-is (the field that picks the multilingual engine's dimension is unverified). */
  dimensions?: number;
  [key: string]: unknown;
}

export interface EmbeddingData {
  object: 'embedding';
  index: number;
  embedding: number[];
  [key: string]: unknown;
}

export interface EmbeddingsResponse {
  object: 'list';
  model: string;
  data: EmbeddingData[];
  usage?: { prompt_tokens?: number; total_tokens?: number; [key: string]: unknown };
  [key: string]: unknown;
}

/** Binary input: bytes, or a base64 string (a `data:...;base64,` prefix is accepted). */
export type AudioLike = Blob | Uint8Array | ArrayBuffer | string;

export interface OcrRequest {
  /** The image: bytes, Blob, or base64. Decoded size 1 byte .. 23 MiB. */
  image: AudioLike;
  /** Ignored by the gateway. */
  model?: string;
}

export interface OcrResponse {
  text: string;
  model?: string;
  confidence?: number;
  [key: string]: unknown;
}

export interface TranscriptionRequest {
  /** WAV, MP3 or FLAC; at most 23 MiB. */
  audio: AudioLike;
  /** Spoken language code; detected when omitted. */
  language?: string;
  /** `true` returns the speech translated into English. */
  translate?: boolean;
  /** `text` makes `transcribe()` resolve to a plain string. Default `json`. */
  response_format?: 'json' | 'text';
  /** File name sent with the audio (default from a File's name, else `audio.<ext>`). */
  filename?: string;
  /** MIME type sent with the audio (default detected from the magic bytes). */
  mime_type?: string;
  /** `multipart` (default) or `json` (`audio_base64`). */
  encoding?: 'multipart' | 'json';
  /** Ignored by the gateway. */
  model?: string;
}

export interface TranscriptionResponse {
  text: string;
  language?: string;
  duration?: number;
  [key: string]: unknown;
}

export interface GatewayErrorBody {
  error: { message: string; code: string; type?: string; [key: string]: unknown };
}

// ---------------------------------------------------------------------------------------------
// Client
// ---------------------------------------------------------------------------------------------

export interface GatewayClientOptions {
  /** Gateway base URL. Default: `INFERGATE_BASE_URL`. Normalised: trailing `/` removed, `/v1` appended when the path does not end in a version segment. */
  baseURL?: string;
  /** API key. Default: `INFERGATE_API_KEY`. */
  apiKey?: string;
  /** A WHATWG fetch. Default: `globalThis.fetch`. */
  fetch?: typeof fetch;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /**
   * Requests this client has in flight at once (its own queue, checked before the key's budget).
   * Default 4. A larger value never lets the key exceed `maxConcurrencyPerKey`.
   */
  maxConcurrency?: number;
  /**
   * Requests in flight per (gateway origin, API key), summed over every client sharing `budget`.
   * Default 4, the gateway's limit; set it only when the gateway grants the key another limit.
   */
  maxConcurrencyPerKey?: number;
  /**
   * Where the key's slots are counted. Default: the in-process budget shared by every client in
   * this JavaScript realm. Pass a shared `KeyBudget` (e.g. `@infergate/redis`) to count across
   * processes.
   */
  budget?: KeyBudget;
  /** Deadline of one call: queue + retries + body or stream. Default 300 000 ms; clamped to 2^31 − 1. */
  timeoutMs?: number;
  /**
   * Largest response body read (bytes after decompression, counted while reading; a larger
   * `Content-Length` fails before reading): `response_too_large`. Default 32 MiB. Streams are
   * bounded by their read-ahead and event limits instead.
   */
  maxResponseBytes?: number;
  /** Prefix of an error response's body that is kept (the rest is not read). Default 64 KiB. */
  maxErrorBodyBytes?: number;
  /** Retries after the first attempt. Default 2. */
  maxRetries?: number;
  /** How long the model/service catalog is cached. Default 60 000 ms. */
  catalogTtlMs?: number;
  /** Longest `Retry-After` the client waits; longer ones fail at once. Default 60 000 ms. */
  maxRetryAfterMs?: number;
  /** Base of the exponential backoff for 502/503/504 and network errors. Default 500 ms. */
  retryBaseDelayMs?: number;
  /**
   * Called with what happens to each call: queued, slot acquired (with the wait), each attempt
   * and its response, retries, a fallback model, and the end (usage, duration). Synchronous;
   * what it throws is ignored. Never given the API key or headers. `@infergate/core/otel` turns
   * these events into OpenTelemetry spans and metrics.
   */
  onEvent?: GatewayEventHandler;
  /**
   * Events carry the request body (`start.input`) and the answer (`done.output`), for tracing
   * that records message content. Default `false`: no content in any event.
   */
  recordContent?: boolean;
}

export interface CallOptions {
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** Overrides the client's `timeoutMs` for this call (a finite number > 0; clamped to 2^31 − 1). */
  timeoutMs?: number;
  /** Overrides the client's `maxRetries` for this call (an integer ≥ 0; `0`: one attempt). */
  maxRetries?: number;
  /**
   * Service calls (embeddings, translation, OCR, transcription): called with the status and
   * headers of each successful answer, once its body was read (a batch of `embedMany` calls it
   * once per request). Chat results carry their headers themselves.
   */
  onResponse?: (response: GatewayResponseInfo) => void;
}

/** `checkModel`'s options: a call's options plus what the gate needs to know. */
export interface CheckModelOptions extends CallOptions {
  /** The model's capabilities when the caller knows them (e.g. passed by the user). */
  known?: readonly string[];
  /** What needs the capabilities, for the refusal's message. */
  purpose?: string;
  /** The call needs any one of `needs`. */
  anyOf?: boolean;
}

/** What `CallOptions.onResponse` is told about one successful answer. */
export interface GatewayResponseInfo {
  status: number;
  headers: Headers;
  /** The parsed body (a service's JSON answer) or the text of a `text` answer. */
  body: unknown;
}

export interface ChatStreamOptions extends CallOptions {
  /**
   * `false`: the stream does not keep the answer's text and reasoning for `result()` (which then
   * has `text: ''` and `reasoning: ''`, with finish reason, usage and tool calls), for callers that
   * only iterate the events. Default `true`. Either way a stream's total size is bounded by
   * `maxResponseBytes`.
   */
  assemble?: boolean;
}

export interface ChatResult {
  /** The gateway's body as received. */
  response: ChatCompletionResponse;
  /**
   * Choice 0 read tolerantly (content parts joined, reasoning from `reasoning_content`,
   * `reasoning` or thinking parts, tool calls with ids): what the adapters map.
   */
  answer: AssembledChat;
  requestedModel: string;
  /** `X-Service-Model`, else the body's `model`, else the requested model. */
  servedModel: string;
  /** The gateway answered with another model than the one requested. */
  fallback: boolean;
  headers: Headers;
}

export type ChatStreamEvent =
  | { type: 'role'; role: 'assistant'; id?: string; model?: string }
  /**
   * The answer's `id`, `model` and `created` (Unix seconds) known so far; sent when a chunk brings
   * the first non-empty value of any of them (whichever chunk carries it, role chunk or not).
   */
  | { type: 'metadata'; id?: string; model?: string; created?: number }
  /** The model's reasoning (`reasoning_content`, `reasoning`, thinking parts); before its text. */
  | { type: 'reasoning-delta'; delta: string; choiceIndex: number }
  | { type: 'text-delta'; delta: string; choiceIndex: number }
  | {
      type: 'tool-call-delta';
      /** The server's `tool_calls[].index`. */
      index: number;
      /**
       * The call this piece belongs to, numbered from 0 in the order the calls started. Usually
       * equal to `index`; a piece at a used index that carries another `id` starts a new call
       * (some servers send every call at index 0), so join pieces by `call`, not by `index`.
       */
      call: number;
      id?: string;
      name?: string;
      argumentsDelta: string;
    }
  | { type: 'finish'; reason: string; choiceIndex: number }
  | { type: 'usage'; usage: Usage };

export interface AssembledToolCall {
  id: string;
  name: string;
  /** The joined argument text; `"{}"` when the model sent none. */
  arguments: string;
}

/** The answer of choice 0, read the same way from a stream or a non-streamed completion. */
export interface AssembledChat {
  id?: string;
  model?: string;
  /** `created` of the answer, in Unix seconds. */
  created?: number;
  text: string;
  /** The model's reasoning, when it sent any (`reasoning_content`, `reasoning`, thinking parts). */
  reasoning?: string;
  toolCalls: AssembledToolCall[];
  finishReason: string;
  usage?: Usage;
}

export interface ChatStream extends AsyncIterable<ChatStreamEvent> {
  readonly requestedModel: string;
  readonly servedModel: string;
  readonly fallback: boolean;
  readonly headers: Headers;
  /** Consumes what is left and resolves to the assembled answer; rejects with the stream's error. */
  result(): Promise<AssembledChat>;
  /**
   * The events decoded from the next network chunk (never empty), undefined at the end; throws
   * like iteration. Cheaper than `for await` when many small events arrive together; the two may
   * be mixed on one stream.
   */
  readBatch(): Promise<ChatStreamEvent[] | undefined>;
  /** Stops reading and releases the concurrency slot. */
  cancel(reason?: unknown): Promise<void>;
}

export interface EmbedManyOptions extends CallOptions {
  model?: string;
  inputType?: EmbeddingInputType;
  dimensions?: number;
}

export interface ConcurrencyBudgetState {
  readonly limit: number;
  readonly active: number;
  readonly queued: number;
  readonly isIdle: boolean;
  /** Resolves when nothing is running or queued. */
  whenIdle(): Promise<void>;
}

export interface GatewayClient {
  readonly baseURL: string;
  /**
   * This client's view of the key's budget: `limit` is its `maxConcurrency`, `active` the key's
   * requests in flight (every client sharing the budget), `queued` this client's waiting calls plus
   * the key's queue.
   */
  readonly budget: ConcurrencyBudgetState;
  models(opts?: CallOptions): Promise<GatewayModel[]>;
  /** The listed model; `model_not_found` (with close matches) for any unlisted id. */
  model(id: string, opts?: CallOptions): Promise<GatewayModel>;
  /**
   * The listed model; `undefined` for an unlisted own model (`my/...`: offline models are not
   * listed, yet their address still works); `model_not_found` for any other unlisted id.
   */
  resolveModel(id: string, opts?: CallOptions): Promise<GatewayModel | undefined>;
  services(opts?: CallOptions): Promise<GatewayService[]>;
  embeddingEngines(opts?: CallOptions): Promise<EmbeddingEngine[]>;
  resolveEmbeddingEngine(
    engineId: string | undefined,
    opts?: CallOptions,
  ): Promise<EmbeddingEngine>;
  /**
   * The model when it has every need; `unsupported_model_capability` when it lacks one;
   * `undefined` (unchecked: the gateway decides) for an unlisted own model, as `resolveModel`.
   */
  requireCapabilities(
    modelId: string,
    needs: readonly ModelCapability[],
    opts?: CallOptions,
  ): Promise<GatewayModel | undefined>;
  /**
   * The capability gate both adapters call before a chat request. The model's capabilities are
   * `known` (passed by the user: no catalog read unless refusing) or read from the cached catalog;
   * it refuses with `unsupported_model_capability` (naming `purpose`, what is missing and the
   * listed models that would do) when they lack a need (`anyOf`: lack all of them), and returns
   * them. `undefined`: an unlisted own model, unchecked (the gateway decides); any other unlisted
   * id is `model_not_found`. With no `needs` it only resolves the capabilities.
   */
  checkModel(
    modelId: string,
    needs: readonly ModelCapability[],
    opts?: CheckModelOptions,
  ): Promise<readonly string[] | undefined>;
  refreshCatalog(): void;
  chat(req: ChatRequest, opts?: CallOptions): Promise<ChatResult>;
  chatStream(req: ChatRequest, opts?: ChatStreamOptions): Promise<ChatStream>;
  embed(req: EmbeddingsRequest, opts?: CallOptions): Promise<EmbeddingsResponse>;
  embedMany(texts: string[], opts?: EmbedManyOptions): Promise<number[][]>;
  translate(req: TranslationRequest, opts?: CallOptions): Promise<TranslationResponse>;
  ocr(req: OcrRequest, opts?: CallOptions): Promise<OcrResponse>;
  transcribe(
    req: TranscriptionRequest & { response_format: 'text' },
    opts?: CallOptions,
  ): Promise<string>;
  transcribe(
    req: TranscriptionRequest & { response_format?: 'json' },
    opts?: CallOptions,
  ): Promise<TranscriptionResponse>;
  transcribe(
    req: TranscriptionRequest,
    opts?: CallOptions,
  ): Promise<TranscriptionResponse | string>;
}

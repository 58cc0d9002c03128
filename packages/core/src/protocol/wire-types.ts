// docs/gateway-protocol.md §3 to §10 (the JSON shapes: catalog, chat, streams, services, errors).
/**
 * The gateway's JSON shapes (API revision 0.2.0; docs/gateway-protocol.md): catalog, chat,
 * services and errors, as sent and received. Objects the spec marks "additional fields may be
 * present/allowed" carry an index signature. The client's own types sit beside the code that
 * uses them; index.ts lists every public one.
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
  /**
   * What the model server added to the call, sent back unchanged on the assistant message that
   * replays it (Gemini: `{ google: { thought_signature } }`, refused when missing; §4.4).
   */
  extra_content?: Record<string, unknown>;
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
   * it for turns that made tool calls (`sendsReasoningBack`; `sendReasoning` says otherwise); the
   * spec passes unknown message fields through.
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
  /** Not in the gateway's table either: how hard a reasoning model thinks (`low`, `medium`, …). */
  reasoning_effort?: string;
  /** Not in the gateway's table either: `{ include_usage: true }` asks for usage in a stream. */
  stream_options?: Record<string, unknown>;
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
  /** On the piece that carries it, usually the call's first (as `ToolCall.extra_content`). */
  extra_content?: Record<string, unknown>;
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

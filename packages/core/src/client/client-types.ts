/**
 * The client's own types: its options, a call's options, and what chat calls return (results,
 * stream events, the assembled answer). The gateway's JSON shapes are in wire-types.ts.
 */
import type { KeyBudget } from '../budget/concurrency-budget';
import type { GatewayEventHandler } from '../events/gateway-events';
import type { ChatCompletionResponse, EmbeddingInputType, Usage } from '../protocol/wire-types';

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

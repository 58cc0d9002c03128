// docs/gateway-protocol.md §4.1 (the request fields the chat model's options set, reasoning
// effort), §4.7 (failover and stall timeouts), §5.6 (usage in a stream).
import type { HedgeOptions, ModelCapability, ResponseFormat } from '@infergate/core';
import type {
  BaseChatModelCallOptions,
  BaseChatModelParams,
  BindToolsInput,
} from '@langchain/core/language_models/chat_models';
import type { GatewayConnectionFields } from '../utils/client';

/** Call options: LangChain's, plus what `bindTools` / `createAgent` bind. */
export interface GatewayChatModelCallOptions extends BaseChatModelCallOptions {
  /** Tools for this call (normally bound with `bindTools`). */
  tools?: BindToolsInput[];
  /** `response_format` sent as-is (`json_object` / `json_schema` need the matching capability). */
  response_format?: ResponseFormat;
  /** Sets `strict` on every tool of this call. */
  strict?: boolean;
  /** Extra headers for this call's requests. */
  headers?: Record<string, string>;
  /**
   * Extra request fields for this call, over the model's `modelKwargs` (the gateway passes
   * unknown fields to the model server). `bindTools` puts every kwarg it does not know here.
   */
  modelKwargs?: Record<string, unknown>;
  /** This call's fallback list, over the model's (`[]`: none for this call). Checked by core. */
  fallbackModels?: string[];
  /** This call's `firstChunkTimeoutMs`, over the model's. */
  firstChunkTimeoutMs?: number;
  /** This call's `chunkTimeoutMs`, over the model's. */
  chunkTimeoutMs?: number;
  /** This call's `hedge`, over the model's (`false`: none for this call). */
  hedge?: HedgeOptions | false;
  /** This call's `streamUsage` (over the model's): `false` sends no `stream_options`. */
  streamUsage?: boolean;
  /**
   * `stream_options` sent as given on this call's streamed request, instead of the
   * `{ include_usage: true }` that `streamUsage` asks for (as `ChatOpenAI`'s call option).
   */
  stream_options?: Record<string, unknown>;
  /** This call's `reasoningEffort` (over the model's), sent as `reasoning_effort`. */
  reasoningEffort?: string;
}

export interface GatewayChatModelFields extends BaseChatModelParams, GatewayConnectionFields {
  /** Model id from `GET /models`, exactly as listed (e.g. `community/general`, `my/desk-model`). */
  model: string;
  /** Alias of `model`, as LangChain's `initChatModel` may pass it. */
  modelName?: string;
  /** Stream by default: `invoke` then reads a stream (needs the `streaming` capability). */
  streaming?: boolean;
  temperature?: number;
  /** Sent as `max_tokens`. */
  maxTokens?: number;
  /** Sent as `top_p`. */
  topP?: number;
  /** Stop sequences (`stop`). */
  stop?: string[];
  /** Alias of `stop`. */
  stopSequences?: string[];
  seed?: number;
  /**
   * How hard a reasoning model thinks, sent as `reasoning_effort` as given (`'low'`, `'medium'`,
   * `'high'`, … as the model server reads it), like `ChatOpenAI`'s `reasoningEffort`. A value that
   * is not a string is refused before sending.
   */
  reasoningEffort?: string;
  /** Deadline of one call in milliseconds (default 5 minutes, the gateway's limit). */
  timeout?: number;
  /**
   * Retries after the first attempt (default 2): 429 with Retry-After, 500/502/503/504, network
   * errors before any byte. Done by the gateway client, the one retry layer; a call's
   * `maxRetries` option overrides it for that call.
   */
  maxRetries?: number;
  /** Extra request fields; the gateway passes unknown fields to the model server unchanged. */
  modelKwargs?: Record<string, unknown>;
  /**
   * The model's capabilities, when you know them (as `GET /models` lists them). With them every
   * capability check runs at once; without them, before the first request (one catalog lookup).
   */
  capabilities?: readonly (ModelCapability | (string & {}))[];
  /**
   * Send the content parts of user and tool messages (images, audio, …) to the model. Default
   * `true`: the gateway lists no capability for parts, so it (or the model server) decides.
   * `false` is an opt-out: text parts are joined into one string and any other part is refused
   * with a clear error before a request is made.
   */
  acceptsContentParts?: boolean;
  /**
   * Send the reasoning of earlier AI messages back to the gateway as `reasoning_content` (for
   * model servers that want it). Default `false`: reasoning is never sent back.
   */
  sendReasoning?: boolean;
  /**
   * Models to use, in order, when `model` cannot serve a call (busy, unavailable, stalled before
   * its first content, or lacking what the call needs): each id once, not `model` itself. Core
   * checks each against the catalog and walks them; with a list the checks made when the model is
   * built or bound (`capabilities`) are left to core. A bad list is refused at construction.
   */
  fallbackModels?: string[];
  /**
   * Longest wait from sending a request to the first content of its answer, in ms (SSE comments
   * and empty chunks do not count). Off by default. A stall moves to the next `fallbackModels`
   * entry (else it is retried).
   */
  firstChunkTimeoutMs?: number;
  /**
   * Longest silence between two pieces of content of a stream, in ms. Off by default. A stall
   * fails the stream with `timeout`.
   */
  chunkTimeoutMs?: number;
  /** A second attempt when the first is slow to its first content (core's `hedge`). Off by default. */
  hedge?: HedgeOptions | false;
  /**
   * Streamed requests send `stream_options: { include_usage: true }`, so that model servers that
   * report usage in a stream only when asked (vLLM, llama.cpp, TGI, Ollama) send it and the last
   * chunk carries `usage_metadata` (as `ChatOpenAI`'s `streamUsage`). `false` for a model server
   * that refuses unknown fields; a call's `streamUsage` overrides it. Default: the client's
   * `streamUsage` (`true`).
   */
  streamUsage?: boolean;
}

/** Fields that describe the model and may be serialised (never `client`, `fetch` or the key). */
export const SERIALIZABLE_FIELDS = [
  'model',
  'baseURL',
  'streaming',
  'temperature',
  'maxTokens',
  'topP',
  'stop',
  'stopSequences',
  'seed',
  'reasoningEffort',
  'timeout',
  'maxRetries',
  'modelKwargs',
  'capabilities',
  'acceptsContentParts',
  'sendReasoning',
  'fallbackModels',
  'firstChunkTimeoutMs',
  'chunkTimeoutMs',
  'hedge',
  'streamUsage',
];

// docs/gateway-protocol.md §4.1 (the request fields the chat model's options set, reasoning
// effort), §4.7 (failover and stall timeouts), §5.6 (usage in a stream).
import {
  type CallOptions,
  type GatewayClientOptions,
  type ModelCapability,
  type ResponseFormat,
  STEERING_OPTIONS,
  type SteeringOptions,
  type StructuredOutputOptions,
} from '@infergate/core';
import { type EveryKey, optionKeys } from '@infergate/core/internal';
import type {
  BaseChatModelCallOptions,
  BaseChatModelParams,
  BindToolsInput,
} from '@langchain/core/language_models/chat_models';
import type { SerializableSchema } from '@langchain/core/utils/standard_schema';
import type { InteropZodType } from '@langchain/core/utils/types';
import { CLIENT_FIELD_KEYS, type GatewayConnectionFields } from '../utils/client';

/** Core's `response_format`, its `json_schema.schema` a JSON Schema, a zod or Standard JSON Schema. */
export type GatewayResponseFormat =
  | Exclude<ResponseFormat, { type: 'json_schema' }>
  | {
      type: 'json_schema';
      json_schema: {
        name: string;
        schema: Record<string, unknown> | InteropZodType | SerializableSchema;
        description?: string;
        strict?: boolean;
        [key: string]: unknown;
      };
    };

/**
 * Call options: LangChain's, core's `steering` group (`fallbackModels`, `firstChunkTimeoutMs`,
 * `chunkTimeoutMs`, `hedge`: this call's, over the model's; `[]` / `false` turn the model's off),
 * core's call `headers`, plus what `bindTools` / `createAgent` bind.
 */
export interface GatewayChatModelCallOptions
  extends BaseChatModelCallOptions,
    SteeringOptions,
    Pick<CallOptions, 'headers'> {
  /** Tools for this call (normally bound with `bindTools`). */
  tools?: BindToolsInput[];
  /**
   * `response_format` (`json_object` / `json_schema` need the matching capability): sent as given,
   * but for a zod or Standard JSON Schema as `json_schema.schema`, sent as the JSON Schema it
   * writes (as `ChatOpenAI` sends it).
   */
  response_format?: GatewayResponseFormat;
  /** Sets `strict` on every tool of this call. */
  strict?: boolean;
  /**
   * Extra request fields for this call, over the model's `modelKwargs` (the gateway passes
   * unknown fields to the model server). A call's snake_case options are request fields too, sent
   * beside these; `bindTools` refuses another kwarg it does not know, pointing here.
   */
  modelKwargs?: Record<string, unknown>;
  /** This call's `streamUsage` (over the model's): `false` sends no `stream_options`. */
  streamUsage?: boolean;
  /**
   * `stream_options` sent as given on this call's streamed request, instead of the
   * `{ include_usage: true }` that `streamUsage` asks for (as `ChatOpenAI`'s call option).
   */
  stream_options?: Record<string, unknown>;
  /** This call's `reasoningEffort` (over the model's), sent as `reasoning_effort`. */
  reasoningEffort?: string;
  /** Sent as `parallel_tool_calls`, as `ChatOpenAI`'s call option (over `modelKwargs`'). */
  parallel_tool_calls?: boolean;
  /** This call's `seed` (over the model's), as `ChatOpenAI`'s call option. */
  seed?: number;
  /**
   * A call asking for structured output (`response_format: json_schema`, as
   * `withStructuredOutput` sends it): core's option, `methods` over the model's, and `standard`,
   * the zod or standard schema that checks the answer instead of the JSON schema.
   */
  structuredOutput?: StructuredOutputOptions;
}

/**
 * The model's fields: LangChain's, the connection's, core's `steering` group (`fallbackModels`:
 * with a list, the checks made when the model is built or bound are left to core, which gates
 * every listed model at each call; a bad list is refused at construction), and its own.
 */
export interface GatewayChatModelFields
  extends BaseChatModelParams,
    GatewayConnectionFields,
    SteeringOptions {
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
  /** Sent as `frequency_penalty`, like `ChatOpenAI`'s `frequencyPenalty`. */
  frequencyPenalty?: number;
  /** Sent as `presence_penalty`, like `ChatOpenAI`'s `presencePenalty`. */
  presencePenalty?: number;
  /** Sent as `logit_bias` (token id → bias), like `ChatOpenAI`'s `logitBias`. */
  logitBias?: Record<string, number>;
  /** Sent as `user` (an id of the end user), like `ChatOpenAI`'s `user`. */
  user?: string;
  /**
   * How hard a reasoning model thinks, sent as `reasoning_effort` as given (`'low'`, `'medium'`,
   * `'high'`, … as the model server reads it), like `ChatOpenAI`'s `reasoningEffort`. A value that
   * is not a string is refused before sending.
   */
  reasoningEffort?: string;
  /** Deadline of one call in milliseconds (default 5 minutes, the gateway's limit). */
  timeout?: number;
  /**
   * Retries after the first attempt (default 2): 429 (after its Retry-After, else backoff), 408,
   * 409, every 5xx but 501 and 505, network errors before the first byte. Done by the gateway
   * client, the one retry layer; a call's `maxRetries` option overrides it for that call.
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
   * Whether earlier AI messages go back to the gateway with their reasoning, as
   * `reasoning_content`. Default (unset) and `false`: none, as `ChatOpenAI` (Groq and Cerebras
   * refuse the field with a 400). `true`: every message's, for thinking models (DeepSeek V4,
   * Kimi K2), which refuse an agent's second step without it.
   */
  sendReasoning?: boolean;
  /**
   * Streamed requests send `stream_options: { include_usage: true }`, so that model servers that
   * report usage in a stream only when asked (vLLM, llama.cpp, TGI, Ollama) send it and the last
   * chunk carries `usage_metadata` (as `ChatOpenAI`'s `streamUsage`). `false` for a model server
   * that refuses unknown fields; a call's `streamUsage` overrides it. Default: the client's
   * `streamUsage` (`true`).
   */
  streamUsage?: boolean;
}

/**
 * The steering options, core's group (declared there once, types and docs): a model's fields and
 * a call's options take them.
 */
export const STEERING_KEYS = optionKeys(STEERING_OPTIONS);

/**
 * The fields a model keeps as given, all serialised (the others are defaulted, copied or checked
 * first).
 */
export const KEPT_FIELDS = [
  'baseURL',
  'temperature',
  'maxTokens',
  'topP',
  'seed',
  'frequencyPenalty',
  'presencePenalty',
  'logitBias',
  'user',
  'reasoningEffort',
  'timeout',
  'maxRetries',
  'modelKwargs',
  'sendReasoning',
  // Core's steering group (`fallbackModels` is replaced by its read copy).
  ...STEERING_KEYS,
] as const;

/** Fields that describe the model and may be serialised (never `client`, `fetch` or the key). */
export const SERIALIZABLE_FIELDS = [
  'model',
  'streaming',
  'stop',
  'stopSequences',
  'capabilities',
  'acceptsContentParts',
  'streamUsage',
  ...KEPT_FIELDS,
];

/**
 * LangChain's own fields that a model serialises, as `ChatOpenAI` does, and `load()` rebuilds:
 * never `callbacks` or `cache` (objects it cannot rebuild) nor `onFailedAttempt` (a function).
 */
export const LANGCHAIN_SERIALIZABLE_FIELDS = [
  'tags',
  'metadata',
  'verbose',
  'disableStreaming',
  'maxConcurrency',
  'outputVersion',
];

/** Every field of ours a model takes (a near miss of one is refused: `fallbackModel`). */
export const OUR_FIELDS: readonly string[] = [
  ...SERIALIZABLE_FIELDS,
  'modelName',
  'client',
  ...CLIENT_FIELD_KEYS,
];

/** Every call option of ours (a near miss of one is refused; none is a request field). */
export const OUR_CALL_OPTIONS: readonly string[] = [
  'tools',
  'response_format',
  'strict',
  'headers',
  'modelKwargs',
  'streamUsage',
  'stream_options',
  'reasoningEffort',
  'parallel_tool_calls',
  'seed',
  ...STEERING_KEYS,
];

/**
 * LangChain's and LangGraph's own keys of a model's fields and a call's options (RunnableConfig,
 * BaseLanguageModelParams, BaseChatModelCallOptions): passed through untouched, never taken for
 * a typo of ours.
 */
export const LANGCHAIN_KEYS: readonly string[] = [
  'callbacks',
  'callbackManager',
  'tags',
  'metadata',
  'verbose',
  'cache',
  'runName',
  'runId',
  'configurable',
  'recursionLimit',
  'maxConcurrency',
  'timeout',
  'signal',
  'store',
  'context',
  'writer',
  'stop',
  'maxRetries',
  'onFailedAttempt',
  'disableStreaming',
  'outputVersion',
  // (Set by LangChain on every call, and by streamEvents: a key not listed here pays the
  // near-miss search at each call.)
  'promptIndex',
  'version',
  'ls_structured_output_format',
  'tool_choice',
];

const CLIENT_OPTION = 'a client option: pass `client: createGatewayClient({…})`';

/**
 * Core's client options a model's fields do not take, each with where it goes: given to a model or
 * a call, one would do nothing (LangChain keeps unknown keys), so it is refused saying so. Every
 * one (else this fails to compile).
 */
export const CLIENT_OPTION_HINTS = {
  timeoutMs: 'use `timeout`',
  circuitBreaker: CLIENT_OPTION,
  catalogTtlMs: CLIENT_OPTION,
  maxRetryAfterMs: CLIENT_OPTION,
  retryBaseDelayMs: CLIENT_OPTION,
  maxResponseBytes: CLIENT_OPTION,
  maxErrorBodyBytes: CLIENT_OPTION,
} satisfies EveryKey<Omit<GatewayClientOptions, keyof GatewayChatModelFields>, string>;

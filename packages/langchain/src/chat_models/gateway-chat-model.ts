import {
  type CallOptions,
  type ChatRequest,
  type GatewayClient,
  type GatewayModel,
  type ModelCapability,
  type ResponseFormat,
  requiredCapabilities,
} from '@infergate/core';
import { capabilitiesOf, checkCapabilities } from '@infergate/core/internal';
import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';
import type {
  BaseLanguageModelInput,
  StructuredOutputMethodOptions,
} from '@langchain/core/language_models/base';
import {
  BaseChatModel,
  type BaseChatModelCallOptions,
  type BaseChatModelParams,
  type BindToolsInput,
  type LangSmithParams,
} from '@langchain/core/language_models/chat_models';
import { convertChunksToEvents } from '@langchain/core/language_models/compat';
import type { ChatModelStreamEvent } from '@langchain/core/language_models/event';
import type { ModelProfile } from '@langchain/core/language_models/profile';
import type { AIMessageChunk, BaseMessage } from '@langchain/core/messages';
import type { ChatGenerationChunk, ChatResult } from '@langchain/core/outputs';
import { type Runnable, RunnableLambda } from '@langchain/core/runnables';
import type { SerializableSchema } from '@langchain/core/utils/standard_schema';
import type { InteropZodType } from '@langchain/core/utils/types';
import { convertChatResult, convertChatResultToChunk } from '../converters/convert-chat-result';
import { StreamChunkConverter } from '../converters/convert-stream-events';
import { mapFinishReason } from '../converters/map-finish-reason';
import { completeMessage, shiftToolBlocks } from '../converters/shape-stream-chunks';
import { callOptions, type GatewayConnectionFields, resolveClient } from '../utils/client';
import {
  configurationError,
  invalidResponse,
  throwIfAborted,
  withCreateHint,
} from '../utils/errors';
import {
  buildChatRequest,
  buildRequestParams,
  type ChatCallSettings,
  type ChatModelSettings,
} from './build-chat-request';
import {
  defaultStructuredOutputMethod,
  METHOD_CAPABILITY,
  profileFromCapabilities,
  type StructuredOutputMethod,
} from './capabilities';
import { moveRequestFields } from './request-fields';
import { normalizeMethod, structuredOutputRunnable } from './structured-output';

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
}

const PROVIDER = 'infergate';

/** Fields that describe the model and may be serialised (never `client`, `fetch` or the key). */
const SERIALIZABLE_FIELDS = [
  'model',
  'baseURL',
  'streaming',
  'temperature',
  'maxTokens',
  'topP',
  'stop',
  'stopSequences',
  'seed',
  'timeout',
  'maxRetries',
  'modelKwargs',
  'capabilities',
  'acceptsContentParts',
  'sendReasoning',
];

/**
 * A LangChain chat model served by the inference gateway. It checks the model's capabilities
 * (streaming, tools, json_object, json_schema) before any chat request leaves the process.
 */
export class GatewayChatModel
  extends BaseChatModel<GatewayChatModelCallOptions, AIMessageChunk>
  implements GatewayChatModelFields
{
  static override lc_name(): string {
    return 'GatewayChatModel';
  }

  override lc_serializable = true;
  override lc_namespace = ['infergate', 'chat_models'];

  override get lc_secrets(): Record<string, string> {
    return { apiKey: 'INFERGATE_API_KEY' };
  }

  override get lc_serializable_keys(): string[] {
    return SERIALIZABLE_FIELDS;
  }

  /** `baseURL` is written `base_url`; without the alias `load()` would read it back as `baseUrl`. */
  override get lc_aliases(): Record<string, string> {
    return { baseURL: 'base_url' };
  }

  model: string;
  baseURL?: string;
  streaming: boolean;
  temperature?: number;
  maxTokens?: number;
  topP?: number;
  stop?: string[];
  stopSequences?: string[];
  seed?: number;
  timeout?: number;
  maxRetries?: number;
  modelKwargs?: Record<string, unknown>;
  capabilities?: readonly string[];
  acceptsContentParts: boolean;
  sendReasoning: boolean;
  /** The gateway client this model sends through. */
  declare readonly client: GatewayClient;
  /**
   * The key given to the constructor, if any. A private field with no getter: no property holds
   * it, so `util.inspect` (even with `showHidden` and `getters`), spreading and JSON never show it.
   * When a key was given, `toJSON` writes the `INFERGATE_API_KEY` secret reference in its place; a
   * key read from the environment leaves no entry (loading reads the environment again).
   */
  readonly #apiKey: string | undefined;
  /** Catalog snapshot from `create`, to name alternatives in refusals made before any call. */
  #catalog: readonly GatewayModel[] | undefined;
  /** Capabilities learned from the catalog when none were passed, for the model id they belong to. */
  #learned: { model: string; capabilities: readonly string[] } | undefined;

  /**
   * LangChain's serialiser reads secrets through properties; the key has none (a getter would show
   * it to `util.inspect` with `getters: true`), so the secret reference is written here instead,
   * for a key given to the constructor only.
   */
  override toJSON(): ReturnType<BaseChatModel['toJSON']> {
    const json = super.toJSON();
    if (this.#apiKey !== undefined && json.type === 'constructor') {
      json.kwargs.api_key = { lc: 1, type: 'secret', id: ['INFERGATE_API_KEY'] };
    }
    return json;
  }

  constructor(model: string, fields?: Omit<GatewayChatModelFields, 'model'>);
  constructor(fields: GatewayChatModelFields);
  constructor(
    modelOrFields: string | GatewayChatModelFields,
    maybeFields?: Omit<GatewayChatModelFields, 'model'>,
  ) {
    const fields: GatewayChatModelFields =
      typeof modelOrFields === 'string'
        ? { ...maybeFields, model: modelOrFields }
        : { ...modelOrFields };
    const model = fields.model ?? fields.modelName;
    // With a shared client, its base URL is the model's: serialisation keeps where it points.
    if (fields.baseURL === undefined && fields.client !== undefined) {
      fields.baseURL = fields.client.baseURL;
    }
    super(typeof model === 'string' ? { ...fields, model } : fields);
    if (typeof model !== 'string' || model === '') {
      throw configurationError('GatewayChatModel needs a model id (the `model` field)');
    }
    this.model = model;
    this.baseURL = fields.baseURL;
    this.streaming = fields.streaming ?? false;
    this.temperature = fields.temperature;
    this.maxTokens = fields.maxTokens;
    this.topP = fields.topP;
    this.stop = fields.stop ?? fields.stopSequences;
    this.stopSequences = this.stop;
    this.seed = fields.seed;
    this.timeout = fields.timeout;
    this.maxRetries = fields.maxRetries;
    this.modelKwargs = fields.modelKwargs;
    this.capabilities = fields.capabilities ? [...fields.capabilities] : undefined;
    this.acceptsContentParts = fields.acceptsContentParts ?? true;
    this.sendReasoning = fields.sendReasoning ?? false;
    hidden(this, 'client', resolveClient(fields));
    this.#apiKey = fields.apiKey;
    if (this.streaming) this.assertKnown(['streaming'], 'streaming: true');
  }

  /**
   * Loads the model's catalog entry first, so that every capability check runs while building
   * (and `profile` is right from the start).
   */
  static async create(fields: GatewayChatModelFields): Promise<GatewayChatModel>;
  static async create(
    model: string,
    fields?: Omit<GatewayChatModelFields, 'model'>,
  ): Promise<GatewayChatModel>;
  static async create(
    modelOrFields: string | GatewayChatModelFields,
    maybeFields?: Omit<GatewayChatModelFields, 'model'>,
  ): Promise<GatewayChatModel> {
    const fields: GatewayChatModelFields =
      typeof modelOrFields === 'string' ? { ...maybeFields, model: modelOrFields } : modelOrFields;
    const model = fields.model ?? fields.modelName;
    const client = resolveClient(fields);
    // Core's rule: an unknown id is refused with close matches; an unlisted own model (my/...,
    // offline yet still answering, docs/gateway-protocol.md §3.1) resolves to undefined and stays unchecked.
    const listed = await client.resolveModel(model);
    const catalog = await client.models(); // cached by the look-up above
    const capabilities = fields.capabilities ?? listed?.capabilities;
    if (fields.streaming && capabilities) {
      // Checked here too, so that the refusal can name the models that stream.
      checkCapabilities({
        model,
        capabilities,
        catalog,
        needs: ['streaming'],
        purpose: 'streaming: true',
      });
    }
    const instance = new GatewayChatModel({
      ...fields,
      client,
      ...(capabilities ? { capabilities } : {}),
    });
    instance.#catalog = catalog;
    return instance;
  }

  _llmType(): string {
    return PROVIDER;
  }

  /** Live capabilities → LangChain's model profile (createAgent reads it). */
  override get profile(): ModelProfile {
    return profileFromCapabilities(this.knownCapabilities(), this.acceptsContentParts);
  }

  override getLsParams(options: this['ParsedCallOptions']): LangSmithParams {
    return {
      ls_provider: PROVIDER,
      ls_model_name: this.model,
      ls_model_type: 'chat',
      ls_temperature: this.temperature,
      ls_max_tokens: this.maxTokens,
      ls_stop: options.stop ?? this.stop,
    };
  }

  override invocationParams(options?: this['ParsedCallOptions']): Omit<ChatRequest, 'messages'> {
    return buildRequestParams(this.settings(), this.callSettings(options), this.streaming);
  }

  override _identifyingParams(): Record<string, unknown> {
    return { model_name: this.model, ...this.invocationParams() };
  }

  override bindTools(
    tools: BindToolsInput[],
    kwargs?: Partial<GatewayChatModelCallOptions>,
  ): Runnable<BaseLanguageModelInput, AIMessageChunk, GatewayChatModelCallOptions> {
    if (tools.length > 0) this.assertKnown(['tools'], 'bindTools');
    // Converting now refuses malformed tools at bind time; the request converts again.
    buildRequestParams(this.settings(), { tools, strict: kwargs?.strict }, false);
    return this.withConfig({ ...moveRequestFields(kwargs), tools });
  }

  /**
   * A runnable that returns the answer as an object checked against `outputSchema` (zod 3/4,
   * standard schema or JSON schema). `method`: `jsonSchema` (needs json_schema), `functionCalling`
   * (needs tools) or `jsonMode` (needs json_object); by default the first the model has, in
   * that order. `includeRaw: true` returns `{ raw, parsed }` (parsed is null when parsing fails).
   */
  override withStructuredOutput<
    RunOutput extends Record<string, unknown> = Record<string, unknown>,
  >(
    outputSchema:
      | InteropZodType<RunOutput>
      | SerializableSchema<RunOutput>
      | Record<string, unknown>,
    config?: StructuredOutputMethodOptions<false>,
  ): Runnable<BaseLanguageModelInput, RunOutput>;
  override withStructuredOutput<
    RunOutput extends Record<string, unknown> = Record<string, unknown>,
  >(
    outputSchema:
      | InteropZodType<RunOutput>
      | SerializableSchema<RunOutput>
      | Record<string, unknown>,
    config?: StructuredOutputMethodOptions<true>,
  ): Runnable<BaseLanguageModelInput, { raw: BaseMessage; parsed: RunOutput }>;
  override withStructuredOutput<
    RunOutput extends Record<string, unknown> = Record<string, unknown>,
  >(
    outputSchema: unknown,
    config?: StructuredOutputMethodOptions<boolean>,
  ): Runnable<BaseLanguageModelInput, RunOutput | { raw: BaseMessage; parsed: RunOutput }> {
    const method = normalizeMethod(config?.method);
    if (method) this.assertKnown([METHOD_CAPABILITY[method]], `withStructuredOutput (${method})`);
    const build = (chosen: StructuredOutputMethod) =>
      structuredOutputRunnable<RunOutput>(this, outputSchema, chosen, config);
    if (method) return build(method);
    if (this.capabilities) return build(this.pickMethod(this.capabilities, this.#catalog));
    // Capabilities unknown: choose the method at the first call, from the catalog.
    let pipeline: ReturnType<typeof build> | undefined;
    return RunnableLambda.from(async (input: BaseLanguageModelInput, runConfig) => {
      if (!pipeline) {
        const capabilities = await this.loadCapabilities(runConfig?.signal);
        // The catalog is cached by the client: listing alternatives costs no request.
        pipeline = build(
          capabilities ? this.pickMethod(capabilities, await this.client.models()) : 'jsonSchema',
        );
      }
      return pipeline.invoke(input, runConfig);
    }).withConfig({ runName: 'GatewayStructuredOutput' }) as Runnable<
      BaseLanguageModelInput,
      RunOutput | { raw: BaseMessage; parsed: RunOutput }
    >;
  }

  async _generate(
    messages: BaseMessage[],
    options: this['ParsedCallOptions'],
    runManager?: CallbackManagerForLLMRun,
  ): Promise<ChatResult> {
    if (this.streaming) {
      let final: ChatGenerationChunk | undefined;
      for await (const chunk of this._streamResponseChunks(messages, options, runManager)) {
        final = final ? final.concat(chunk) : chunk;
      }
      if (!final) throw invalidResponse('the chat stream ended without any chunk');
      return {
        generations: [
          {
            text: final.text,
            message: completeMessage(final.message as AIMessageChunk),
            generationInfo: final.generationInfo,
          },
        ],
      };
    }
    const request = buildChatRequest(messages, this.settings(), this.callSettings(options), false);
    await this.checkBeforeSending(request, options.signal);
    const result = await this.client.chat(request, this.coreCallOptions(options));
    return convertChatResult(result);
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this['ParsedCallOptions'],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    if (!this.streaming && !(await this.canStream(options.signal))) {
      // `.stream()` (or a streaming callback such as streamEvents) on a model without
      // `streaming`: ask without streaming and hand the whole answer over as one chunk, as
      // LangChain does for any model that cannot stream. `streaming: true` is refused instead.
      const request = buildChatRequest(
        messages,
        this.settings(),
        this.callSettings(options),
        false,
      );
      await this.checkBeforeSending(request, options.signal);
      const chunk = convertChatResultToChunk(
        await this.client.chat(request, this.coreCallOptions(options)),
      );
      yield chunk;
      await runManager?.handleLLMNewToken(chunk.text, undefined, undefined, undefined, undefined, {
        chunk,
      });
      return;
    }
    const request = buildChatRequest(messages, this.settings(), this.callSettings(options), true);
    await this.checkBeforeSending(request, options.signal);
    const stream = await this.client.chatStream(request, this.coreCallOptions(options));
    const converter = new StreamChunkConverter(stream);
    let finished = false;
    try {
      // One await per network chunk rather than per event.
      for (let batch = await stream.readBatch(); batch; batch = await stream.readBatch()) {
        for (const event of batch) {
          const chunk = converter.convert(event);
          if (!chunk) continue;
          yield chunk;
          await runManager?.handleLLMNewToken(
            chunk.text,
            undefined,
            undefined,
            undefined,
            undefined,
            {
              chunk,
            },
          );
        }
      }
      finished = true;
    } finally {
      // A consumer that stops early (break, abort) frees the slot at once.
      if (!finished) await stream.cancel().catch(() => undefined);
    }
    const last = converter.finish();
    yield last;
    await runManager?.handleLLMNewToken('', undefined, undefined, undefined, undefined, {
      chunk: last,
    });
  }

  /** LangChain's content-block event stream, finished with the real reason and metadata. */
  override async *_streamChatModelEvents(
    messages: BaseMessage[],
    options: this['ParsedCallOptions'],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatModelStreamEvent> {
    let metadata: Record<string, unknown> | undefined;
    const chunks = this._streamResponseChunks(messages, options, runManager);
    async function* remember(): AsyncGenerator<ChatGenerationChunk> {
      for await (const chunk of chunks) {
        if (Object.keys(chunk.message.response_metadata ?? {}).length > 0) {
          metadata = chunk.message.response_metadata;
        }
        yield shiftToolBlocks(chunk);
      }
    }
    for await (const event of convertChunksToEvents(remember(), { signal: options.signal })) {
      if (event.event === 'message-finish' && metadata) {
        yield {
          ...event,
          reason: mapFinishReason(metadata.finish_reason as string | undefined),
          responseMetadata: metadata,
        };
      } else {
        yield event;
      }
    }
  }

  // -------------------------------------------------------------------------------------------

  private settings(): ChatModelSettings {
    return {
      model: this.model,
      temperature: this.temperature,
      maxTokens: this.maxTokens,
      topP: this.topP,
      stop: this.stop,
      seed: this.seed,
      modelKwargs: this.modelKwargs,
      acceptsContentParts: this.acceptsContentParts,
      sendReasoning: this.sendReasoning,
    };
  }

  private callSettings(options?: Partial<GatewayChatModelCallOptions>): ChatCallSettings {
    return {
      stop: options?.stop,
      tools: options?.tools,
      tool_choice: options?.tool_choice,
      response_format: options?.response_format,
      strict: options?.strict,
      modelKwargs: options?.modelKwargs,
    };
  }

  /**
   * Core's options for one call. Core is the one retry layer (LangChain's AsyncCaller is not used
   * for chat calls): the call's `maxRetries` over the model's, and the model's `timeout` as the
   * deadline (a call's `timeout` reaches us as an `AbortSignal.timeout`, read as `timeout` too).
   */
  private coreCallOptions(options: this['ParsedCallOptions']): CallOptions {
    return callOptions({
      ...options,
      maxRetries: options.maxRetries ?? this.maxRetries,
      timeout: options.timeout ?? this.timeout,
    });
  }

  /** Passed capabilities, else those learned for the current `model` id. */
  private knownCapabilities(): readonly string[] | undefined {
    if (this.capabilities) return this.capabilities;
    return this.#learned?.model === this.model ? this.#learned.capabilities : undefined;
  }

  /** Refuses at once when the capabilities were passed; otherwise the request-time gate does. */
  private assertKnown(needs: ModelCapability[], purpose: string): void {
    if (!this.capabilities) return;
    checkCapabilities({
      model: this.model,
      capabilities: this.capabilities,
      catalog: this.#catalog,
      needs,
      purpose,
    });
  }

  private pickMethod(
    capabilities: readonly string[],
    catalog: readonly GatewayModel[] | undefined,
  ): StructuredOutputMethod {
    checkCapabilities({
      model: this.model,
      capabilities,
      catalog,
      needs: ['json_schema', 'tools', 'json_object'],
      anyOf: true,
      purpose: 'withStructuredOutput',
    });
    return defaultStructuredOutputMethod(capabilities)!;
  }

  /** Core's capability gate before any chat request (one cached catalog look-up at most). */
  private async checkBeforeSending(request: ChatRequest, signal?: AbortSignal): Promise<void> {
    throwIfAborted(signal);
    try {
      await this.loadCapabilities(signal, requiredCapabilities(request));
    } catch (error) {
      throw this.capabilities ? error : withCreateHint(error, this.knownCapabilities());
    }
  }

  /** Whether the model streams; true when unknown (an unlisted own model: the gateway decides). */
  private async canStream(signal?: AbortSignal): Promise<boolean> {
    throwIfAborted(signal);
    const capabilities = await this.loadCapabilities(signal);
    return capabilities === undefined || capabilities.includes('streaming');
  }

  /**
   * The model's capabilities through core's gate (checked against `needs`), remembered for
   * `profile` under the model id; undefined for an unlisted own model.
   */
  private async loadCapabilities(
    signal?: AbortSignal,
    needs: readonly ModelCapability[] = [],
  ): Promise<readonly string[] | undefined> {
    const model = this.model;
    const callOptions = signal ? { signal } : {};
    let known = this.capabilities;
    if (!known) {
      // Read from the client's cached catalog every time, so a changed catalog is seen.
      const listed = await this.client.resolveModel(model, callOptions);
      if (!listed) return undefined;
      known = [...capabilitiesOf(listed)];
      this.#learned = { model, capabilities: known };
    }
    return this.client.checkModel(model, needs, { ...callOptions, known });
  }
}

/** Defines a property that JSON.stringify, util.inspect and spreading do not show. */
function hidden(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: false,
    writable: true,
    configurable: true,
  });
}

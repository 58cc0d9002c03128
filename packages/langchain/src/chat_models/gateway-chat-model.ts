// docs/gateway-protocol.md §4, §5 (chat completions, streamed or not, as a LangChain chat model), §4.7
// (fallback models and stall timeouts, passed to core).
import {
  type CallOptions,
  type ChatCallOptions,
  type ChatRequest,
  type GatewayClient,
  resolveSteering,
  type SteeringOptions,
  type StructuredOutputOptions,
} from '@infergate/core';
import {
  apiKeyOrEnv,
  callEndedError,
  capabilitiesOf,
  checkCallOptions,
  checkCapabilities,
  keyKeptOut,
  namingSendReasoning,
  planChatCall,
  readCapabilityList,
  readFlags,
  readSteering,
  readToolArguments,
  refuseNearMisses,
  refuseUnsentModelHedge,
  streamsOptionally,
  validateChatRequest,
  withDeadlineStarted,
} from '@infergate/core/internal';
import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';
import type {
  BaseLanguageModelInput,
  StructuredOutputMethodOptions,
} from '@langchain/core/language_models/base';
import {
  BaseChatModel,
  type BindToolsInput,
  type LangSmithParams,
} from '@langchain/core/language_models/chat_models';
import type { ChatModelStreamEvent } from '@langchain/core/language_models/event';
import type { ModelProfile } from '@langchain/core/language_models/profile';
import type { AIMessageChunk, BaseMessage } from '@langchain/core/messages';
import type { ChatGenerationChunk, ChatResult } from '@langchain/core/outputs';
import { mergeConfigs, type Runnable, type RunnableConfig } from '@langchain/core/runnables';
import { AsyncCaller } from '@langchain/core/utils/async_caller';
import type { SerializableSchema } from '@langchain/core/utils/standard_schema';
import type { InteropZodType } from '@langchain/core/utils/types';
import { convertChatResult, convertChatResultToChunk } from '../converters/convert-chat-result';
import { readChatChunks } from '../converters/convert-stream-events';
import {
  convertToGatewayRequest,
  convertToInvocationParams,
  streamUsageOf,
} from '../converters/convert-to-gateway-request';
import { convertToGatewayTools } from '../converters/convert-to-gateway-tools';
import { joinStreamChunks } from '../converters/join-stream-chunks';
import { mapFinishReason } from '../converters/map-finish-reason';
import { combineTokenUsage, withTokenUsage } from '../converters/map-usage';
import { CHUNK_BLOCKS } from '../converters/reasoning-content-blocks';
import {
  callDeadline,
  callOptions,
  resolveClient,
  withSharedClient,
  withSignalTimeout,
} from '../utils/client';
import {
  configurationError,
  throwIfAborted,
  withCreateHint,
  withLangChainErrorCode,
  withLangChainErrors,
} from '../utils/errors';
import { loadLaterParts } from '../utils/load-lazily';
import { withCallerSignal } from '../utils/with-caller-signal';
import { agentStructuredOutput } from './agent-structured-output';
import { profileForList } from './capabilities';
import { ChatModelCapabilityGate } from './capability-gate';
import { refuseChatOpenAINames } from './chat-openai-names';
import {
  CLIENT_OPTION_HINTS,
  type GatewayChatModelCallOptions,
  type GatewayChatModelFields,
  KEPT_FIELDS,
  LANGCHAIN_KEYS,
  LANGCHAIN_SERIALIZABLE_FIELDS,
  OUR_FIELDS,
  SERIALIZABLE_FIELDS,
} from './gateway-chat-model-options';
import { refuseCallOptions, refuseSteeringKwargs } from './request-fields';
import { refuseStreamedChoices } from './streamed-choices';
import { structuredOutput } from './structured-output';

const PROVIDER = 'infergate';

/** No `onFailedAttempt` given: the error passes on as it is (LangChain's default would re-mark it). */
const passOn = () => {};

/**
 * What a copy (`withConfig`, `bindTools`) takes from the model as it is now: our fields and
 * LangChain's that a call reads (never `maxConcurrency`, the queue itself being shared).
 */
const COPIED_FIELDS: readonly string[] = [
  ...SERIALIZABLE_FIELDS,
  'disableStreaming',
  'outputVersion',
  'verbose',
  'tags',
  'metadata',
  'callbacks',
  'cache',
];

/** `new GatewayChatModel(model, fields)` and `(fields)` as one (copied) fields object. */
function fieldsOf(
  modelOrFields: string | GatewayChatModelFields,
  maybeFields?: Omit<GatewayChatModelFields, 'model'>,
): GatewayChatModelFields {
  return typeof modelOrFields === 'string'
    ? { ...maybeFields, model: modelOrFields }
    : { ...modelOrFields };
}

/**
 * The steering fields (`fallbackModels`, the stall timeouts, `hedge`, `structuredOutput`) are
 * core's group, `SteeringOptions`, declared there once with their docs: a new one needs no line here.
 */
export interface GatewayChatModel extends SteeringOptions {}

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

  /** Ours, and LangChain's own that `load()` can rebuild (`tags`, `metadata`, …), as `ChatOpenAI`'s. */
  override get lc_serializable_keys(): string[] {
    return [...SERIALIZABLE_FIELDS, ...LANGCHAIN_SERIALIZABLE_FIELDS];
  }

  /** `baseURL` is written `base_url`; without the alias `load()` would read it back as `baseUrl`. */
  override get lc_aliases(): Record<string, string> {
    return { baseURL: 'base_url' };
  }

  model: string;
  baseURL?: string | undefined;
  streaming: boolean;
  temperature?: number;
  maxTokens?: number;
  topP?: number;
  stop?: string[];
  stopSequences?: string[];
  seed?: number;
  frequencyPenalty?: number;
  presencePenalty?: number;
  logitBias?: Record<string, number>;
  user?: string;
  reasoningEffort?: string;
  timeout?: number;
  maxRetries?: number;
  modelKwargs?: Record<string, unknown>;
  capabilities?: readonly string[];
  acceptsContentParts: boolean;
  /** Unset: no reasoning goes back, as with `ChatOpenAI` (see the option's doc). */
  sendReasoning?: boolean;
  streamUsage?: boolean;
  /**
   * The key given to the constructor, if any. A private field with no getter: no property holds
   * it, so `util.inspect` (even with `showHidden` and `getters`), spreading and JSON never show it.
   * When a key was given, `toJSON` writes the `INFERGATE_API_KEY` secret reference in its place; a
   * key read from the environment leaves no entry (loading reads the environment again).
   */
  #apiKey: string | undefined;
  readonly #client: GatewayClient;
  #gate: ChatModelCapabilityGate;
  /** The fields as given, for `withConfig`'s copy (then given the model's current values). */
  readonly #fields: GatewayChatModelFields;
  /** Call options a `withConfig` (or `bindTools`) bound: under each call's own. */
  #defaults: Partial<GatewayChatModelCallOptions> = {};
  /** Built by `create`, which read the catalog first (so `profile` was known from the start). */
  #warmed = false;

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
    const fields = fieldsOf(modelOrFields, maybeFields);
    const model = fields.model ?? fields.modelName;
    // With a shared client, its base URL is the model's: serialisation keeps where it points. Not
    // known yet (`''`: INFERGATE_BASE_URL unset so far), it is left out: `load()` reads it then.
    if (fields.baseURL === undefined && fields.client?.baseURL) {
      fields.baseURL = fields.client.baseURL;
    }
    // Strict with ours, never with LangChain's: a near miss of one of our fields is refused. The
    // fields are never sent, so `base_url` / `api_key` are near misses too (not wire names).
    // (The key, pasted by mistake as a key's name at any depth, is never quoted in a refusal.)
    const secret = () => apiKeyOrEnv(typeof fields.apiKey === 'string' ? fields.apiKey : undefined);
    const capabilities = keyKeptOut(secret, () => {
      // ChatOpenAI's names first: each is refused saying what to use (`verbosity`, not `verbose`).
      refuseChatOpenAINames(fields, 'new GatewayChatModel', 'model setting');
      refuseNearMisses(
        fields,
        OUR_FIELDS,
        LANGCHAIN_KEYS,
        'new GatewayChatModel',
        'model setting',
        CLIENT_OPTION_HINTS,
        false,
      );
      refuseSteeringKwargs(fields.modelKwargs, 'model setting');
      // Core's reader: a list, else refused (`'chat'` is not spread into its letters).
      return readCapabilityList(fields.capabilities, 'model setting');
    });
    super(typeof model === 'string' ? { ...fields, model } : fields);
    if (typeof model !== 'string' || model === '') {
      throw configurationError('GatewayChatModel needs a model id (the `model` field)');
    }
    this.model = model;
    const self = this as Record<(typeof KEPT_FIELDS)[number], unknown>;
    for (const key of KEPT_FIELDS) self[key] = fields[key];
    // LangChain's base class leaves these to each model (as `ChatOpenAI` sets them): the queue
    // (`maxConcurrency`, `onFailedAttempt`) without its retries, core's being the one retry layer.
    this.caller = new AsyncCaller({
      maxConcurrency: fields.maxConcurrency,
      maxRetries: 0,
      onFailedAttempt: fields.onFailedAttempt ?? passOn,
    });
    this.disableStreaming = fields.disableStreaming === true;
    this.streaming = !this.disableStreaming && (fields.streaming ?? false);
    this.stop = fields.stop ?? fields.stopSequences;
    this.stopSequences = this.stop;
    this.capabilities = capabilities && [...capabilities];
    this.acceptsContentParts = fields.acceptsContentParts ?? true;
    // Core's one reader: a bad list, timeout or flag is refused here (configuration_error).
    const steering = readSteering(fields, 'model setting', model, secret);
    this.fallbackModels = steering.fallbackModels && [...steering.fallbackModels];
    readFlags(fields, ['sendReasoning', 'acceptsContentParts', 'streamUsage'], 'model setting');
    this.streamUsage = fields.streamUsage;
    this.#client = resolveClient(fields, 'new GatewayChatModel');
    this.#gate = new ChatModelCapabilityGate(this.#client, this);
    this.#apiKey = fields.apiKey;
    this.#fields = fields;
    if (this.streaming && this.#checksWhenBuilt) {
      this.#gate.assertKnown(['streaming'], 'streaming: true');
    }
  }

  /** The gateway client this model sends through (a private field: never serialised or shown). */
  get client(): GatewayClient {
    return this.#client;
  }

  /**
   * Loads the model's catalog entry first, so that `profile` is right from the start and
   * `streaming: true` is refused here. The catalog is warmed, not frozen into the model: core's gate
   * and `profile` read the client's current catalog at each call, as for a model built with `new`.
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
    return withLangChainErrors(() => GatewayChatModel.#create(modelOrFields, maybeFields));
  }

  static async #create(
    modelOrFields: string | GatewayChatModelFields,
    maybeFields?: Omit<GatewayChatModelFields, 'model'>,
  ): Promise<GatewayChatModel> {
    const fields = fieldsOf(modelOrFields, maybeFields);
    const model = fields.model ?? fields.modelName;
    readCapabilityList(fields.capabilities, 'model setting');
    const client = resolveClient(fields, 'GatewayChatModel.create');
    // With a fallback list core gates every listed model at each call, the first included: an
    // unlisted first model is not refused here (it is skipped then), and nothing is checked.
    const walksList = !planChatCall(fields).gatesWhenBuilt;
    // Core's rule: an unknown id is refused with close matches; an unlisted own model (my/...,
    // offline yet still answering, docs/gateway-protocol.md §3.1) resolves to undefined and stays unchecked.
    const listed = walksList
      ? (await client.models()).find((entry) => entry.id === model)
      : await client.resolveModel(model);
    const catalog = await client.models(); // cached by the look-up above
    const capabilities = fields.capabilities ?? (listed && capabilitiesOf(listed));
    if (fields.streaming && capabilities && !walksList) {
      // Checked here too, so that the refusal can name the models that stream.
      checkCapabilities({
        model,
        capabilities,
        catalog,
        needs: ['streaming'],
        purpose: 'streaming: true',
      });
    }
    // The connection and hooks went into the client made above: handed on beside it, they would
    // be refused. The key given is still the one serialised (as a secret reference).
    const instance = new GatewayChatModel(withSharedClient(fields, client));
    instance.#apiKey = fields.apiKey;
    instance.#gate.catalog = catalog;
    instance.#gate.learnFrom(listed);
    instance.#warmed = true;
    return instance;
  }

  _llmType(): string {
    return PROVIDER;
  }

  /**
   * Live capabilities → LangChain's model profile (createAgent reads it). With `fallbackModels`,
   * from each listed model's: `createAgent` then picks a way each of them serves.
   */
  override get profile(): ModelProfile {
    return profileForList(
      this.#gate.knownForList(),
      this.acceptsContentParts,
      this.structuredOutput?.methods,
    );
  }

  /** Traced as sent: a call's `max_tokens` or `modelKwargs` over the model's settings. */
  override getLsParams(options: this['ParsedCallOptions']): LangSmithParams {
    const sent = convertToInvocationParams(this, options);
    return {
      ls_provider: PROVIDER,
      ls_model_name: this.model,
      ls_model_type: 'chat',
      // (A call's `modelKwargs` are not typed: core refuses a value of another type at the call.)
      ls_temperature: sent.temperature as number | undefined,
      ls_max_tokens: sent.max_tokens as number | undefined,
      ls_stop: typeof sent.stop === 'string' ? [sent.stop] : (sent.stop as string[] | undefined),
    };
  }

  override invocationParams(options?: this['ParsedCallOptions']): Omit<ChatRequest, 'messages'> {
    return convertToInvocationParams(this, options, this.streaming);
  }

  override _identifyingParams(): Record<string, unknown> {
    return { model_name: this.model, ...this.invocationParams() };
  }

  /**
   * The same model with `config` as its call options' defaults (each call's own over them), as
   * `ChatOpenAI`'s `withConfig` does: still a chat model, so `bindTools`, `withStructuredOutput`,
   * `profile` and another `withConfig` work on it. It shares this model's client, capability
   * gate (what `profile` has learnt) and `maxConcurrency` queue, and takes its fields as they are.
   */
  override withConfig(config: Partial<GatewayChatModelCallOptions>): GatewayChatModel {
    const copy = new GatewayChatModel(withSharedClient(this.#fields, this.#client));
    // The model as it is now, not as it was built: a field set since (`model.temperature = 0.9`)
    // is what `invoke` sends, so its copies (`bindTools`, `createAgent`'s, structured output's)
    // send it too. Checked when a call is made, as the model's own are.
    const from = this as unknown as Record<string, unknown>;
    const to = copy as unknown as Record<string, unknown>;
    for (const key of COPIED_FIELDS) if (key in this) to[key] = from[key];
    // The same model: one `maxConcurrency` queue for it and every copy (an agent's calls too).
    copy.caller = this.caller;
    copy.#apiKey = this.#apiKey;
    copy.#gate = this.#gate;
    copy.#warmed = this.#warmed;
    copy.#defaults = mergeConfigs(this.#defaults, config) as Partial<GatewayChatModelCallOptions>;
    return copy;
  }

  /** The bound defaults under the call's options, joined as LangChain joins configs. */
  #withDefaults(
    options: Partial<GatewayChatModelCallOptions> | undefined,
  ): Partial<GatewayChatModelCallOptions> | undefined {
    return Object.keys(this.#defaults).length === 0
      ? options
      : (mergeConfigs(this.#defaults, options) as Partial<GatewayChatModelCallOptions>);
  }

  override bindTools(
    tools: BindToolsInput[],
    kwargs?: Partial<GatewayChatModelCallOptions>,
  ): GatewayChatModel {
    // Not checked here: the call's fallback list may come later (`invoke`'s options, or a
    // `withConfig` that `createAgent` binds over): core's gate checks the tools at each call,
    // against the model's known capabilities, and walks a list to a model with tools.
    // Converting now refuses malformed tools at bind time; the request converts again. (So the
    // converter is loaded at start, not on first use: LangChain's traced invocation params, read
    // synchronously before each call, convert the bound tools too.)
    convertToGatewayTools(tools, { strict: kwargs?.strict });
    if (kwargs) refuseCallOptions(kwargs, 'bindTools options', true);
    return this.withConfig({ ...kwargs, tools });
  }

  /**
   * A runnable that returns the answer as an object checked against `outputSchema` (zod 3/4,
   * standard schema or JSON schema). Core serves the schema on every model the call goes to, each
   * its own way (json_schema, a forced tool call, or json_object), and checks every answer;
   * `method` (`jsonSchema`, `functionCalling`, `jsonMode`) names the way tried first. An answer
   * that fails the check on every model it could use raises `OutputParserException`.
   * `includeRaw: true` returns `{ raw, parsed }`.
   */
  override withStructuredOutput<
    RunOutput extends Record<string, unknown> = Record<string, unknown>,
  >(
    outputSchema:
      | InteropZodType<RunOutput>
      | SerializableSchema<RunOutput>
      | Record<string, unknown>,
    config?: StructuredOutputMethodOptions<false>,
  ): Runnable<BaseLanguageModelInput, RunOutput, GatewayChatModelCallOptions>;
  override withStructuredOutput<
    RunOutput extends Record<string, unknown> = Record<string, unknown>,
  >(
    outputSchema:
      | InteropZodType<RunOutput>
      | SerializableSchema<RunOutput>
      | Record<string, unknown>,
    config?: StructuredOutputMethodOptions<true>,
  ): Runnable<
    BaseLanguageModelInput,
    { raw: BaseMessage; parsed: RunOutput },
    GatewayChatModelCallOptions
  >;
  override withStructuredOutput<
    RunOutput extends Record<string, unknown> = Record<string, unknown>,
  >(
    outputSchema: unknown,
    config?: StructuredOutputMethodOptions<boolean>,
  ): Runnable<
    BaseLanguageModelInput,
    RunOutput | { raw: BaseMessage; parsed: RunOutput },
    GatewayChatModelCallOptions
  > {
    // Core chooses how each model serves the schema, at each call: nothing is chosen here.
    return structuredOutput<RunOutput>(this, outputSchema, config);
  }

  async _generate(
    messages: BaseMessage[],
    options: this['ParsedCallOptions'],
    runManager?: CallbackManagerForLLMRun,
  ): Promise<ChatResult> {
    if (this.streaming) {
      return withTokenUsage(
        await joinStreamChunks(this._streamResponseChunks(messages, options, runManager)),
      );
    }
    return withLangChainErrors(async () => {
      const request = convertToGatewayRequest(messages, this, options);
      const callOptions = this.#callOptions(options);
      try {
        const result = await this.#queued(callOptions, async (started, lookup) => {
          // Core gates the call (its catalog read one of the call's requests); the capabilities
          // are then learnt for `profile` from the catalog it read.
          const answer = await this.#client.chat(request, started);
          await this.#gate.learnAfterCall(lookup);
          return answer;
        });
        return withTokenUsage(convertChatResult(result));
      } catch (error) {
        throw this.#withHint(error, options);
      }
    });
  }

  /**
   * A call's `timeout` becomes LangChain's signal, its number kept only in the config's metadata:
   * the model's options carry it on, so that core has it as the call's deadline too.
   */
  protected override _separateRunnableConfigFromCallOptionsCompat(
    options?: Partial<GatewayChatModelCallOptions>,
  ): [RunnableConfig, this['ParsedCallOptions']] {
    // Every entry (invoke, stream, streamEvents, generate) passes here once: the bound defaults
    // join the call's options here, and only here.
    const [config, parsed] = super._separateRunnableConfigFromCallOptionsCompat(
      this.#withDefaults(options),
    );
    return [config, withSignalTimeout(parsed, config.metadata)];
  }

  override _combineLLMOutput(...outputs: (Record<string, unknown> | undefined)[]) {
    return combineTokenUsage(...outputs);
  }

  /**
   * `.stream()`'s chunks (a bound model's too): a consumer that leaves (`break`, a cancelled
   * stream) aborts the call, also while LangChain's read-ahead waits for the model's next chunk,
   * so its request and key slot end at once. A chain's or `streamEvents`' consumer leaves
   * LangChain's own generator, which never reaches this one in time: the README's AbortSignal
   * covers those.
   */
  override _streamIterator(
    input: BaseLanguageModelInput,
    options?: Partial<GatewayChatModelCallOptions>,
  ): AsyncGenerator<AIMessageChunk> {
    // LangChain reads one chunk ahead: leaving aborts that read (the model may be silent for
    // long) and the request now.
    // (A bound signal too; the defaults themselves join the options where the config is split.)
    const given = options?.signal ?? this.#withDefaults(options)?.signal;
    return withCallerSignal(given, (signal) =>
      super._streamIterator(input, { ...options, signal }),
    );
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this['ParsedCallOptions'],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    try {
      const chunks = await this.#answerChunks(messages, options).catch((error: unknown) => {
        throw this.#withHint(error, options);
      });
      for await (const chunk of chunks) {
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
      // A stream's capabilities, for `profile` (a whole answer's were learnt in its call).
      if (!Array.isArray(chunks)) await this.#gate.learnAfterCall({ signal: options.signal });
    } catch (error) {
      throw withLangChainErrorCode(error);
    }
  }

  /** LangChain's content-block event stream, finished with the real reason and metadata. */
  override async *_streamChatModelEvents(
    messages: BaseMessage[],
    options: this['ParsedCallOptions'],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatModelStreamEvent> {
    const { convertToChatModelEvents } = await loadLaterParts();
    const chunks = this._streamResponseChunks(messages, options, runManager);
    yield* convertToChatModelEvents(chunks, options.signal, {
      mapReason: mapFinishReason,
      parseArguments: readToolArguments,
      blocks: CHUNK_BLOCKS,
    });
  }

  /**
   * The answer as stream chunks. `.stream()` (or a streaming callback such as streamEvents) on a
   * model without `streaming` asks without streaming and hands the whole answer over as one
   * chunk, as LangChain does for any model that cannot stream; `streaming: true` is refused
   * instead (by core's gate). Whether the model streams is core's answer (`planChatCall`): a
   * model not known to stream (unlisted; a fallback list with a model not known to stream) is
   * asked whole.
   */
  async #answerChunks(
    messages: BaseMessage[],
    options: this['ParsedCallOptions'],
  ): Promise<Iterable<ChatGenerationChunk> | AsyncIterable<ChatGenerationChunk>> {
    const callOptions = this.#callOptions(options);
    const request = convertToGatewayRequest(messages, this, options);
    // Checked before the catalog read that says whether it streams: a request core would refuse
    // (no messages, a field out of range) sends nothing, as on `invoke`.
    refuseStreamedChoices(validateChatRequest(request));
    return this.#queued(callOptions, async (started, lookup) => {
      // Core's rule: stream when the model (over a list: every listed model) is known to.
      const stream =
        this.streaming || (!this.disableStreaming && (await this.#streams(options, lookup)));
      if (stream) {
        // The stream holds its place in the queue until it is open, as `ChatOpenAI`'s does. Its
        // capabilities are learnt once it is read (`_streamResponseChunks`): a catalog read now
        // could wait for the stream's own slot.
        const streamUsage = streamUsageOf(this, options);
        const stream = await this.#client.chatStream(request, { ...started, streamUsage });
        return readChatChunks(stream, started.signal);
      }
      const chunk = convertChatResultToChunk(await this.#client.chat(request, started));
      await this.#gate.learnAfterCall(lookup);
      return [chunk];
    });
  }

  /**
   * Whether `.stream()` streams: core's answer (`planChatCall`), given the model's capabilities
   * (read before the call, which must know them). Over a fallback list, core is given each listed
   * model's catalog capabilities (the cached catalog).
   */
  async #streams(options: this['ParsedCallOptions'], lookup: CallOptions): Promise<boolean> {
    const known = await this.#gate.learn(lookup);
    const plan = planChatCall(this, options, known);
    if (plan.models === 'one') return streamsOptionally(plan);
    return streamsOptionally(planChatCall(this, options, known, await this.#gate.listed(lookup)));
  }

  /**
   * One gateway call (its catalog read and its chat) through LangChain's queue (the model's
   * `maxConcurrency`; `onFailedAttempt` sees its error, marked as LangChain's), as `ChatOpenAI`
   * sends each request. Its deadline starts as it leaves the queue, as `ChatOpenAI`'s timeout
   * starts when its request is sent: `call` gets the chat's options and the gate's look-ups'
   * (only what a look-up reads), both with it started, one deadline for the read and the chat.
   * The queue never retries (core does). An abort while queued rejects at once, with core's
   * error for it, nothing sent; an abort once the call has left the queue rejects with the call's
   * own error (core ends at once on the same signal), its route and failover summary kept — or,
   * when it has not ended within `OWN_ERROR_GRACE_MS` (a custom fetch deaf to its signal holds
   * core's call until it answers), with core's error for the abort.
   */
  async #queued<T>(
    callOptions: ChatCallOptions,
    call: (started: ChatCallOptions, lookup: CallOptions) => Promise<T>,
  ): Promise<T> {
    const { signal, timeoutMs, maxRetries } = callOptions;
    throwIfAborted(signal);
    let sent: Promise<T> | undefined;
    const marked = () => {
      // The gate's catalog look-ups get what a look-up reads: the call's signal, deadline and
      // retries (§4.2: `maxRetries: 0` reads once), not its headers (its chat request's; core's own
      // gate reads without them too), steering or capabilities. The chat's options take the same
      // deadline start (a symbol key) by the spread.
      const lookup = withDeadlineStarted({ signal, timeoutMs, maxRetries });
      sent = call({ ...callOptions, ...lookup }, lookup).catch((error: unknown) => {
        throw withLangChainErrorCode(error);
      });
      return sent;
    };
    try {
      return await this.caller.callWithOptions({ signal }, marked);
    } catch (error) {
      // The queue's own abort race rejects with the signal's reason, before the call it ends: that
      // call's error (core's, with its route) once it has left the queue, else core's error for it.
      if (!signal?.aborted) throw error;
      throw (await ownError(sent)) ?? callEndedError(signal.reason);
    }
  }

  /**
   * Core's options for one call. Core is the one retry layer (LangChain's AsyncCaller only queues
   * chat calls, never retrying them): the call's `maxRetries` over the model's, and the model's
   * `timeout` as the deadline (a call's `timeout` reaches us as an `AbortSignal.timeout`, read as
   * `timeout` too), started by `#queued` as the call leaves the queue. The capabilities known go
   * to core's gate; the steering is the call's over the model's (core's `resolveSteering`: a
   * call's `fallbackModels: []` turns the model's off), read by core's one reader now: a bad call
   * option is refused before the call waits in the queue or reads the catalog.
   */
  #callOptions(options: this['ParsedCallOptions']): ChatCallOptions {
    // (The key, pasted by mistake as an option's name at any depth, is never quoted.)
    const { steering, structuredOutput } = keyKeptOut(
      () => apiKeyOrEnv(this.#apiKey),
      () => {
        refuseCallOptions(options, 'call options');
        const steering = resolveSteering(this, options);
        readSteering(steering, 'call option', this.model);
        // A hedge the model's settings and the call's leave unsent: each value named as whose
        // (the call's `timeout` is its signal's by now).
        refuseUnsentModelHedge(this, options, callDeadline(this.timeout, options));
        const given = agentStructuredOutput(options, options.structuredOutput);
        return { steering, structuredOutput: this.#structuredOutput(given) };
      },
    );
    const chatOptions: ChatCallOptions = {
      ...callOptions({
        ...options,
        maxRetries: options.maxRetries ?? this.maxRetries,
        timeout: options.timeout ?? this.timeout,
      }),
      capabilities: this.capabilities,
      ...steering,
      ...(structuredOutput && { structuredOutput }),
    };
    // Core's check of them, now as core's calls check them when they begin: `.stream()` reads the
    // catalog (whether the model streams) before core's call begins, and a refused option (an
    // `Authorization` header) must stop it with nothing sent (rv-fix2 F4).
    keyKeptOut(
      () => apiKeyOrEnv(this.#apiKey),
      () => checkCallOptions(chatOptions),
    );
    return chatOptions;
  }

  /**
   * The call's `structuredOutput` over the model's, key by key: `standard` is a call's only (what
   * `withStructuredOutput` sends), so a call that gives it keeps the model's `methods`.
   */
  #structuredOutput(
    call: StructuredOutputOptions | null | undefined,
  ): StructuredOutputOptions | undefined {
    // (`null`: not given, as the call's other options; it threw a TypeError reading `methods`.)
    if (call == null) return this.structuredOutput;
    const methods = call.methods ?? this.structuredOutput?.methods;
    return { ...call, ...(methods && { methods }) };
  }

  /**
   * Core's capability refusal, with the `create` hint when the model was built with `new` and
   * without capabilities (its profile was empty when `createAgent` read it) and the call is
   * `createAgent`'s tool strategy for `responseFormat` (`withCreateHint`). The capabilities are
   * those core's gate refused with (on its error, learnt for `profile` too): no request is made
   * after the call failed, and the error is never delayed or replaced. A thinking model's 400 for
   * a turn sent back without its reasoning names `sendReasoning: true` when this model left it out,
   * and Groq's 400 for one sent with it `sendReasoning: false` (core's `namingSendReasoning`).
   */
  #withHint(error: unknown, options: this['ParsedCallOptions']): unknown {
    namingSendReasoning(error, this.sendReasoning ?? false);
    if (this.capabilities || this.#warmed) return error;
    this.#gate.learnFromRefusal(error);
    return withCreateHint(error, this.#gate.known(), options);
  }

  /**
   * Whether the capability check made when the model is built (`streaming: true`, with
   * `capabilities` known) applies: not with a fallback list, whose models core gates one by one
   * at each call.
   */
  get #checksWhenBuilt(): boolean {
    return planChatCall(this).gatesWhenBuilt;
  }
}

/** How long an aborted call's own error is waited for before the abort's is thrown instead. */
const OWN_ERROR_GRACE_MS = 100;

/** The error `sent` ends with, if it ends within `OWN_ERROR_GRACE_MS`; undefined otherwise. */
async function ownError(sent: Promise<unknown> | undefined): Promise<unknown> {
  if (sent === undefined) return undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), OWN_ERROR_GRACE_MS);
  });
  try {
    return await Promise.race([
      sent.then(
        () => undefined,
        (ended: unknown) => ended,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

// docs/gateway-protocol.md §4 (chat completions: the request §4.1, the capability gate §4.2, the answer §4.3, fallback §4.6,
// failover and stall timeouts §4.7).
import {
  InvalidArgumentError,
  type LanguageModelV4,
  type LanguageModelV4CallOptions,
  type LanguageModelV4Content,
  type LanguageModelV4GenerateResult,
  type LanguageModelV4StreamResult,
  type SharedV4Warning,
} from '@ai-sdk/provider';
import {
  type ChatCallOptions,
  type ChatRequest,
  type ChatStream,
  isGatewayError,
  type ResponseFormat,
  resolveSteering,
} from '@infergate/core';
import {
  buildChatRequest,
  ENDPOINTS,
  failedReadPath,
  keyKeptOut,
  namingSendReasoning,
  readFlags,
  readMessagePieces,
  readSteering,
  refuseUnknownOptions,
  refuseUnsentModelHedge,
  streamedChatRequest,
} from '@infergate/core/internal';
import {
  AI_RETRIES,
  endpointURL,
  type GatewayModelConfig,
  headersToRecord,
} from '../shared/gateway-model-config';
import { mapGatewayError, SETTINGS_CONTEXT } from '../shared/map-gateway-error';
import { withUserAgent } from '../shared/user-agent';
import { type GatewayChatOptions, readChatProviderOptions } from './chat-provider-options';
import { convertGatewayChatStream, refusedAnswerStream } from './convert-gateway-chat-stream';
import { convertGatewayUsage } from './convert-gateway-usage';
import { convertToGatewayChatMessages } from './convert-to-gateway-chat-messages';
import {
  type GatewayChatModelId,
  type GatewayChatModelSettings,
  MODEL_SETTING_KEYS,
  REMOVED_MODEL_SETTINGS,
} from './gateway-chat-options';
import { generatedFileParts, imageLinks } from './generated-files';
import { hopRequestBody } from './hop-request-body';
import { InvalidStructuredOutputError } from './invalid-structured-output-error';
import { mapGatewayFinishReason } from './map-gateway-finish-reason';
import {
  answeringResponse,
  type OpenedAtHeaders,
  openAtHeaders,
  openedSource,
} from './opened-at-headers';
import { type PreparedTools, prepareTools } from './prepare-tools';
import { providerMetadata } from './provider-metadata';
import { refuseStreamedChoices } from './streamed-choices';
import { toolCallInput } from './tool-call-input';
import { toolCallMetadata } from './tool-call-metadata';
import { UnsupportedModelCapabilityError } from './unsupported-model-capability-error';

interface PreparedChatRequest {
  body: ChatRequest;
  warnings: SharedV4Warning[];
  /** What `providerOptions.infergate` set for this call besides request fields. */
  settings: GatewayChatOptions;
}

/** A gateway chat model as an AI SDK `LanguageModelV4`. */
export class GatewayChatLanguageModel implements LanguageModelV4 {
  readonly specificationVersion = 'v4';
  readonly modelId: GatewayChatModelId;
  /** Image URLs are passed to the gateway as they are instead of being downloaded first. */
  readonly supportedUrls: Record<string, RegExp[]> = { 'image/*': [/^https?:\/\/.+$/] };

  private readonly settings: GatewayChatModelSettings;
  private readonly config: GatewayModelConfig;

  constructor(
    modelId: GatewayChatModelId,
    settings: GatewayChatModelSettings,
    config: GatewayModelConfig,
  ) {
    // Core's one reader refuses a bad steering setting or flag, or an unknown key now
    // (`configuration_error`), not at a call.
    try {
      // (The provider's key kept out of every refusal, a group's too: `hedge: { [key]: 1 }`.)
      keyKeptOut(config.sentKey, () => {
        refuseUnknownOptions(
          settings,
          MODEL_SETTING_KEYS,
          'model settings',
          'model setting',
          REMOVED_MODEL_SETTINGS,
        );
        readSteering(settings, 'model setting', modelId);
        readFlags(settings, ['sendReasoning', 'strictJsonSchema'], 'model setting');
      });
    } catch (error) {
      throw mapGatewayError(error, SETTINGS_CONTEXT);
    }
    this.modelId = modelId;
    this.settings = settings;
    this.config = config;
  }

  get provider(): string {
    return this.config.provider;
  }

  async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    const { body, warnings, settings } = this.prepareRequest(options);
    const client = this.config.client();

    let result: Awaited<ReturnType<typeof client.chat>>;
    try {
      result = await client.chat(body, this.callOptions(options, settings));
    } catch (error) {
      throw this.mapError(error, body);
    }

    const { response, answer } = result;
    // Core read choice 0 tolerantly (content parts, reasoning fields, tool-call ids), and JSON
    // asked for with no schema by its fence rule, as a schema's.
    const content: LanguageModelV4Content[] = answerPieces(response, answer);
    for (const toolCall of answer.toolCalls) {
      content.push({
        type: 'tool-call',
        toolCallId: toolCall.id,
        toolName: toolCall.name,
        input: toolCallInput(toolCall.arguments),
        // Gemini's thought signature rides here to the next step (tool-call-metadata.ts).
        ...toolCallMetadata(toolCall.extraContent),
      });
    }
    // Audio and images the model generated: `file` parts, as `doStream` gives them.
    content.push(...generatedFileParts(answer));

    return {
      content,
      // A refused answer: core reports `content_filter`; the raw reason is the server's.
      finishReason: mapGatewayFinishReason(answer.finishReason, answer.sentFinishReason),
      // What the call spent: every hop's answer (a refused one's too); the answer's own is in
      // `providerMetadata.infergate.usage`.
      usage: convertGatewayUsage(response.usage, result.route),
      // (Images given as links: `images`, not file parts ai would download.)
      providerMetadata: providerMetadata(result, response.usage, imageLinks(answer)),
      // The body of the hop that answered (after a failover, naming its model).
      request: { body: hopRequestBody(body, result.route) },
      response: {
        ...(answer.id !== undefined ? { id: answer.id } : {}),
        modelId: result.servedModel,
        ...(answer.created !== undefined ? { timestamp: new Date(answer.created * 1000) } : {}),
        headers: headersToRecord(result.headers),
        body: response,
      },
      warnings,
    };
  }

  async doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    const { body, warnings, settings } = this.prepareRequest(options);
    refuseStreamedChoices(body);
    const client = this.config.client();
    const { streamUsage } = settings;
    // The body as core sends it (stream_options by the same rule), for `request.body`.
    const sent = streamedChatRequest(body, streamUsage ?? this.config.streamUsage);

    const mapError = (failure: unknown) => this.mapError(failure, sent);
    let opened: OpenedAtHeaders;
    try {
      // Handed on once an attempt's headers are in (ai's `timeout.firstChunkMs` runs from then);
      // what core reads before its stream opens (its first event, a stall's failover) is read
      // inside the stream.
      // (`signal`: the caller's, and the stream's cancel before core's stream opened.)
      opened = await openAtHeaders(
        (onHeaders, signal) =>
          client.chatStream(body, {
            ...this.callOptions(options, settings),
            signal,
            streamUsage,
            // `raw` parts carry each SSE chunk's JSON (as @ai-sdk/openai-compatible's do): core keeps them.
            ...(options.includeRawChunks === true && { rawChunks: true }),
            onHeaders,
          }),
        options.abortSignal,
      );
    } catch (error) {
      // An answer the schema check refused was spent: its usage comes in a `finish` part.
      if (!isGatewayError(error) || error.code !== 'invalid_structured_output') {
        throw mapError(error);
      }
      const stream = refusedAnswerStream(error, { warnings, mapError });
      return { stream, request: { body: hopRequestBody(sent, error) } };
    }
    const stream = convertGatewayChatStream(openedSource(opened), {
      warnings,
      includeRawChunks: options.includeRawChunks,
      mapError,
      providerMetadata: (usage, links) =>
        providerMetadata(opened.stream as ChatStream, usage, links),
      route: () => opened.stream?.route,
      opened: opened.settled,
    });
    // Read by ai once the stream's first parts came (core's stream opened, or failed): the body
    // of the hop that answered, or whose failure ended the call.
    const request = {
      get body() {
        return hopRequestBody(sent, opened.stream?.route ?? opened.failure);
      },
    };
    return { stream, request, response: answeringResponse(opened) };
  }

  /**
   * Builds the gateway request. Core gates the call and, for a schema, decides per model how it is
   * asked (json_schema, a forced tool call, json_object) and checks the answer: the request carries
   * the schema as `json_schema` whatever the model.
   */
  private prepareRequest(options: LanguageModelV4CallOptions): PreparedChatRequest {
    const { settings, extraFields } = readChatProviderOptions(
      options.providerOptions,
      this.config.sentKey,
    );
    const warnings = unsupportedSettingWarnings(options);
    const tools = prepareTools(options);
    warnings.push(...tools.warnings);
    const reasoningEffort = reasoningEffortOf(options.reasoning, settings, warnings);

    const conversion = {
      sendReasoning: this.settings.sendReasoning,
      sentKey: this.config.sentKey,
      warnings,
    };
    const strict = settings.strictJsonSchema ?? this.settings.strictJsonSchema;
    const body = buildChatRequest({
      ...requestFields(this.modelId, options, tools, extraFields),
      messages: convertToGatewayChatMessages(options.prompt, conversion),
      responseFormat: mapResponseFormat(options.responseFormat, strict),
      // Over a raw `reasoning_effort` field (core sets it after the fields), as
      // @ai-sdk/openai-compatible sets its named one after the raw fields; without either the
      // raw field is sent.
      reasoningEffort,
      // `verbosity` is the wire field (over a raw one), as @ai-sdk/openai-compatible sends it.
      extraFields:
        settings.textVerbosity === undefined
          ? extraFields
          : { ...extraFields, verbosity: settings.textVerbosity },
    });
    return { body, warnings, settings };
  }

  /**
   * Core's options for one call: the abort signal, headers, the known capabilities for core's gate,
   * and the steering (the call's over the model's: core's `resolveSteering`). One round (`ai`
   * retries): a fallback list is walked once per `doGenerate` / `doStream`. A schema's last answer
   * that fails core's check is handed to `ai` (`lastAnswer: 'returned'`), JSON or not: `ai` parses
   * it and validates it with the caller's own schema, which the JSON Schema it sent may not carry
   * whole (a regex's flags, `z.coerce`), and fails it (NoObjectGeneratedError) or repairs it
   * (`repairText`) by its own rules, as with any provider — unless the call set its own
   * `structuredOutput.lastAnswer`.
   */
  private callOptions(
    options: LanguageModelV4CallOptions,
    settings: GatewayChatOptions,
  ): ChatCallOptions {
    // A hedge the model's settings and the call's leave unsent: each value named as whose.
    refuseUnsentModelHedge(this.settings, settings);
    const call: ChatCallOptions = {
      signal: options.abortSignal,
      headers: withUserAgent(options.headers, false),
      maxRetries: AI_RETRIES,
      capabilities: this.settings.capabilities,
      ...resolveSteering(this.settings, settings),
    };
    // A call's own `lastAnswer` wins: 'checked' fails the call with core's typed error instead.
    const given = call.structuredOutput;
    const schema = options.responseFormat?.type === 'json' && options.responseFormat.schema;
    if (schema && given?.lastAnswer === undefined) {
      call.structuredOutput = { ...given, lastAnswer: 'returned' };
    }
    return call;
  }

  /**
   * Core's error as the AI SDK's; core's capability refusal (before any request) and its failed
   * schema check (every model's answer refused, none handed on) as ours.
   */
  private mapError(error: unknown, body: ChatRequest): unknown {
    if (isGatewayError(error) && error.code === 'unsupported_model_capability' && !error.status) {
      return new UnsupportedModelCapabilityError(error);
    }
    if (isGatewayError(error) && error.code === 'invalid_structured_output') {
      return new InvalidStructuredOutputError(error);
    }
    // A thinking model's 400 for a turn sent back without its reasoning (`sendReasoning: false`),
    // or Groq's for one sent with it: the setting named in the message (core's words and rule).
    namingSendReasoning(error, this.settings.sendReasoning);
    // A failed catalog read of core's gate (`GET /models`): reported against it, no body sent.
    const readPath = failedReadPath(error);
    return mapGatewayError(error, {
      url: endpointURL(this.config, readPath ?? ENDPOINTS.chat),
      // A steered call's: the body of the hop whose failure ended it (core's, on its error).
      requestBodyValues: readPath === undefined ? hopRequestBody(body, error) : undefined,
      sentKey: this.config.sentKey,
      maxRetryAfterMs: this.config.maxRetryAfterMs,
    });
  }
}

/**
 * The request fields of a call, for core's `buildChatRequest` (which also takes messages and
 * format). A field `providerOptions.infergate` sets (`temperature`, `max_tokens`, …) is sent over
 * the call option (left out here: core's named options would win), as `@ai-sdk/openai-compatible`
 * and the embeddings' `dimensions` have it: the provider's option refines the generic one.
 */
function requestFields(
  modelId: string,
  options: LanguageModelV4CallOptions,
  tools: PreparedTools,
  extraFields: Record<string, unknown> | undefined,
) {
  const unless = <T>(field: string, value: T): T | undefined =>
    extraFields?.[field] != null ? undefined : value;
  return {
    model: modelId,
    temperature: unless('temperature', options.temperature),
    maxTokens: unless('max_tokens', options.maxOutputTokens),
    topP: unless('top_p', options.topP),
    stop: unless('stop', options.stopSequences),
    seed: unless('seed', options.seed),
    presencePenalty: unless('presence_penalty', options.presencePenalty),
    frequencyPenalty: unless('frequency_penalty', options.frequencyPenalty),
    tools: tools.tools,
    toolChoice: tools.toolChoice,
  };
}

/**
 * The answer's text and reasoning as content parts in the order the message sent them (core's
 * `readMessagePieces`: Mistral's `thinking` parts between text parts, a `refusal` after the
 * content, each its own part), as a stream gives them. When core's answer differs from the
 * message's pieces (JSON taken out of a fence for a schema), its reasoning and text as core read them.
 */
function answerPieces(
  response: { choices?: readonly { message?: unknown }[] },
  answer: { text: string; reasoning?: string },
): LanguageModelV4Content[] {
  const message = response.choices?.[0]?.message;
  const pieces =
    typeof message === 'object' && message !== null
      ? readMessagePieces(message as Record<string, unknown>)
      : [];
  const joined = (type: string) =>
    pieces
      .filter((piece) => piece.type === type)
      .map((piece) => piece.text)
      .join('');
  if (joined('text') === answer.text && joined('reasoning') === (answer.reasoning ?? '')) {
    return pieces.map(({ type, text }) => ({ type, text }));
  }
  const content: LanguageModelV4Content[] = [];
  if (answer.reasoning !== undefined) content.push({ type: 'reasoning', text: answer.reasoning });
  if (answer.text.length > 0) content.push({ type: 'text', text: answer.text });
  return content;
}

/** `topK`, which the gateway has no field for, is warned about and not sent. */
function unsupportedSettingWarnings(options: LanguageModelV4CallOptions): SharedV4Warning[] {
  if (options.topK == null) return [];
  const details =
    'The gateway has no field for it; send it through providerOptions.infergate if your model server reads one.';
  return [{ type: 'unsupported', feature: 'topK', details }];
}

/**
 * The `reasoning_effort` to send: `providerOptions.infergate.reasoningEffort` as given, else ai's
 * `reasoning` call option as OpenAI-compatible servers read it — each level as itself, except
 * `'max'`, which OpenAI's `reasoning_effort` has no word for: sent as the next lower, `'xhigh'`,
 * with a `compatibility` warning (as ai maps a level a provider lacks). `'provider-default'`
 * sends nothing.
 */
function reasoningEffortOf(
  reasoning: LanguageModelV4CallOptions['reasoning'],
  settings: GatewayChatOptions,
  warnings: SharedV4Warning[],
): string | undefined {
  if (reasoning !== undefined && typeof reasoning !== 'string') {
    throw new InvalidArgumentError({
      argument: 'reasoning',
      message: `reasoning is a ${typeof reasoning}; allowed: 'provider-default', 'none', 'minimal', 'low', 'medium', 'high', 'xhigh' or 'max'`,
    });
  }
  if (settings.reasoningEffort !== undefined) return settings.reasoningEffort;
  if (reasoning === undefined || reasoning === 'provider-default') return undefined;
  if (reasoning !== 'max') return reasoning;
  warnings.push({
    type: 'compatibility',
    feature: 'reasoning',
    details:
      'reasoning "max" has no reasoning_effort value: sent as "xhigh". Send another value as providerOptions.infergate.reasoningEffort.',
  });
  return 'xhigh';
}

/**
 * ai's `responseFormat` as the gateway's: a schema as `json_schema` (its name, else `response`, as
 * core names a schema; `strict` when a setting gives it), none as `json_object`.
 */
function mapResponseFormat(
  responseFormat: LanguageModelV4CallOptions['responseFormat'],
  strict: boolean | undefined,
): ResponseFormat | undefined {
  if (responseFormat?.type !== 'json') return undefined;
  if (responseFormat.schema === undefined) return { type: 'json_object' };
  const { name, description } = responseFormat;
  return {
    type: 'json_schema',
    json_schema: {
      name: name ?? 'response',
      schema: responseFormat.schema as Record<string, unknown>,
      ...(description !== undefined ? { description } : {}),
      ...(strict !== undefined ? { strict } : {}),
    },
  };
}

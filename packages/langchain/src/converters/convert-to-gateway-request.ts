// docs/gateway-protocol.md §4.1 (the request body: LangChain's settings mapped onto core's builder;
// reasoning effort),
// §5.6 (usage asked for in a stream).
import type { ChatRequest, ResponseFormat } from '@infergate/core';
import {
  buildChatRequest,
  type ChatRequestOptions,
  streamedChatRequest,
} from '@infergate/core/internal';
import type { BaseMessage } from '@langchain/core/messages';
import type {
  GatewayChatModelCallOptions,
  GatewayResponseFormat,
} from '../chat_models/gateway-chat-model-options';
import { requestFieldsOf } from '../chat_models/request-fields';
import { convertToGatewayMessages } from './convert-to-gateway-messages';
import { convertToGatewayTools } from './convert-to-gateway-tools';
import { mapToolChoice } from './map-tool-choice';
import { schemaAsJsonSchema } from './schema-as-json-schema';

/** The chat model's own settings that become request fields (the model itself has them). */
interface RequestSettings {
  model: string;
  temperature?: number;
  maxTokens?: number;
  topP?: number;
  stop?: string[];
  seed?: number;
  frequencyPenalty?: number;
  presencePenalty?: number;
  logitBias?: Record<string, number>;
  user?: string;
  reasoningEffort?: string;
  modelKwargs?: Record<string, unknown>;
  acceptsContentParts: boolean;
  sendReasoning?: boolean;
  streamUsage?: boolean;
}

/** The call options (bound with bindTools / withConfig, or passed to invoke) that become request fields. */
type RequestCallOptions = Pick<
  GatewayChatModelCallOptions,
  | 'stop'
  | 'tools'
  | 'tool_choice'
  | 'response_format'
  | 'strict'
  | 'modelKwargs'
  | 'streamUsage'
  | 'stream_options'
  | 'reasoningEffort'
  | 'parallel_tool_calls'
  | 'seed'
>;

/**
 * LangChain's settings in core's terms: a call's over the model's. A call's named options (`stop`,
 * `seed`, …) are core's named options; its other request fields (its `modelKwargs`, its snake_case
 * keys) are core's extra fields, over which core's builder lets named options win: so a setting
 * the model names (`temperature`, `maxTokens`, …) is left out where the call gives its wire field,
 * and the call's value is sent (as `ChatOpenAI` sends it). Core's builder owns the body's rules
 * (wire names, nothing empty, no tool_choice without tools).
 */
function requestOptions(
  settings: RequestSettings,
  call: RequestCallOptions,
  messages: ChatRequestOptions['messages'],
): ChatRequestOptions {
  const fields = callFields(call);
  const model = <T>(wire: string, value: T): T | undefined =>
    fields?.[wire] === undefined ? value : undefined;
  return {
    model: settings.model,
    messages,
    temperature: model('temperature', settings.temperature),
    // -1 is "no limit", as `ChatOpenAI` reads it: no `max_tokens` sent.
    maxTokens: model('max_tokens', settings.maxTokens === -1 ? undefined : settings.maxTokens),
    topP: model('top_p', settings.topP),
    seed: call.seed ?? model('seed', settings.seed),
    frequencyPenalty: model('frequency_penalty', settings.frequencyPenalty),
    presencePenalty: model('presence_penalty', settings.presencePenalty),
    stop: call.stop ?? model('stop', settings.stop),
    tools: call.tools && convertToGatewayTools(call.tools, { strict: call.strict }),
    toolChoice: mapToolChoice(call.tool_choice),
    responseFormat: responseFormatOf(call.response_format),
    reasoningEffort: call.reasoningEffort ?? model('reasoning_effort', settings.reasoningEffort),
    extraFields: extraFields(settings, fields),
  };
}

/**
 * A call's `response_format` as sent: a zod or Standard JSON Schema in its `json_schema.schema` as
 * the JSON Schema it writes (as `ChatOpenAI` sends it, and as `withStructuredOutput` sends one);
 * anything else as given, core's to check.
 */
function responseFormatOf(format: GatewayResponseFormat | undefined): ResponseFormat | undefined {
  if (format?.type !== 'json_schema') return format;
  const schema = schemaAsJsonSchema(format.json_schema?.schema);
  // Not one to convert: a JSON Schema (or what core refuses, naming it).
  return schema
    ? { ...format, json_schema: { ...format.json_schema, schema } }
    : (format as ResponseFormat);
}

/**
 * The request fields of a call that core's builder has no name for: its `modelKwargs`, then its
 * snake_case request fields (`requestFieldsOf`), then its `stream_options` and
 * `parallel_tool_calls`. Undefined when it has none.
 */
function callFields(call: RequestCallOptions): Record<string, unknown> | undefined {
  const { modelKwargs, stream_options, parallel_tool_calls } = call;
  const fields = requestFieldsOf(call);
  if (
    !modelKwargs &&
    !fields &&
    stream_options === undefined &&
    parallel_tool_calls === undefined
  ) {
    return undefined;
  }
  return {
    ...modelKwargs,
    ...fields,
    ...(stream_options !== undefined ? { stream_options } : {}),
    ...(parallel_tool_calls !== undefined ? { parallel_tool_calls } : {}),
  };
}

/**
 * The extra fields: the model's `modelKwargs`, its named `logit_bias` and `user` over them, the
 * call's fields over both. Without any but the first, the model's `modelKwargs` as they are.
 */
function extraFields(
  settings: RequestSettings,
  call: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  const { logitBias, user } = settings;
  if (!call && logitBias === undefined && user === undefined) return settings.modelKwargs;
  return {
    ...settings.modelKwargs,
    ...(logitBias !== undefined ? { logit_bias: logitBias } : {}),
    ...(user !== undefined ? { user } : {}),
    ...call,
  };
}

/** A LangChain chat call as the gateway chat request core sends (`stream` is core's to set). */
export function convertToGatewayRequest(
  messages: BaseMessage[],
  settings: RequestSettings,
  call: RequestCallOptions = {},
): ChatRequest {
  const converted = convertToGatewayMessages(messages, {
    acceptsContentParts: settings.acceptsContentParts,
    sendReasoning: settings.sendReasoning,
    model: settings.model,
  });
  return buildChatRequest(requestOptions(settings, call, converted));
}

/**
 * The request without its messages, as LangChain traces a call's invocation params; streamed
 * (`stream: true`, and `stream_options` by core's rule) when the model streams by default.
 */
export function convertToInvocationParams(
  settings: RequestSettings,
  call: RequestCallOptions = {},
  stream = false,
): Omit<ChatRequest, 'messages'> {
  const request = buildChatRequest(requestOptions(settings, call, []));
  const { messages: _none, ...params } = stream
    ? streamedChatRequest(request, streamUsageOf(settings, call) !== false)
    : request;
  return params;
}

/** The call's `streamUsage` over the model's; undefined: the client's. */
export function streamUsageOf(
  settings: RequestSettings,
  call: RequestCallOptions,
): boolean | undefined {
  return call.streamUsage ?? settings.streamUsage;
}

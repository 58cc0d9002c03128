// docs/gateway-protocol.md §4.1 (the request body: LangChain's settings mapped onto core's builder;
// reasoning effort),
// §5.6 (usage asked for in a stream).
import type { ChatRequest } from '@infergate/core';
import {
  buildChatRequest,
  type ChatRequestOptions,
  streamedChatRequest,
} from '@infergate/core/internal';
import type { BaseMessage } from '@langchain/core/messages';
import type { GatewayChatModelCallOptions } from '../chat_models/gateway-chat-model-options';
import { requestFieldsOf } from '../chat_models/request-fields';
import { convertToGatewayMessages } from './convert-to-gateway-messages';
import { convertToGatewayTools } from './convert-to-gateway-tools';
import { mapToolChoice } from './map-tool-choice';

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
 * LangChain's settings in core's terms: a call's stop and extra fields over the model's. Core's
 * builder owns the body's rules (wire names, extras first, nothing empty, no tool_choice without
 * tools).
 */
function requestOptions(
  settings: RequestSettings,
  call: RequestCallOptions,
  messages: ChatRequestOptions['messages'],
): ChatRequestOptions {
  return {
    model: settings.model,
    messages,
    temperature: settings.temperature,
    // -1 is "no limit", as `ChatOpenAI` reads it: no `max_tokens` sent.
    maxTokens: settings.maxTokens === -1 ? undefined : settings.maxTokens,
    topP: settings.topP,
    seed: call.seed ?? settings.seed,
    frequencyPenalty: settings.frequencyPenalty,
    presencePenalty: settings.presencePenalty,
    stop: call.stop ?? settings.stop,
    tools: call.tools && convertToGatewayTools(call.tools, { strict: call.strict }),
    toolChoice: mapToolChoice(call.tool_choice),
    responseFormat: call.response_format,
    reasoningEffort: call.reasoningEffort ?? settings.reasoningEffort,
    extraFields: extraFields(settings, call),
  };
}

/**
 * The request fields core's builder has no name for: `modelKwargs` (the call's over the model's),
 * then the call's snake_case request fields (`requestFieldsOf`), then the named ones over them (`logit_bias`, `user`, and the call's `stream_options` and
 * `parallel_tool_calls`). Without any of those, the model's `modelKwargs` as they are.
 */
function extraFields(
  settings: RequestSettings,
  call: RequestCallOptions,
): Record<string, unknown> | undefined {
  const { logitBias, user } = settings;
  const { stream_options, parallel_tool_calls } = call;
  const fields = requestFieldsOf(call);
  if (
    !call.modelKwargs &&
    !fields &&
    stream_options === undefined &&
    parallel_tool_calls === undefined &&
    logitBias === undefined &&
    user === undefined
  ) {
    return settings.modelKwargs;
  }
  return {
    ...settings.modelKwargs,
    ...call.modelKwargs,
    ...fields,
    ...(stream_options !== undefined ? { stream_options } : {}),
    ...(parallel_tool_calls !== undefined ? { parallel_tool_calls } : {}),
    ...(logitBias !== undefined ? { logit_bias: logitBias } : {}),
    ...(user !== undefined ? { user } : {}),
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

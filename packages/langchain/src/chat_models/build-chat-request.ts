import type { ChatRequest, ResponseFormat } from '@infergate/core';
import type { BindToolsInput, ToolChoice } from '@langchain/core/language_models/chat_models';
import type { BaseMessage } from '@langchain/core/messages';
import { convertToGatewayMessages } from '../converters/convert-to-gateway-messages';
import { convertToGatewayTools } from '../converters/convert-to-gateway-tools';
import { mapToolChoice } from '../converters/map-tool-choice';

/** The model's own settings that become request fields. */
export interface ChatModelSettings {
  model: string;
  temperature?: number;
  maxTokens?: number;
  topP?: number;
  stop?: string[];
  seed?: number;
  modelKwargs?: Record<string, unknown>;
  acceptsContentParts: boolean;
}

/** Per-call options (bound with bindTools / withConfig or passed to invoke). */
export interface ChatCallSettings {
  stop?: string[];
  tools?: BindToolsInput[];
  tool_choice?: ToolChoice;
  response_format?: ResponseFormat;
  strict?: boolean;
}

/** Everything that goes into a request except the messages: used for tracing as well. */
export function buildRequestParams(
  settings: ChatModelSettings,
  call: ChatCallSettings,
  stream: boolean,
): Omit<ChatRequest, 'messages'> {
  const tools =
    call.tools && call.tools.length > 0
      ? convertToGatewayTools(call.tools, call.strict === undefined ? {} : { strict: call.strict })
      : undefined;
  const toolChoice = tools ? mapToolChoice(call.tool_choice) : undefined;
  const stop = call.stop ?? settings.stop;
  const params: Omit<ChatRequest, 'messages'> = {
    // modelKwargs first: the named settings win over free-form ones.
    ...settings.modelKwargs,
    model: settings.model,
  };
  if (stream) params.stream = true;
  if (settings.temperature !== undefined) params.temperature = settings.temperature;
  if (settings.maxTokens !== undefined) params.max_tokens = settings.maxTokens;
  if (settings.topP !== undefined) params.top_p = settings.topP;
  if (settings.seed !== undefined) params.seed = settings.seed;
  if (stop !== undefined && stop.length > 0) params.stop = stop;
  if (tools) params.tools = tools;
  if (toolChoice !== undefined) params.tool_choice = toolChoice;
  if (call.response_format) params.response_format = call.response_format;
  return params;
}

/** A complete gateway chat request. */
export function buildChatRequest(
  messages: BaseMessage[],
  settings: ChatModelSettings,
  call: ChatCallSettings,
  stream: boolean,
): ChatRequest {
  const params = buildRequestParams(settings, call, stream);
  return {
    ...params,
    model: settings.model,
    messages: convertToGatewayMessages(messages, {
      acceptsContentParts: settings.acceptsContentParts,
      model: settings.model,
    }),
  };
}

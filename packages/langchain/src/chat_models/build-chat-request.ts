import type { ChatMessage, ChatRequest, ResponseFormat } from '@infergate/core';
import {
  buildChatRequest as buildGatewayChatRequest,
  type ChatRequestOptions,
} from '@infergate/core/internal';
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
  sendReasoning: boolean;
}

/** Per-call options (bound with bindTools / withConfig or passed to invoke). */
export interface ChatCallSettings {
  stop?: string[];
  tools?: BindToolsInput[];
  tool_choice?: ToolChoice;
  response_format?: ResponseFormat;
  strict?: boolean;
  /** Extra request fields of this call, over the model's `modelKwargs`. */
  modelKwargs?: Record<string, unknown>;
}

/** The request in core's terms; core builds the body (wire names, extras first, nothing empty). */
function requestOptions(
  settings: ChatModelSettings,
  call: ChatCallSettings,
  messages: ChatMessage[],
): ChatRequestOptions {
  const tools =
    call.tools && call.tools.length > 0
      ? convertToGatewayTools(call.tools, call.strict === undefined ? {} : { strict: call.strict })
      : undefined;
  return {
    model: settings.model,
    messages,
    temperature: settings.temperature,
    maxTokens: settings.maxTokens,
    topP: settings.topP,
    seed: settings.seed,
    stop: call.stop ?? settings.stop,
    tools,
    toolChoice: tools ? mapToolChoice(call.tool_choice) : undefined,
    responseFormat: call.response_format,
    extraFields: call.modelKwargs
      ? { ...settings.modelKwargs, ...call.modelKwargs }
      : settings.modelKwargs,
  };
}

/** Everything that goes into a request except the messages: used for tracing as well. */
export function buildRequestParams(
  settings: ChatModelSettings,
  call: ChatCallSettings,
  stream: boolean,
): Omit<ChatRequest, 'messages'> {
  const { messages: _none, ...params } = buildGatewayChatRequest(
    requestOptions(settings, call, []),
  );
  return stream ? { ...params, stream: true } : params;
}

/** A complete gateway chat request. */
export function buildChatRequest(
  messages: BaseMessage[],
  settings: ChatModelSettings,
  call: ChatCallSettings,
  stream: boolean,
): ChatRequest {
  const request = buildGatewayChatRequest(
    requestOptions(
      settings,
      call,
      convertToGatewayMessages(messages, {
        acceptsContentParts: settings.acceptsContentParts,
        sendReasoning: settings.sendReasoning,
        model: settings.model,
      }),
    ),
  );
  return stream ? { ...request, stream: true } : request;
}

// docs/gateway-protocol.md §4.1 (the request body, reasoning effort), §4.2 (an empty `tools` list is not sent), §5.6 (usage asked for in a stream).
import { jsonBody } from '../encoding/json-body';
import type { RequestSpec } from '../http/request-types';
import { ENDPOINTS } from '../protocol/endpoints';
import type {
  ChatMessage,
  ChatRequest,
  ChatTool,
  ResponseFormat,
  ToolChoice,
} from '../protocol/wire-types';

/** A chat request in the adapters' terms: camel-case sampling options, nothing undefined or null sent. */
export interface ChatRequestOptions {
  model: string;
  messages: ChatMessage[];
  temperature?: number;
  /** Sent as `max_tokens`. */
  maxTokens?: number;
  /** Sent as `top_p`. */
  topP?: number;
  /** Stop sequences; an empty list is not sent. */
  stop?: string | readonly string[];
  seed?: number;
  /** Sent as `presence_penalty` (a field the gateway forwards to the model server unchanged). */
  presencePenalty?: number;
  /** Sent as `frequency_penalty` (forwarded unchanged, like `presence_penalty`). */
  frequencyPenalty?: number;
  /** An empty list is not sent. */
  tools?: readonly ChatTool[];
  /** Sent only together with tools. */
  toolChoice?: ToolChoice;
  responseFormat?: ResponseFormat;
  /**
   * Sent as `reasoning_effort` (a field the gateway forwards to the model server unchanged), the
   * value as given: `low`, `medium`, `high`, … as the model server reads it. A value that is not a
   * string (nor `null`: not set) is refused before sending (`validateChatRequest`).
   */
  reasoningEffort?: string;
  /**
   * Fields the gateway passes to the model server unchanged (docs/gateway-protocol.md §4.1: unknown fields are
   * forwarded). The named options above win over them.
   */
  extraFields?: Record<string, unknown>;
}

/**
 * The optional top-level fields core checks or builds. `null` in one means "not set" (ai and
 * LangChain's `modelKwargs` hand it over so): it is left out of the body, so the server's default
 * applies, and the spec's type is checked only on a value given (docs/gateway-protocol.md §4.1).
 */
const UNSET_WHEN_NULL: ReadonlySet<string> = new Set([
  'temperature',
  'top_p',
  'max_tokens',
  'seed',
  'stop',
  'presence_penalty',
  'frequency_penalty',
  'tools',
  'tool_choice',
  'response_format',
  'reasoning_effort',
]);

/**
 * The request without the fields of `UNSET_WHEN_NULL` that are `null` (itself when none is): run
 * once per call, where its request enters core (`validateChatRequest`). Walks the request's
 * fields (a few), not the list: looking up eleven names a request mostly lacks costs more.
 */
export function withoutNullFields(request: ChatRequest): ChatRequest {
  let result = request;
  for (const name in request) {
    if (request[name as keyof ChatRequest] !== null || !UNSET_WHEN_NULL.has(name)) continue;
    if (result === request) result = { ...request };
    delete result[name as keyof ChatRequest];
  }
  return result;
}

/**
 * Whether a request's `tools` is sent: a non-empty list. The gateway refuses `tools` on a model
 * without the `tools` capability even when the list is empty (docs/gateway-protocol.md §4.2), and
 * an empty list offers the model nothing, so core never sends one (`withoutEmptyTools`).
 */
export function sendsTools(tools: unknown): tools is readonly unknown[] {
  return Array.isArray(tools) && tools.length > 0;
}

/**
 * The request without an empty `tools` list, nor the `tool_choice` and `parallel_tool_calls` given
 * with it (they would choose among no tools; an OpenAI-backed model server refuses
 * `parallel_tool_calls` without tools); itself when its `tools` is absent or not an empty list
 * (`sendsTools`). Run where a request enters core (`validateChatRequest`), raw `chat()` /
 * `chatStream()` included.
 */
export function withoutEmptyTools(request: ChatRequest): ChatRequest {
  if (!Array.isArray(request.tools) || sendsTools(request.tools)) return request;
  const { tools: _empty, tool_choice: _choice, parallel_tool_calls: _parallel, ...rest } = request;
  return rest;
}

/**
 * Builds the body of `POST /chat/completions` (docs/gateway-protocol.md §4.1) from the adapters' options: fields left
 * undefined or `null` are not sent, nor an empty `stop` or `tools` list, nor `tool_choice` or
 * `parallel_tool_calls` without tools;
 * extra fields come first so that the named options win. `stream` is set by `chat` / `chatStream`.
 */
export function buildChatRequest(options: ChatRequestOptions): ChatRequest {
  const { extraFields, model, messages } = options;
  const request: ChatRequest = { ...extraFields, model, messages };
  delete request.stream;
  // (`!= null`: a named option given as `null` is not set, and an extra field's value stays.)
  if (options.temperature != null) request.temperature = options.temperature;
  if (options.maxTokens != null) request.max_tokens = options.maxTokens;
  if (options.topP != null) request.top_p = options.topP;
  if (options.seed != null) request.seed = options.seed;
  if (options.presencePenalty != null) request.presence_penalty = options.presencePenalty;
  if (options.frequencyPenalty != null) request.frequency_penalty = options.frequencyPenalty;
  const stop = options.stop;
  if (typeof stop === 'string' || (stop != null && stop.length > 0)) {
    request.stop = typeof stop === 'string' ? stop : [...stop];
  }
  if (sendsTools(options.tools)) {
    request.tools = [...options.tools];
    if (options.toolChoice != null) request.tool_choice = options.toolChoice;
  }
  // An adapter's `parallel_tool_calls` (LangChain's call option, a provider option's field) goes
  // only with tools: an OpenAI-backed model server refuses it without them.
  if (!sendsTools(request.tools)) delete request.parallel_tool_calls;
  if (options.responseFormat != null) request.response_format = options.responseFormat;
  if (options.reasoningEffort != null) request.reasoning_effort = options.reasoningEffort;
  return withoutNullFields(request);
}

/** What a streamed request sends to ask the model server for usage (docs/gateway-protocol.md §5.6). */
export const STREAM_USAGE_OPTIONS = { include_usage: true } as const;

/**
 * A request as streamed: `stream: true`, and `stream_options: { include_usage: true }` so that
 * model servers that report usage only when asked (vLLM, llama.cpp, TGI, Ollama, OpenAI) send
 * it, unless `streamUsage` is `false` (for servers that refuse unknown fields) or the request
 * carries its own `stream_options`, which is sent as given (docs/gateway-protocol.md §5.6).
 */
export function streamedChatRequest(request: ChatRequest, streamUsage: boolean): ChatRequest {
  const streamed: ChatRequest = { ...request, stream: true };
  if (streamUsage && request.stream_options === undefined) {
    streamed.stream_options = { ...STREAM_USAGE_OPTIONS };
  }
  return streamed;
}

/** The request of a chat call, as its own model's. */
export function chatSpec(
  req: ChatRequest,
  stream: boolean,
  streamUsage: boolean,
): RequestSpec & { requestedModel: string } {
  const body = chatBody(req, stream, streamUsage);
  // (One literal of one shape: no property added later, no copy.)
  return {
    method: 'POST',
    path: ENDPOINTS.chat,
    requestedModel: req.model,
    body,
    accept: stream ? 'text/event-stream' : undefined,
    stream,
  };
}

/**
 * The request as sent: `stream` is the client's to set, whatever the caller put there; a stream
 * asks for usage unless `streamUsage` is false or the request has its own `stream_options`.
 * `req` is a call's request as `validateChatRequest` returned it (its `null` fields left out).
 */
export function chatBody(req: ChatRequest, stream: boolean, streamUsage: boolean): string {
  if (stream) return jsonBody(streamedChatRequest(req, streamUsage));
  // (JSON leaves out an undefined field: a copy only when the caller set `stream`.)
  if (req.stream === undefined) return jsonBody(req);
  const { stream: _ignored, ...rest } = req;
  return jsonBody(rest);
}

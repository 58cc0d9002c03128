// docs/gateway-protocol.md §4 (`POST /chat/completions`), §4.6 (fallback detection: requested and
// served model), §4.7 (`fallbackModels`, stall timeouts), §5.6 (usage asked for in a stream).
import {
  type CallOptions,
  readStallTimeouts,
  type StallTimeoutOptions,
} from '../call/call-options';
import type { Catalog } from '../catalog/catalog';
import { jsonBody } from '../encoding/json-body';
import { GatewayError } from '../errors/errors';
import { invalidAnswer } from '../errors/invalid-response';
import { lazily } from '../errors/load-lazily';
import type { RequestSpec, Transport } from '../http/transport';
import { answeringModel } from '../protocol/answering-model';
import type { ChatResult, ChatStream } from '../protocol/chat-result-types';
import { singleHopRoute } from '../protocol/chat-route';
import { ENDPOINTS } from '../protocol/endpoints';
import type { ChatCompletionResponse, ChatRequest } from '../protocol/wire-types';
import { readChatCompletion } from './assemble-chat';
import { streamedChatRequest } from './build-chat-request';
import type { SteeredCall } from './steer-chat-call';
import { GatewayChatStream } from './stream/sse-chat-stream';
import { validateChatRequest } from './validate-chat';
import { chatCompletionProblem } from './validate-chat-response';

/** The options of a chat call (`chat`, and `chatStream` through `ChatStreamOptions`). */
export interface ChatCallOptions extends CallOptions, StallTimeoutOptions {
  /**
   * Models to use, in order, when `model` cannot serve the call: each is checked against the
   * catalog first (like `model` itself: listed, with the capabilities the call needs), tried
   * after `model` and in this order, with the ones that have room before the busy and offline
   * ones, and the call moves to the next at once when one is busy, unavailable or stalls before
   * its first chunk. Duplicates are ignored. Without it (or empty) no catalog is read.
   */
  fallbackModels?: readonly string[];
}

export interface ChatStreamOptions extends ChatCallOptions {
  /**
   * `false`: the stream does not keep the answer's text and reasoning for `result()` (which then
   * has `text: ''` and `reasoning: ''`, with finish reason, usage and tool calls), for callers that
   * only iterate the events. Default `true`. Either way a stream's total size is bounded by
   * `maxResponseBytes`.
   */
  assemble?: boolean;
  /**
   * `false`: do not send `stream_options: { include_usage: true }` for this call (for model
   * servers that refuse unknown fields; the stream then has usage only if the server sends it
   * unasked). Default: the client's `streamUsage` (`true`). A request's own `stream_options` is
   * sent as given either way.
   */
  streamUsage?: boolean;
}

/** `POST /chat/completions` answered as one JSON completion, checked and read. */
export async function postChat(
  transport: Transport,
  catalog: Catalog,
  req: ChatRequest,
  opts: ChatCallOptions | undefined,
): Promise<ChatResult> {
  validateChatRequest(req);
  const requestedModel = req.model;
  const spec = {
    method: 'POST',
    path: ENDPOINTS.chat,
    requestedModel,
    stall: readStallTimeouts(opts),
  } as const;
  const steered = steers(opts)
    ? await steer(transport, catalog, req, opts, spec, false)
    : undefined;
  const answer = await transport.json<ChatCompletionResponse>(
    steered ? steered.spec : { ...spec, body: chatBody(req, false, false) },
    steered ? steered.options : opts,
  );
  const redact = (text: string) => transport.redact(text);
  const problem = chatCompletionProblem(answer.data);
  if (problem) {
    throw invalidAnswer(redact, `The chat completion ${problem}`, answer, requestedModel);
  }
  const { data, headers, walked } = answer;
  const assembled = readChatCompletion(data);
  if (assembled === undefined) {
    throw invalidAnswer(
      redact,
      'The chat completion has no choice 0 (its choices are all of other indexes)',
      answer,
      requestedModel,
    );
  }
  // After a failover the model sent is the walk's, not the request's.
  const servedModel = answeringModel(headers, data.model, walked?.model ?? requestedModel);
  return {
    response: data,
    answer: assembled,
    requestedModel,
    servedModel,
    fallback: servedModel !== requestedModel,
    headers,
    route: steered
      ? steered.route(walked, requestedModel, servedModel)
      : singleHopRoute(requestedModel, servedModel),
  };
}

/** `POST /chat/completions` with `stream: true`: resolves once the answer's headers arrived. */
export async function openChatStream(
  transport: Transport,
  catalog: Catalog,
  req: ChatRequest,
  opts: ChatStreamOptions | undefined,
  clientStreamUsage = true,
): Promise<ChatStream> {
  validateChatRequest(req);
  for (const name of ['assemble', 'streamUsage'] as const) {
    const value = opts?.[name];
    if (value !== undefined && typeof value !== 'boolean') {
      throw new GatewayError({
        code: 'invalid_request_error',
        message: `${name} (call option) must be a boolean, got ${typeof value}`,
        field: name,
      });
    }
  }
  const requestedModel = req.model;
  const streamUsage = opts?.streamUsage ?? clientStreamUsage;
  const spec = {
    method: 'POST',
    path: ENDPOINTS.chat,
    accept: 'text/event-stream',
    requestedModel,
    stream: true,
    stall: readStallTimeouts(opts),
  } as const;
  const steered = steers(opts)
    ? await steer(transport, catalog, req, opts, spec, streamUsage)
    : undefined;
  const open = await transport.open(
    steered ? steered.spec : { ...spec, body: chatBody(req, true, streamUsage) },
    steered ? steered.options : opts,
  );
  const headers = open.response.headers;
  // A stream's chunks are not read for it: the header, else the model sent.
  const servedModel = answeringModel(headers, undefined, open.walked?.model ?? requestedModel);
  return new GatewayChatStream(open, {
    requestedModel,
    servedModel,
    fallback: servedModel !== requestedModel,
    headers,
    route: steered
      ? steered.route(open.walked, requestedModel, servedModel)
      : singleHopRoute(requestedModel, servedModel),
    assemble: opts?.assemble !== false,
  });
}

/**
 * Whether a call walks a list (`fallbackModels`). A call that does not stays as it was: no catalog
 * read, no extra async step (bench B1); its stall timeouts are the transport's.
 */
function steers(opts: ChatCallOptions | undefined): opts is ChatCallOptions {
  return opts?.fallbackModels !== undefined;
}

/** The steering code (`fallbackModels`), loaded by the first call with a list. */
const loadSteering = lazily('the fallback-model steering', () => import('./steer-chat-call'));

/** A steering call prepared by steer-chat-call.ts, loaded by the first one. */
async function steer(
  transport: Transport,
  catalog: Catalog,
  req: ChatRequest,
  opts: ChatCallOptions,
  spec: RequestSpec,
  streamUsage: boolean,
): Promise<SteeredCall> {
  const { steerChatCall } = await loadSteering();
  return steerChatCall(transport, catalog, req, opts, spec, (model) =>
    chatBody({ ...req, model }, spec.stream === true, streamUsage),
  );
}

/**
 * The request as sent: `stream` is the client's to set, whatever the caller put there; a stream
 * asks for usage unless `streamUsage` is false or the request has its own `stream_options`.
 */
function chatBody(req: ChatRequest, stream: boolean, streamUsage: boolean): string {
  const { stream: _ignored, ...rest } = req;
  return jsonBody(stream ? streamedChatRequest(rest, streamUsage) : rest);
}

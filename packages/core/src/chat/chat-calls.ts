// docs/gateway-protocol.md §4 (`POST /chat/completions`), §4.6 (fallback detection: requested and
// served model), §4.7 (`fallbackModels`, stall timeouts).
import type { CallOptions, StallTimeoutOptions } from '../call/call-options';
import type { Catalog } from '../catalog/catalog';
import { jsonBody } from '../encoding/json-body';
import { GatewayError } from '../errors/errors';
import { invalidAnswer } from '../errors/invalid-response';
import type { Transport } from '../http/transport';
import { answeringModel } from '../protocol/answering-model';
import type { ChatResult, ChatStream } from '../protocol/chat-result-types';
import type { ChatRoute } from '../protocol/chat-route';
import { ENDPOINTS } from '../protocol/endpoints';
import type { ChatCompletionResponse, ChatRequest } from '../protocol/wire-types';
import { readChatCompletion } from './assemble-chat';
import type { PlannedCall } from './fallback-route';
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
}

/** `POST /chat/completions` answered as one JSON completion, checked and read. */
export async function postChat(
  transport: Transport,
  catalog: Catalog,
  req: ChatRequest,
  opts: ChatCallOptions | undefined,
): Promise<ChatResult> {
  validateChatRequest(req);
  // (Read without an async step unless set: a call without them keeps its path, bench B1.)
  const stall =
    opts?.firstChunkTimeoutMs === undefined && opts?.chunkTimeoutMs === undefined
      ? {}
      : await stallOptions(opts);
  const requestedModel = req.model;
  const spec = { method: 'POST', path: ENDPOINTS.chat, requestedModel, stall } as const;
  const planned =
    opts?.fallbackModels === undefined
      ? undefined
      : await planFallbacks(transport, catalog, req, false, opts);
  const answer = await transport.json<ChatCompletionResponse>(
    planned ? { ...spec, ...planned.spec } : { ...spec, body: chatBody(req, false) },
    planned ? planned.options : opts,
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
    route: planned
      ? planned.route(walked, requestedModel, servedModel)
      : oneHop(requestedModel, servedModel),
  };
}

/** `POST /chat/completions` with `stream: true`: resolves once the answer's headers arrived. */
export async function openChatStream(
  transport: Transport,
  catalog: Catalog,
  req: ChatRequest,
  opts: ChatStreamOptions | undefined,
): Promise<ChatStream> {
  validateChatRequest(req);
  if (opts?.assemble !== undefined && typeof opts.assemble !== 'boolean') {
    throw new GatewayError({
      code: 'invalid_request_error',
      message: `assemble (call option) must be a boolean, got ${typeof opts.assemble}`,
    });
  }
  // (Read without an async step unless set: a call without them keeps its path, bench B1.)
  const stall =
    opts?.firstChunkTimeoutMs === undefined && opts?.chunkTimeoutMs === undefined
      ? {}
      : await stallOptions(opts);
  const requestedModel = req.model;
  const spec = {
    method: 'POST',
    path: ENDPOINTS.chat,
    accept: 'text/event-stream',
    requestedModel,
    stream: true,
    stall,
  } as const;
  const planned =
    opts?.fallbackModels === undefined
      ? undefined
      : await planFallbacks(transport, catalog, req, true, opts);
  const open = await transport.open(
    planned ? { ...spec, ...planned.spec } : { ...spec, body: chatBody(req, true) },
    planned ? planned.options : opts,
  );
  const headers = open.response.headers;
  // A stream's chunks are not read for it: the header, else the model sent.
  const servedModel = answeringModel(headers, undefined, open.walked?.model ?? requestedModel);
  return new GatewayChatStream(open, {
    requestedModel,
    servedModel,
    fallback: servedModel !== requestedModel,
    headers,
    route: planned
      ? planned.route(open.walked, requestedModel, servedModel)
      : oneHop(requestedModel, servedModel),
    assemble: opts?.assemble !== false,
  });
}

/**
 * A call with `fallbackModels` planned (fallback-route.ts, loaded by the first such call);
 * undefined for an empty list. A call without them stays exactly as it was (no catalog read).
 */
async function planFallbacks(
  transport: Transport,
  catalog: Catalog,
  req: ChatRequest,
  stream: boolean,
  opts: ChatCallOptions,
): Promise<PlannedCall | undefined> {
  const { planFallbackCall } = await import('./fallback-route');
  return planFallbackCall(transport, catalog, req, stream, opts, (model) =>
    chatBody({ ...req, model }, stream),
  );
}

/** A chat call's stall timeouts as it set them, checked (call/stall-timer.ts, loaded on first use). */
async function stallOptions(
  opts: ChatCallOptions,
): Promise<{ firstChunkMs?: number; chunkMs?: number }> {
  return (await import('../call/stall-timer')).readStallTimeouts(opts);
}

/** The route of a call without `fallbackModels`: the requested model, answered. */
function oneHop(model: string, answeredBy: string): ChatRoute {
  return { requested: [model], hops: [{ model, outcome: 'answered' }], answeredBy };
}

/** The request as sent: `stream` is the client's to set, whatever the caller put there. */
function chatBody(req: ChatRequest, stream: boolean): string {
  const { stream: _ignored, ...rest } = req;
  return jsonBody(stream ? { ...rest, stream: true } : rest);
}

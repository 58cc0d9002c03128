// docs/gateway-protocol.md §4 (`POST /chat/completions`), §4.2 (the gate), §4.6 (the answering
// model), §4.7 (steered calls), §5.6 (usage asked for in a stream).
import { type CallOptions, checkCallOptions } from '../call/call-options';
import type { Catalog } from '../catalog/catalog';
import { cachedCatalogFor, gateModel, gateModelFromCache } from '../catalog/resolve-model';
import { GatewayError } from '../errors/errors';
import { type Lazy, lazily } from '../errors/load-lazily';
import type { OpenVia, RequestSpec, Transport } from '../http/transport';
import { answeredByAnother, answeringModel } from '../protocol/answering-model';
import type { ChatResult, ChatStream } from '../protocol/chat-result-types';
import { type ChatRoute, singleHopRoute } from '../protocol/chat-route';
import type { ChatCompletionResponse, ChatRequest } from '../protocol/wire-types';
import { countModelInflight } from '../steering/model-inflight';
import type { SteeredCall } from '../steering/steer-chat-call';
import { type ClientSteering, type SteeringOptions, steers } from '../steering/steering-options';
import { chatSpec } from './build-chat-request';
import { requiredCapabilities, validateChatRequest } from './validate-chat';

/** The options of a chat call (`chat`, and `chatStream` through `ChatStreamOptions`). */
export interface ChatCallOptions extends CallOptions, SteeringOptions {
  /**
   * The model's capabilities when the caller knows them: the gate checks the call against these
   * and reads no catalog (unless it refuses, to name the models that would do). Without them the
   * gate reads the model's from the cached catalog (`GET /models`, once per `catalogTtlMs`).
   */
  capabilities?: readonly string[];
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

/** What a chat call uses of its client. */
export interface ChatContext {
  transport: Transport;
  catalog: Catalog;
  /** The client's `streamUsage`. */
  streamUsage: boolean;
  /** The client's steering options (stall timeouts, hedge, breakers). */
  steering: ClientSteering;
}

/** `POST /chat/completions` answered as one JSON completion, checked and read. */
export async function postChat(
  context: ChatContext,
  req: ChatRequest,
  opts: ChatCallOptions | undefined,
): Promise<ChatResult> {
  validateChatRequest(req);
  checkCallOptions(opts ?? {}); // before the gate's catalog read

  const { transport } = context;
  const requestedModel = req.model;
  const ready = sendableNow(context, req, opts, false, loadAnswerReading);
  // (The plain call's path makes no closure and no record of how it was sent.)
  const sent = ready
    ? undefined
    : await send(context, req, opts, false, loadAnswerReading, (spec, via) =>
        transport.json<ChatCompletionResponse>(spec, opts, via),
      );
  // (`ready` is set whenever `sent` is not.)
  const answer = sent
    ? sent.answer
    : await transport.json<ChatCompletionResponse>(ready as RequestSpec, opts);
  const { readCheckedCompletion } = loadAnswerReading.module ?? (await loadAnswerReading());
  // (A steered call's errors carry its route, also those found in its answer.)
  const assembled = readCheckedCompletion(answer, requestedModel, transport, sent?.failed);
  const { data, headers } = answer;
  const servedModel = answeringModel(headers, data.model, sent ? sent.model : requestedModel);
  return {
    response: data,
    answer: assembled,
    requestedModel,
    servedModel,
    fallback: answeredByAnother(requestedModel, servedModel),
    route: routeOf(requestedModel, servedModel, sent),
    headers,
  };
}

/** `POST /chat/completions` with `stream: true`: resolves once the answer's headers arrived. */
export async function openChatStream(
  context: ChatContext,
  req: ChatRequest,
  opts: ChatStreamOptions | undefined,
): Promise<ChatStream> {
  validateChatRequest(req);
  checkCallOptions(opts ?? {}); // before the gate's catalog read

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
  const sendVia = (spec: RequestSpec, via?: OpenVia) => {
    // (The stream's reader is loaded before anything is sent.)
    spec.firstBytes ??= loadStreamReading.module?.readFirstBytes;
    return context.transport.open(spec, opts, via).catch((error: unknown) => {
      // (Loaded with the stream's reader, before anything was sent.)
      throw loadStreamReading.module?.namingStreamUsage(error, spec) ?? error;
    });
  };
  const ready = sendableNow(context, req, opts, true, loadStreamReading);
  const sent = ready
    ? { answer: await sendVia(ready), model: req.model }
    : await send(context, req, opts, true, loadStreamReading, sendVia);
  const open = sent.answer;
  // A stream's chunks are not read for it: the header, else the model sent.
  const servedModel = answeringModel(open.response.headers, undefined, sent.model);
  const { GatewayChatStream } = loadStreamReading.module ?? (await loadStreamReading());
  return new GatewayChatStream(open, {
    requestedModel: req.model,
    servedModel,
    fallback: answeredByAnother(req.model, servedModel),
    route: routeOf(req.model, servedModel, sent),
    headers: open.response.headers,
    assemble: opts?.assemble !== false,
    silence: sent.silence,
    failed: sent.failed,
  });
}

/** The route a call reports: a steered call's hops, else its one model's. */
function routeOf(
  requestedModel: string,
  servedModel: string,
  sent: Pick<SteeredCall<unknown>, 'route'> | { route?: undefined } | undefined,
): ChatRoute {
  return sent?.route ? sent.route(servedModel) : singleHopRoute(requestedModel, servedModel);
}

/**
 * What reads a stream (its decoder, read-ahead and events: a third of the chat path), loaded by
 * the first stream call: an app that never streams never loads it.
 */
const loadStreamReading = lazily('the chat stream', () => import('./stream/sse-chat-stream'));
/** What reads a non-streamed answer, loaded by the first `chat` call: a streaming app never does. */
const loadAnswerReading = lazily('the chat answer', () => import('./read-chat-completion'));
/**
 * The steering room with what a steered call adds to it (its bodies per model, a stream's
 * first-content reader), loaded by the first call that steers (steered-chat.ts).
 */
const loadSteering = lazily('the steering', () => import('./steered-chat'));

/**
 * The request of a plain call that can be sent at once: not steered, its reader loaded, and the
 * gate passed on the cached catalog (a refusal is thrown). Undefined for the others, which `send`
 * takes. Sent without an async step of ours (bench B1).
 */
function sendableNow(
  context: ChatContext,
  req: ChatRequest,
  opts: ChatStreamOptions | undefined,
  stream: boolean,
  reader: Lazy<unknown>,
): RequestSpec | undefined {
  if (!reader.loaded || steers(opts, context.steering)) return undefined;
  const needs = requiredCapabilities(req, stream);
  if (!gateModelFromCache(context.catalog, req.model, needs, opts?.capabilities)) return undefined;
  return countedSpec(context, req, opts, stream);
}

/** A plain call's request, counted per model while in flight (the order of steered calls reads it). */
function countedSpec(
  context: ChatContext,
  req: ChatRequest,
  opts: ChatStreamOptions | undefined,
  stream: boolean,
): RequestSpec {
  const budgetId = context.transport.slots.budgetId;
  const model = req.model;
  const onSend = () => countModelInflight(budgetId, model);
  return chatSpec(req, stream, opts?.streamUsage ?? context.streamUsage, onSend);
}

/**
 * Sends the call: a plain call through core's gate (one model checked against the cached catalog,
 * without an async step when it is cached: bench B1); a call with a fallback list, a stall
 * timeout or a hedge through the steering room, which plans, gates and walks its models. `reader`
 * (what reads the answer) is loaded before anything is sent: a call whose code cannot load costs
 * no request.
 */
async function send<T>(
  context: ChatContext,
  req: ChatRequest,
  opts: ChatStreamOptions | undefined,
  stream: boolean,
  reader: Lazy<unknown>,
  sendVia: (spec: RequestSpec, via?: OpenVia) => Promise<T>,
): Promise<
  | SteeredCall<T>
  | { answer: T; model: string; route?: undefined; silence?: undefined; failed?: undefined }
> {
  const { transport, catalog } = context;
  const needs = requiredCapabilities(req, stream);
  // Loading starts now, beside the gate (a first call reads the catalog meanwhile).
  const loading = reader.loaded ? undefined : reader();
  loading?.catch(() => {});
  if (!steers(opts, context.steering)) {
    const spec = countedSpec(context, req, opts, stream);
    const known = opts?.capabilities;
    if (gateModelFromCache(catalog, req.model, needs, known)) {
      if (!loading) return { answer: await sendVia(spec), model: req.model };
      return {
        answer: await loadedFirst(transport, opts, loading, spec, sendVia),
        model: req.model,
      };
    }
    // The catalog must be read (once per catalogTtlMs): a request of this call's, in its events.
    const events = await transport.callEvents(spec);
    const lookup = { known, signal: opts?.signal, timeoutMs: opts?.timeoutMs };
    try {
      await gateModel(catalog, req.model, needs, lookup, events);
      await loading;
    } catch (error) {
      events?.failed(error);
      throw error;
    }
    return { answer: await sendVia(spec, events && { events }), model: req.model };
  }
  // The room's first load keeps the call's place in the key's queue, when its catalog is cached
  // (a read would need a slot of its own).
  const ids = [req.model, ...(Array.isArray(opts?.fallbackModels) ? opts.fallbackModels : [])];
  const reservation =
    (!loadSteering.loaded || loading) && cachedCatalogFor(catalog, ids)
      ? transport.reserve(opts)
      : undefined;
  try {
    const [{ steerChat }] = await Promise.all([loadSteering(), loading]);
    const call = {
      transport,
      catalog,
      client: context.steering,
      options: opts ?? {},
      needs,
      reservation,
      req,
      stream,
      streamUsage: opts?.streamUsage ?? context.streamUsage,
    };
    return await steerChat(call, sendVia);
  } finally {
    if (reservation) transport.release(reservation, true);
  }
}

/**
 * A gated call whose code is still loading: it asks for its slot now and sends once the code is
 * there, so loading never costs it its place in the key's queue.
 */
async function loadedFirst<T>(
  transport: Transport,
  opts: ChatCallOptions | undefined,
  loading: Promise<unknown>,
  spec: RequestSpec,
  sendVia: (spec: RequestSpec, via?: OpenVia) => Promise<T>,
): Promise<T> {
  const reservation = transport.reserve(opts);
  try {
    await loading;
    return await sendVia(spec, { reservation });
  } finally {
    transport.release(reservation);
  }
}

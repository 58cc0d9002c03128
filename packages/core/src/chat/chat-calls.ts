// docs/gateway-protocol.md §4 (`POST /chat/completions`), §4.2 (the gate), §4.6 (the answering
// model), §4.7 (steered calls), §5.6 (usage asked for in a stream).

import type { PendingCalls } from '../budget/pending-calls';
import {
  type CallOptions,
  checkCallOptions,
  refuseCallOptionsInRequest,
  refuseStreamNotTaken,
} from '../call/call-options';
import { type CallScope, scopeOf } from '../call/call-scope';
import { refusal, type StructuredOutputOptions } from '../call/option-groups';
import type { Catalog } from '../catalog/catalog';
import { withFailedRead } from '../catalog/failed-read';
import { gateModel, gateModelFromCache } from '../catalog/resolve-model';
import { redactOwnKey } from '../errors/errors';
import { lazily } from '../errors/load-lazily';
import { keptOutBody, ownRedaction } from '../errors/redact-secret';
import { keptOutHeaders } from '../errors/response-headers';
import { type AttemptPolicy, retrySameRequest } from '../http/attempt-policy';
import type { OpenResponse, OpenVia, RequestSpec, Transport } from '../http/transport';
import { answeredByAnother, answeringModel } from '../protocol/answering-model';
import type { AssembledChat, ChatResult, ChatStream } from '../protocol/chat-result-types';
import { type ChatRoute, singleHopRoute } from '../protocol/chat-route';
import { choicesAsked } from '../protocol/several-choices';
import type { ChatCompletionResponse, ChatRequest } from '../protocol/wire-types';
import { countedPerModel } from '../steering/model-inflight';
import type { SteeredAnswer } from '../steering/run-steered-call';
import { type ClientSteering, type SteeringOptions, steers } from '../steering/steering-options';
import { chatSpec } from './build-chat-request';
import { readCheckedCompletion, readEveryChoice } from './read-chat-completion';
import { jsonBesideRefusal } from './read-message-parts';
import type { SteeredChatAnswer } from './steered-chat';
import { acceptingFirstEvent } from './stream/first-event-failure';
import { GatewayChatStream } from './stream/sse-chat-stream';
import { namingStreamUsage } from './stream/stream-usage-refusal';
import { requiredCapabilities, validateChatRequest } from './validate-chat';

/** The options of a chat call (`chat`, and `chatStream` through `ChatStreamOptions`). */
export interface ChatCallOptions extends CallOptions, SteeringOptions {
  /**
   * The model's capabilities when the caller knows them: the gate checks the call against these
   * and reads no catalog (unless it refuses, to name the models that would do). Without them the
   * gate reads the model's from the cached catalog (`GET /models`, once per `catalogTtlMs`).
   */
  capabilities?: readonly string[];
  /**
   * A call whose `response_format` is `json_schema`: the methods its models may serve the schema
   * with, and the caller's Standard Schema (zod, …) that checks the answer (see
   * `StructuredOutputOptions`). Ignored by a call that asks for no schema.
   */
  structuredOutput?: StructuredOutputOptions;
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
  /**
   * `true`: the stream also gives each SSE event's JSON as the server sent it, as a `raw` event
   * before the events decoded from it (for fields core does not read: `citations`, `x_groq`, …).
   * Default `false` (nothing kept).
   */
  rawChunks?: boolean;
  /**
   * Called with each attempt's 2xx answer as its headers come, before its first event is read
   * (the stream resolves once that event came; a stall or a failure reported before it may still
   * be retried or fail over, which calls this again): for adapters whose framework hands on a
   * stream once its headers are in.
   */
  onHeaders?: (answer: { status: number; headers: Headers }) => void;
}

/** What a chat call uses of its client. */
export interface ChatContext {
  transport: Transport;
  catalog: Catalog;
  /** The client's `streamUsage`. */
  streamUsage: boolean;
  /** The client's steering options (stall timeouts, hedge, breakers). */
  steering: ClientSteering;
  /** The client's calls not ended (`client.budget.pendingCalls`): each chat call counts in it. */
  calls: PendingCalls;
}

/** A call given no options (one object for all: it is only read). */
const NO_OPTIONS: ChatStreamOptions = Object.freeze({});

/**
 * A client's chat context, found when a call begins (it throws when the client has no connection:
 * that call's error). The client gives one such function for all its calls.
 */
export type ChatContextOf = () => ChatContext;

/**
 * `POST /chat/completions` answered as one JSON completion, checked and read. What it throws is
 * redacted of the client's key (`redactOwnKey`): the client's `chat` is this call, with no layer
 * of its own around it.
 */
export function postChat(
  contextOf: ChatContextOf,
  given: ChatRequest,
  opts: ChatCallOptions | undefined,
): Promise<ChatResult> {
  return chatCall(
    contextOf,
    given,
    opts,
    'chat',
    (transport) => (spec, via) => transport.json<ChatCompletionResponse>(spec, opts, via),
    (answered, req, json, transport) => chatResult(answered, req.model, transport, json),
  );
}

/**
 * What `postChat` and `openChatStream` share: the call's context, its request and options read
 * (`readChatCall`), the JSON steering loaded when the request asks for JSON text, the answer
 * (`answerChat`, each request sent by `sendVia`), then read (`read`, in the same turn: a stream's
 * caller gets it as soon as it opened); what any of it throws is redacted of the client's key.
 * The call counts in its client's pending calls from here to its end: a stream's end is the
 * stream's to tell (`ended`, given to `read`), any other call ends when this returns or throws.
 */
async function chatCall<A, T>(
  contextOf: ChatContextOf,
  given: ChatRequest,
  opts: ChatStreamOptions | undefined,
  name: 'chat' | 'chatStream',
  sendVia: (transport: Transport) => (spec: RequestSpec, via?: OpenVia) => Promise<A>,
  read: (
    answered: SteeredChatAnswer<A> | OneModelAnswer<A>,
    req: ChatRequest,
    json: JsonSteering | undefined,
    transport: Transport,
    ended: () => void,
  ) => T,
): Promise<T> {
  let owner: Transport | undefined;
  let pending: PendingCalls | undefined;
  try {
    const context = contextOf();
    const { transport } = context;
    owner = transport;
    pending = context.calls;
    pending.begin();
    const req = readChatCall(given, opts, name);
    const json = asksForJsonText(req) ? await loadSteering() : undefined;
    const stream = name === 'chatStream';
    const answered = await answerChat(context, req, opts, stream, sendVia(transport));
    if (!stream) return read(answered, req, json, transport, NOTHING_TO_END);
    // From here the stream ends the count, once: when its body settles, as its slot comes back.
    const ended = pending.endOnce();
    pending = undefined;
    try {
      return read(answered, req, json, transport, ended);
    } catch (error) {
      ended();
      throw error;
    }
  } catch (error) {
    throw redactOwnKey(error, owner);
  } finally {
    pending?.end();
  }
}

/** A whole answer's `read` ends nothing: its call ends as `chatCall` returns. */
const NOTHING_TO_END = (): void => {};

/**
 * A chat call's request, read once (its null fields left out), and its options checked before the
 * gate's catalog read (none given: nothing to walk); chatStream's own flags must be booleans.
 */
function readChatCall(
  given: ChatRequest,
  opts: ChatStreamOptions | undefined,
  name: 'chat' | 'chatStream',
): ChatRequest {
  // A call option given in the request (`signal`, `timeoutMs`) would be sent and do nothing.
  refuseCallOptionsInRequest(given, name);
  const req = validateChatRequest(given);
  refuseStreamNotTaken(req.stream, name);
  checkCallOptions(opts, name);
  if (name === 'chatStream') {
    for (const flag of ['assemble', 'streamUsage', 'rawChunks'] as const) {
      const value = opts?.[flag];
      if (value !== undefined && typeof value !== 'boolean') {
        throw refusal('call option', flag, `must be a boolean, got ${typeof value}`);
      }
    }
    if (opts?.onHeaders !== undefined && typeof opts.onHeaders !== 'function') {
      throw refusal('call option', 'onHeaders', `must be a function, got ${typeof opts.onHeaders}`);
    }
  }
  return req;
}

/** A chat answer as the transport read it whole. */
type JsonAnswer = Awaited<ReturnType<Transport['json']>> & { data: ChatCompletionResponse };

/** A choice's text as JSON with no schema reads it (a tool step's handed on as it came). */
function jsonTextOf(choice: AssembledChat, json: JsonSteering): void {
  if (choice.toolCalls.length === 0) {
    choice.text = jsonBesideRefusal(choice.text, choice.refusal, json.jsonInText);
  }
}

/** A whole answer checked and read into the call's result. */
function chatResult(
  answered: SteeredChatAnswer<JsonAnswer> | OneModelAnswer<JsonAnswer>,
  requestedModel: string,
  transport: Transport,
  json: JsonSteering | undefined,
): ChatResult {
  const answer = answered.answer;
  // (A steered call's errors carry its route, also those found in its answer.)
  const assembled = readCheckedCompletion(answer, requestedModel, transport, answered.failed);
  // A tool step's text is handed on as it came (§4.8 item 6), as with a schema.
  if (json) jsonTextOf(assembled, json);
  const { data, headers } = answer;
  const servedModel = answeringModel(headers, data.model, answered.model);
  // A key a proxy echoed (a debug header, a body field) leaves redacted, as in an error. The
  // headers are looked through when read: iterating them costs more than the rest of a call's own
  // work (B1), and most callers never read them.
  const redact = ownRedaction(transport);
  let shown: Headers | undefined;
  const result: ChatResult = {
    response: keptOutBody(data, answer.text, redact),
    answer: assembled,
    requestedModel,
    servedModel,
    fallback: answeredByAnother(requestedModel, servedModel),
    route: routeOf(requestedModel, servedModel, answered),
    get headers() {
      shown ??= keptOutHeaders(headers, redact);
      return shown;
    },
  };
  // (`n` > 1: every choice, for adapters that hand each on; the answer is choice 0.)
  const choices = readEveryChoice(data, assembled);
  if (choices !== undefined) result.choices = choices;
  // (JSON with no schema: every choice's text read by the one rule, as choice 0's.)
  if (json && choices) for (const choice of choices.slice(1)) jsonTextOf(choice, json);
  const { structured, structuredUnchecked: unchecked } = answered;
  if (structured) result.structured = assembled.structured = structured;
  // (An answer handed on unchecked, `lastAnswer: 'returned'`: how it was served.)
  if (unchecked) result.structuredUnchecked = assembled.structuredUnchecked = unchecked;
  // The finish the server sent, which the clean answer's body reports as `stop`.
  const sent = (structured ?? unchecked)?.sentFinishReason;
  if (sent !== undefined) assembled.sentFinishReason ??= sent;
  // (`n` > 1: each later choice handed on unchecked carries its own mark.)
  if (choices) answered.markChoices?.(choices);
  return result;
}

/**
 * `POST /chat/completions` with `stream: true`: resolves once the answer's headers arrived. What it
 * throws is redacted of the client's key, as `postChat`'s.
 */
export function openChatStream(
  contextOf: ChatContextOf,
  given: ChatRequest,
  opts: ChatStreamOptions | undefined,
): Promise<ChatStream> {
  return chatCall(
    contextOf,
    given,
    opts,
    'chatStream',
    (transport) => (spec, via) =>
      transport.open(spec, keptOutOnHeaders(opts, transport), via).catch((error: unknown) => {
        throw namingStreamUsage(error, spec);
      }),
    (answered, req, json, transport, ended) =>
      chatStream(answered, req, opts, json, transport, ended),
  );
}

/** `opts` with its `onHeaders` (if any) told the headers as a result has them: the key redacted. */
function keptOutOnHeaders(
  opts: ChatStreamOptions | undefined,
  transport: Transport,
): ChatStreamOptions | undefined {
  const told = opts?.onHeaders;
  if (told === undefined) return opts;
  const redact = ownRedaction(transport);
  return {
    ...opts,
    onHeaders: (answer) => told({ ...answer, headers: keptOutHeaders(answer.headers, redact) }),
  };
}

/** The stream of an open answer. */
function chatStream(
  answered: SteeredChatAnswer<OpenResponse> | OneModelAnswer<OpenResponse>,
  req: ChatRequest,
  opts: ChatStreamOptions | undefined,
  json: JsonSteering | undefined,
  transport: Transport,
  callEnded: () => void,
): ChatStream {
  const open = answered.answer;
  // The header, else (once a chunk names it) the chunks' `model`, else the model sent: the
  // stream learns the chunks' as it decodes them.
  const named = answeringModel(open.response.headers, undefined, undefined);
  const servedModel = named ?? answered.model;
  const route = routeOf(req.model, servedModel, answered);
  const { structuredStream } = answered;
  return new GatewayChatStream(open, {
    requestedModel: req.model,
    servedModel,
    modelInChunks: named === undefined,
    route,
    headers: keptOutHeaders(open.response.headers, ownRedaction(transport)),
    // A schema's answer is checked whole at its end: assembled whatever `assemble` says.
    assemble: opts?.assemble !== false || structuredStream !== undefined,
    rawChunks: opts?.rawChunks === true,
    choices: choicesAsked(req.n),
    maxErrorBodyBytes: transport.maxErrorBodyBytes,
    silence: answered.silence,
    failed: answered.failed,
    // A steered stream's outcome goes to its model's breaker when it ends.
    ended: answered.ended,
    callEnded,
    structured: structuredStream?.(route) ?? json?.jsonTextHooks((req.tools ?? []).length > 0),
  });
}

/** The route a call reports: a steered call's hops, else its one model's. */
function routeOf(
  requestedModel: string,
  servedModel: string,
  answered: Pick<SteeredAnswer<unknown>, 'route'> | { route?: undefined } | undefined,
): ChatRoute {
  return answered?.route
    ? answered.route(servedModel)
    : singleHopRoute(requestedModel, servedModel);
}

/**
 * The steering module with what a steered call adds to it (its bodies per model, a stream's
 * first-content reader), loaded by the first call that steers (steered-chat.ts) or asks for
 * `json_object` (its fence rule, without steering): an app whose calls do neither never loads it.
 */
const loadSteering = lazily('the steering', () => import('./steered-chat'));

/** The steering module, as `loadSteering` gives it. */
type JsonSteering = typeof import('./steered-chat');

/**
 * Whether the fence rule (§4.8) applies: a call asking for JSON with no schema (`json_object`),
 * its answer's text read as a schema's is, whichever adapter sent it. The rule loads with the
 * steering module before anything is sent (a failed load is the call's error).
 */
function asksForJsonText(req: ChatRequest): boolean {
  return req.response_format?.type === 'json_object';
}

/** A call's answer from its one model (a call that does not steer). */
interface OneModelAnswer<T> {
  answer: T;
  model: string;
  route?: undefined;
  silence?: undefined;
  failed?: undefined;
  ended?: undefined;
  structured?: undefined;
  structuredUnchecked?: undefined;
  markChoices?: undefined;
  structuredStream?: undefined;
}

/**
 * Sends the call and returns its answer and the model it asked: a plain call through core's gate
 * (its one model checked against the catalog, read when the cached one cannot say), counted per
 * model while in flight; a call with a fallback list, a stall timeout, a hedge or a schema
 * (structured output) through the steering module, which plans, gates and walks its models.
 */
async function answerChat<T>(
  context: ChatContext,
  req: ChatRequest,
  opts: ChatStreamOptions | undefined,
  stream: boolean,
  sendVia: (spec: RequestSpec, via?: OpenVia) => Promise<T>,
): Promise<SteeredChatAnswer<T> | OneModelAnswer<T>> {
  const { transport, catalog } = context;
  const needs = requiredCapabilities(req, stream);
  const streamUsage = opts?.streamUsage ?? context.streamUsage;
  if (steers(opts, context.steering, req)) {
    const { sendSteeredChat } = await loadSteering();
    const { steering: client } = context;
    const call = {
      transport,
      catalog,
      client,
      options: opts ?? {},
      needs,
      req,
      stream,
      streamUsage,
      answering: answeringModel,
    };
    return sendSteeredChat(call, sendVia);
  }
  const spec = chatSpec(req, stream, streamUsage);
  const known = opts?.capabilities;
  if (gateModelFromCache(catalog, req.model, needs, known)) {
    const scope = scopeOf(opts, transport.timeoutMs);
    const policy = plainPolicy(transport, spec, opts, stream && choicesAsked(req.n), scope);
    return { answer: await sendVia(spec, { policy, scope }), model: req.model };
  }
  // The catalog must be read (once per catalogTtlMs): a request of this call's, in its events,
  // under its one deadline and retry allowance (§10.5: the AI SDK's one attempt is one read too).
  const events = await transport.callEvents(spec);
  const scope = scopeOf(opts, transport.timeoutMs);
  const policy = plainPolicy(transport, spec, opts, stream && choicesAsked(req.n), scope);
  const lookup = { known, signal: scope.signal, maxRetries: opts?.maxRetries };
  try {
    await gateModel(catalog, req.model, needs, lookup, events);
  } catch (cause) {
    const error = scope.ended
      ? withFailedRead(scope.error({ requestedModel: req.model }), cause)
      : cause;
    scope.dispose();
    events?.failed(error);
    throw error;
  }
  return { answer: await sendVia(spec, { events, policy, scope }), model: req.model };
}

/**
 * A plain call's policy: the same request, retried as the retry policy allows, counted per model;
 * a stream's answer taken once its first event came (an error object there, retryable, is retried
 * as its status would be: first-event-failure.ts), read under the call's `scope`.
 * `streamChoices`: a stream's choices asked (`n`, as its decoder reads them), false for a whole one.
 */
function plainPolicy(
  transport: Transport,
  spec: RequestSpec,
  opts: ChatStreamOptions | undefined,
  streamChoices: number | false,
  scope: CallScope,
): AttemptPolicy {
  let retries = retrySameRequest(spec, transport.retryAllowance(opts ?? NO_OPTIONS));
  if (streamChoices !== false) {
    const { maxRetryAfterMs } = transport.retryAllowance(opts ?? NO_OPTIONS);
    const { maxErrorBodyBytes } = transport;
    const limits = { maxErrorBodyBytes, maxRetryAfterMs, choices: streamChoices };
    retries = acceptingFirstEvent(retries, scope, limits);
  }
  return countedPerModel(retries, transport.slots.budgetId);
}

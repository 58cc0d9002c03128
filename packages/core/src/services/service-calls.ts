// docs/gateway-protocol.md §3.2 (`available_nodes`), §6 (embeddings), §7 (translation), §8 (OCR),
// §9 (transcription).
/**
 * The service calls (embeddings, translation, OCR, speech to text). The client loads this module
 * on the first service call, so that a bundler with code splitting keeps it out of a chat-only
 * app's start-up chunk.
 */

import type { CallOptions } from '../call/call-options';
import { deadlineStartOf, withDeadlineStarted } from '../call/deadline-start';
import { EMBEDDINGS_SETTINGS, type OptionGroup, readGroup } from '../call/option-groups';
import type { Catalog } from '../catalog/catalog';
import { listIds } from '../catalog/model-capabilities';
import { jsonBody } from '../encoding/json-body';
import { GatewayError, isGatewayError } from '../errors/errors';
import { keptOutBody, ownRedaction } from '../errors/redact-secret';
import { keptOutHeaders } from '../errors/response-headers';
import { type AttemptPolicy, retrySameRequest } from '../http/attempt-policy';
import type { Transport } from '../http/transport';
import { unusableAnswer } from '../http/unusable-answer';
import { isServiceOffered, SERVICE_PATHS } from '../protocol/endpoints';
import type {
  EmbeddingEngine,
  EmbeddingInputType,
  EmbeddingsRequest,
  EmbeddingsResponse,
  GatewayService,
  OcrRequest,
  OcrResponse,
  ServiceId,
  TranscriptionRequest,
  TranscriptionResponse,
  TranslationRequest,
  TranslationResponse,
} from '../protocol/wire-types';
import { buildTranscriptionBody } from './build-transcription-body';
import { checkEmbedManyOnEngine, embedManyTextSizes } from './check-embed-many';
import { takesInputType } from './dropped-embedding-options';
import {
  type BatchesSent,
  FAILED_BATCHES,
  type FailedBatchesOption,
  inFlightFinish,
  siblingPolicy,
  tellFailedBatches,
} from './in-flight-kept';
import { KEPT_VECTORS, type KeptVectorsOption } from './kept-vectors';
import { readEmbeddingItemsLiberally } from './liberal-embedding-items';
import { inTurns } from './requests-in-turns';
import { runSiblingRequests, type SiblingRequest } from './sibling-requests';
import { splitBatches } from './split-embedding-batches';
import { validateEmbeddingsRequest, validateForEngine } from './validate-embeddings';
import { validateOcrRequest } from './validate-ocr';
import {
  type AnsweredBatch,
  batchLengthProblem,
  dimensionsProblem,
  embeddingsProblem,
  filledFromRequest,
  inInputOrder,
  serviceAnswerProblem,
} from './validate-service-response';
import { validateTranscriptionRequest } from './validate-transcription';
import { validateTranslationRequest } from './validate-translation';

export interface EmbedManyOptions extends CallOptions {
  model?: string;
  inputType?: EmbeddingInputType;
  dimensions?: number;
  /**
   * At most this many of the call's requests (its batches) in flight at once, sent in input
   * order (an integer ≥ 1). Default: no bound of its own; the key's budget (`maxConcurrencyPerKey`,
   * shared by every call) bounds them.
   */
  maxConcurrency?: number;
}

/**
 * `embedMany`'s own option of a kind, read by core's option reader; its others are checked with
 * its texts. Declared here, in the service calls' chunk: with the other groups it would put bytes
 * in every chat-only app's start.
 */
const EMBED_MANY_OPTIONS: OptionGroup<Pick<EmbedManyOptions, 'maxConcurrency'>> = {
  name: 'embedMany',
  fields: { maxConcurrency: EMBEDDINGS_SETTINGS.fields.maxConcurrency },
};

/** What a service call works with: the client's transport and catalog. */
export interface ServiceContext {
  transport: Transport;
  catalog: Catalog;
}

export async function embeddingEngines(
  catalog: Catalog,
  opts: CallOptions | undefined,
): Promise<EmbeddingEngine[]> {
  return engineListOf(await catalog.services(opts)) ?? [];
}

/**
 * The engines the embeddings entry lists; undefined when the entry has no `engines` field (the
 * spec's column, not a required one): which engines there are is then unknown, not none.
 */
function engineListOf(services: readonly GatewayService[]): EmbeddingEngine[] | undefined {
  const embeddings = services.find((service) => service.id === 'embeddings');
  if (embeddings !== undefined && !Array.isArray(embeddings.engines)) return undefined;
  return embeddings?.engines ?? [];
}

/**
 * The engine `engineId` names, else the only one listed. `alreadyReread`: the call read the
 * list again already (`checkService`), and reads it no more. When the list does not say which
 * engines there are (no `engines` field), a named engine is sent as named and the gateway
 * decides; without a name there is none to pick.
 */
export async function resolveEmbeddingEngine(
  catalog: Catalog,
  engineId: string | undefined,
  opts: CallOptions | undefined,
  alreadyReread = false,
): Promise<EmbeddingEngine> {
  const cached = catalog.cachedServices() !== undefined;
  let listed: EmbeddingEngine[] | undefined;
  try {
    listed = engineListOf(await catalog.services(opts));
  } catch (error) {
    unlistedEngine(error);
  }
  // The engine missing, or no engine at all, may be a stale cached list's: read it once more
  // (§3.3); if that read fails, the cached list answers.
  const missing =
    listed === undefined ||
    (engineId === undefined ? listed.length === 0 : !listed.some((e) => e.id === engineId));
  if (missing && cached && !alreadyReread) {
    const services = await rereadServices(catalog, opts);
    if (services !== undefined) listed = engineListOf(services);
  }
  if (listed === undefined) return unknownEngines(engineId);
  const engines = listed;
  const ids = engines.map((engine) => engine.id);
  if (engineId !== undefined) {
    const engine = engines.find((candidate) => candidate.id === engineId);
    if (engine) return engine;
    throw new GatewayError({
      code: 'model_not_found',
      message: `Embedding engine "${engineId}" is not available (GET /capabilities lists: ${listIds(ids)}). The engine is never changed automatically: vectors of different engines do not mix.`,
      model: engineId,
      alternatives: ids,
    });
  }
  if (engines.length === 1) return engines[0]!;
  if (engines.length === 0) {
    throw new GatewayError({
      code: 'provider_unavailable',
      message: 'No embedding engine is available now (GET /capabilities lists none)',
    });
  }
  throw new GatewayError({
    code: 'invalid_request_error',
    message: `model: is required: ${engines.length} embedding engines are available (${listIds(ids)}); pick one and keep it for documents and queries`,
    field: 'model',
    alternatives: ids,
  });
}

/** The engine named, as named, when the list does not say which there are; else a refusal. */
function unknownEngines(engineId: string | undefined): EmbeddingEngine {
  if (engineId !== undefined) return { id: engineId };
  throw new GatewayError({
    code: 'invalid_request_error',
    message:
      'model: is required: GET /capabilities lists no engines for embeddings (its entry has no `engines` field); name one with `model`',
    field: 'model',
  });
}

/**
 * `GET /capabilities` could not be read for the engine (none cached): the call fails as that read
 * did, its message naming the request, since the call's own was never sent (rv-svc F7). It fails
 * even with an engine named: the list is what tells an engine that is gone (`model_not_found`,
 * never another engine's vectors) and the engine's own limits; a timeout or an abort ends the call
 * as it is.
 */
function unlistedEngine(error: unknown): never {
  if (!isGatewayError(error) || error.code === 'timeout' || error.code === 'aborted') throw error;
  throw new GatewayError({
    code: error.code,
    status: error.status,
    type: error.type,
    field: error.field,
    retryAfterMs: error.retryAfterMs,
    body: error.body,
    responseHeaders: error.responseHeaders,
    message: `GET /capabilities, read to find the embedding engine, failed (nothing was embedded): ${error.message}`,
    cause: error,
  });
}

export async function embed(
  context: ServiceContext,
  req: EmbeddingsRequest,
  opts: CallOptions | undefined,
): Promise<EmbeddingsResponse> {
  const sizes = validateEmbeddingsRequest(req);
  const callOptions = startedDeadline(opts);
  const engine = await checkedEngine(context.catalog, req.model ?? undefined, callOptions);
  validateForEngine(req, sizes, engine);
  // `null`: not given (left out of the body), as `model` is.
  const { input_type, dimensions } = req;
  const sent = {
    ...req,
    model: engine.id,
    input_type: input_type ?? undefined,
    dimensions: dimensions ?? undefined,
  };
  return postEmbeddings(context, sent, sizes.length, callOptions);
}

/** The engine `model` names, once the service is checked: the list read again once at most. */
async function checkedEngine(
  catalog: Catalog,
  model: string | undefined,
  opts: CallOptions,
): Promise<EmbeddingEngine> {
  const alreadyReread = await checkService(catalog, 'embeddings', opts);
  return resolveEmbeddingEngine(catalog, model, opts, alreadyReread);
}

/**
 * The call's options with its deadline started now (unless an adapter started it already): one
 * `timeoutMs` over the list's look-up or re-read (`GET /capabilities`) and the requests that
 * follow.
 */
function startedDeadline<T extends CallOptions>(opts: T | undefined): T {
  const options = opts ?? ({} as T);
  return deadlineStartOf(options) === undefined ? withDeadlineStarted(options) : options;
}

/**
 * What an `embedMany`'s batches share: the vectors answered, the first batch answered (the others'
 * vectors must be of its length) and the requests sent.
 */
interface EmbedManyState {
  vectors: (number[] | undefined)[];
  first?: AnsweredBatch;
  sent: BatchesSent;
}

/** Sends one batch of an `embedMany` and fills its slots of the shared vectors. */
function batchSender(
  context: ServiceContext,
  texts: string[],
  engine: EmbeddingEngine,
  { inputType, dimensions }: Pick<EmbedManyOptions, 'inputType' | 'dimensions'>,
  callOptions: CallOptions,
  state: EmbedManyState,
) {
  return async (batch: { start: number; end: number }, sibling: SiblingRequest, index: number) => {
    const { start, end } = batch;
    const request: EmbeddingsRequest = { input: texts.slice(start, end), model: engine.id };
    // input_type is a field of the multilingual engine only (docs/gateway-protocol.md §6).
    // (`null`: not given.)
    if (inputType != null && takesInputType(engine)) request.input_type = inputType;
    if (dimensions != null) request.dimensions = dimensions;
    const batchOptions = { ...callOptions, signal: sibling.signal };
    const lengthProblem = (answer: EmbeddingsResponse) => {
      state.first ??= { start, end, length: answer.data[0]!.embedding.length };
      return batchLengthProblem(answer, batch, state.first);
    };
    const response = await postEmbeddings(context, request, end - start, batchOptions, {
      policy: (policy) => {
        const own = siblingPolicy(policy, sibling, index, state.sent);
        // Before the siblings stop with it: the refused text named by its index in `texts`.
        const failed = (error: unknown) => {
          nameInCallersList(error, start, texts.length);
          own.failed?.(error);
        };
        return { ...own, failed };
      },
      lengthProblem,
    });
    // In input order already (`postEmbeddings`).
    response.data.forEach((item, i) => {
      state.vectors[start + i] = item.embedding;
    });
  };
}

/**
 * The gateway's refusal of one text of an `embedMany` batch names it by its index in that request
 * (`input[16]`), which the caller never saw: named, in place (the failure the batch's siblings and
 * the caller see is this very error), as `embedMany` names its texts, by the index in the caller's
 * whole list (`texts[80]`, or `text` for a list of one), `field` set as core's own refusals set it.
 * `start`: the batch's first text in the list; `count`: the list's length.
 */
function nameInCallersList(error: unknown, start: number, count: number): void {
  // Core's own refusals name the text already (`field`); the gateway's come with a status.
  if (isGatewayError(error) && error.status && !error.field) {
    const named = error as { message: string; field?: string; stack?: string };
    const { message } = error;
    named.message = message.replace(/\binput\[(\d+)\]/g, (_, index: string) => {
      named.field = count > 1 ? `texts[${start + +index}]` : 'text';
      return named.field;
    });
    // (A logged error shows its stack, which starts with the message.)
    named.stack = named.stack?.replace(message, named.message);
  }
}

export async function embedMany(
  context: ServiceContext,
  texts: string[],
  opts: EmbedManyOptions,
): Promise<number[][]> {
  const options: EmbedManyOptions & KeptVectorsOption & FailedBatchesOption = opts;
  const {
    model,
    inputType,
    dimensions,
    maxConcurrency,
    [KEPT_VECTORS]: kept,
    [FAILED_BATCHES]: failed,
    ...rest
  } = options;
  // A bad bound is refused as a bad `maxRetries` is, before any text or request.
  readGroup(EMBED_MANY_OPTIONS, opts, 'call option', '', 'configuration_error');
  const inputs = { inputType, dimensions };
  const sizes = embedManyTextSizes(texts, inputs);
  if (texts.length === 0) return [];
  // One deadline (`timeoutMs`) over the engine look-up and every batch.
  const callOptions = startedDeadline(rest);
  const engine = await checkedEngine(context.catalog, model ?? undefined, callOptions);
  checkEmbedManyOnEngine(texts, sizes, inputs, engine);
  // An earlier try's vectors (kept-vectors.ts): the same texts cut the same way, so a batch whose
  // slots it filled is not sent again.
  const vectors: (number[] | undefined)[] =
    kept?.length === texts.length ? kept : new Array<number[]>(texts.length);
  // The first failing batch stops the others (before its slot is given back: `stop` is its retry
  // policy's `failed`), since their answers could no longer be used; kept for a retry of the
  // call, those in flight finish after a failure it may fix (in-flight-kept.ts).
  const state: EmbedManyState = { vectors, sent: { sent: [] } };
  const batches = splitBatches(sizes).filter((batch) => {
    const answered = vectors[batch.start];
    if (answered !== undefined) state.first ??= { ...batch, length: answered.length };
    return answered === undefined;
  });
  const send = batchSender(context, texts, engine, inputs, callOptions, state);
  const sendInTurns = maxConcurrency === undefined ? send : inTurns(maxConcurrency, send);
  const { maxRetryAfterMs } = context.transport.retryAllowance(callOptions);
  const letFinish = vectors === kept ? inFlightFinish(state.sent, maxRetryAfterMs) : undefined;
  try {
    await runSiblingRequests(batches, callOptions.signal, sendInTurns, letFinish);
  } catch (error) {
    if (failed !== undefined) tellFailedBatches(failed, batches, state.sent, vectors);
    throw error;
  }
  // Every slot is filled: the batches cover the list, and each answer held one vector per input.
  // The caller's own array, not the kept one the adapter holds (kept-vectors.ts).
  return (vectors === kept ? [...vectors] : vectors) as number[][];
}

export async function translate(
  context: ServiceContext,
  req: TranslationRequest,
  opts: CallOptions | undefined,
): Promise<TranslationResponse> {
  validateTranslationRequest(req);
  // `null`: not given (left out of the body).
  const { model, source_language } = req;
  const body = jsonBody({
    ...req,
    model: model ?? undefined,
    source_language: source_language ?? undefined,
  });
  // The answer's `target_language` is the request's when it leaves it out.
  return postService(context, 'translation', body, opts, { target_language: req.target_language });
}

export async function ocr(
  context: ServiceContext,
  req: OcrRequest,
  opts: CallOptions | undefined,
): Promise<OcrResponse> {
  const image = await validateOcrRequest(req);
  const body = jsonBody({ image_base64: image, model: req.model ?? undefined });
  return postService(context, 'ocr', body, opts);
}

export async function transcribe(
  context: ServiceContext,
  req: TranscriptionRequest,
  opts: CallOptions | undefined,
): Promise<TranscriptionResponse | string> {
  const audio = await validateTranscriptionRequest(req);
  const body = await buildTranscriptionBody(req, audio);
  if (req.response_format !== 'text') return postService(context, 'speech_to_text', body, opts);
  // One deadline over the list's re-read and the request.
  const callOptions = startedDeadline(opts);
  await checkService(context.catalog, 'speech_to_text', callOptions);
  const spec = {
    method: 'POST' as const,
    path: SERVICE_PATHS.speech_to_text,
    body,
    accept: 'text/plain',
  };
  const answer = await context.transport.text(spec, callOptions);
  reportResponse(context.transport, callOptions, answer, answer.text);
  return textTranscript(context.transport, answer);
}

/**
 * The transcript of a `response_format: 'text'` answer: its body, or, when the server answered
 * JSON anyway (one that ignores `response_format`), that JSON's `text` (§9: the JSON answer's
 * shape); JSON without a string `text` is an `invalid_response`. A body labelled JSON that does
 * not parse is taken as the text it is.
 */
function textTranscript(
  transport: Transport,
  answer: { text: string; headers: Headers; status: number },
): string {
  if (!/^application\/(?:[\w.+-]*\+)?json\b/i.test(answer.headers.get('content-type') ?? '')) {
    return answer.text;
  }
  let data: unknown;
  try {
    data = JSON.parse(answer.text);
  } catch {
    return answer.text;
  }
  // (A server whose handler returns a plain string sends it as a JSON string: the transcript.)
  if (typeof data === 'string') return data;
  const problem = serviceAnswerProblem('speech_to_text', data);
  if (problem === undefined) return (data as TranscriptionResponse).text;
  throw unusableAnswer(transport, `The speech_to_text answer ${problem}`, { ...answer, data });
}

/**
 * Refuses with provider_unavailable, before the service's request, while the catalog says the
 * service cannot serve. A refusal coming from the cached list reads that list again once first
 * (§3.3): a service back up is then served at once, not refused for up to `catalogTtlMs` (by
 * `ai`'s retries too). Only a call the cache would refuse pays that read; an offered service
 * costs none. Returns whether it read the list again.
 */
async function checkService(
  catalog: Catalog,
  id: ServiceId,
  opts: CallOptions | undefined,
): Promise<boolean> {
  if (isServiceOffered(catalog.cachedServices(), id)) return false;
  const services = await rereadServices(catalog, opts);
  if (services !== undefined && isServiceOffered(services, id)) return true;
  const nodes = `available_nodes 0${id === 'embeddings' ? ' or no engine' : ''}`;
  const source =
    services === undefined
      ? `GET /capabilities, cached: ${nodes}; it could not be read again now`
      : `GET /capabilities, read again now: ${nodes}`;
  throw new GatewayError({
    code: 'provider_unavailable',
    message: `The ${id} service has no provider online (${source}); its request was not sent`,
  });
}

/**
 * `GET /capabilities` read again for a call the cached list would refuse: under the call's
 * deadline, one attempt (the cached answer stands behind it). Undefined when that read failed;
 * the call's own timeout or abort ends the call.
 */
async function rereadServices(
  catalog: Catalog,
  opts: CallOptions | undefined,
): Promise<GatewayService[] | undefined> {
  try {
    return await catalog.rereadServices({ ...opts, maxRetries: 0 });
  } catch (error) {
    if (isGatewayError(error) && (error.code === 'timeout' || error.code === 'aborted')) {
      throw error;
    }
    return undefined;
  }
}

/** What `postEmbeddings` is told of an `embedMany` batch: its retry policy among its siblings, its length check. */
interface EmbedManyBatch {
  /** The default policy, as the batch's siblings need it (`siblingPolicy`). */
  policy(policy: AttemptPolicy): AttemptPolicy;
  /** Whether an answer that is right on its own differs from the call's other batches. */
  lengthProblem(answer: EmbeddingsResponse): string | undefined;
}

async function postEmbeddings(
  { transport }: ServiceContext,
  req: EmbeddingsRequest,
  count: number,
  opts: CallOptions | undefined,
  batch?: EmbedManyBatch,
): Promise<EmbeddingsResponse> {
  const spec = { method: 'POST' as const, path: SERVICE_PATHS.embeddings, body: jsonBody(req) };
  const request = { ...spec, model: req.model };
  const same = retrySameRequest(request, transport.retryAllowance(opts ?? {}));
  // A failed batch stops its siblings before its slot is given back (`AttemptPolicy.failed`).
  const policy = batch?.policy(same) ?? same;
  const answer = await transport.json<EmbeddingsResponse>(request, opts, { policy });
  readEmbeddingItemsLiberally(answer.data);
  const problem = embeddingsProblem(answer.data, count);
  const dimensions = problem ?? dimensionsProblem(answer.data, req.dimensions);
  if (problem === undefined && dimensions !== undefined) {
    throw withField(
      unusableAnswer(transport, `The embeddings answer ${dimensions}`, answer),
      'dimensions',
    );
  }
  const lengthProblem = problem ?? batch?.lengthProblem(answer.data);
  // Before `accepted` tells `onResponse`, so it sees the answer as `embed` returns it.
  if (lengthProblem === undefined) inInputOrder(answer.data);
  return accepted(transport, opts, 'embeddings', answer, lengthProblem);
}

/** `error` naming the request field its answer does not match (`dimensions`). */
function withField(error: GatewayError, field: string): GatewayError {
  const { code, message, status, body, data, responseHeaders } = error;
  return new GatewayError({ code, message, status, body, data, responseHeaders, field });
}

/**
 * POSTs to a service (after the availability check) and checks the answer's required fields;
 * `fromRequest`: fields the request says, written into an answer that leaves them out.
 */
async function postService<T>(
  { transport, catalog }: ServiceContext,
  service: 'translation' | 'ocr' | 'speech_to_text',
  body: string | FormData,
  opts: CallOptions | undefined,
  fromRequest: Readonly<Record<string, string>> = {},
): Promise<T> {
  // One deadline over the list's re-read and the request.
  const callOptions = startedDeadline(opts);
  await checkService(catalog, service, callOptions);
  // A transcript answered as text/plain to a JSON request (a server that ignores
  // `response_format`) is read as the JSON answer's `text`.
  const plainTextField = service === 'speech_to_text' ? 'text' : undefined;
  const answer = await transport.json<T>(
    { method: 'POST', path: SERVICE_PATHS[service], body, plainTextField },
    callOptions,
  );
  const problem =
    serviceAnswerProblem(service, answer.data) ??
    filledFromRequest(answer.data as Record<string, unknown>, fromRequest);
  return accepted(transport, callOptions, service, answer, problem);
}

/** A service's answer (`problem`: what its shape lacks), its data once `onResponse` was told. */
function accepted<T>(
  transport: Transport,
  opts: CallOptions | undefined,
  service: string,
  answer: { data: T; headers: Headers; status: number; text: string },
  problem: string | undefined,
): T {
  // A body that is the gateway's error object is that error, as chat reads it (§5.3).
  if (problem) throw unusableAnswer(transport, `The ${service} answer ${problem}`, answer);
  reportResponse(transport, opts, answer, answer.data);
  return answer.data;
}

/**
 * Tells the caller's `onResponse` about an answer; its failure is the caller's, not the call's. The
 * headers and body as the client's errors have them: a key a proxy echoed redacted.
 */
function reportResponse(
  transport: Transport,
  opts: CallOptions | undefined,
  answer: { status: number; headers: Headers; text: string },
  body: unknown,
): void {
  const told = opts?.onResponse;
  if (told === undefined) return;
  const redact = ownRedaction(transport);
  try {
    told({
      status: answer.status,
      headers: keptOutHeaders(answer.headers, redact),
      body: keptOutBody(body, answer.text, redact),
    });
  } catch {
    // A throwing observer must not turn a good answer into a failure.
  }
}

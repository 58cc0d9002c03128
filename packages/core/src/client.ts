import { readChatCompletion } from './assemble-chat';
import { Catalog } from './catalog';
import { closeMatches, listIds } from './close-matches';
import { budgetId, ClientBudgetView, defaultBudget, Semaphore } from './concurrency-budget';
import { GatewayError, invalidRequest, isGatewayError } from './errors';
import { capabilitiesOf, checkCapabilities, isOwnModelId } from './model-capabilities';
import { missingConfiguration, resolveOptions } from './options';
import { splitBatches } from './split-embedding-batches';
import { GatewayChatStream } from './sse-chat-stream';
import { invalidResponse, Transport } from './transport';
import type {
  CallOptions,
  ChatCompletionResponse,
  ChatRequest,
  ChatResult,
  ChatStream,
  ChatStreamOptions,
  CheckModelOptions,
  ConcurrencyBudgetState,
  EmbeddingEngine,
  EmbeddingsRequest,
  EmbeddingsResponse,
  EmbedManyOptions,
  GatewayClient,
  GatewayClientOptions,
  GatewayModel,
  GatewayService,
  ModelCapability,
  OcrRequest,
  OcrResponse,
  ServiceId,
  TranscriptionRequest,
  TranscriptionResponse,
  TranslationRequest,
  TranslationResponse,
} from './types';
import { validateChatRequest } from './validate-chat';
import {
  inputTexts,
  isMultilingualEngine,
  validateEmbeddingsRequest,
  validateForEngine,
} from './validate-embeddings';
import {
  chatCompletionProblem,
  embeddingsProblem,
  serviceAnswerProblem,
} from './validate-responses';
import { validateTranslationRequest } from './validate-translation';

/** Loaded on first ocr/transcribe call (its own chunk for bundlers that split code). */
const loadMedia = () => import('./prepare-media-requests');

const SERVICE_PATHS: Record<ServiceId, string> = {
  translation: '/translations',
  ocr: '/ocr',
  speech_to_text: '/audio/transcriptions',
  embeddings: '/embeddings',
};

/** The gateway client. Create it with `createGatewayClient`. */
class Client implements GatewayClient {
  readonly #transport: Transport | undefined;
  readonly #configError: GatewayError | undefined;
  readonly #catalog: Catalog | undefined;
  readonly #budget: ClientBudgetView;
  readonly #baseURL: string;

  constructor(options: GatewayClientOptions | undefined) {
    const resolved = resolveOptions(options);
    this.#configError = missingConfiguration(resolved);
    this.#baseURL = resolved.baseURL ?? '';
    if (this.#configError || resolved.baseURL === undefined || resolved.apiKey === undefined) {
      this.#budget = new ClientBudgetView(new Semaphore(), undefined, '', resolved.maxConcurrency);
      return;
    }
    const budget = resolved.budget ?? defaultBudget();
    const id = budgetId(resolved.baseURL, resolved.apiKey);
    const local = new Semaphore();
    this.#budget = new ClientBudgetView(local, budget, id, resolved.maxConcurrency);
    this.#transport = new Transport({
      baseURL: resolved.baseURL,
      apiKey: resolved.apiKey,
      fetch: resolved.fetch,
      headers: resolved.headers,
      maxConcurrency: resolved.maxConcurrency,
      maxConcurrencyPerKey: resolved.maxConcurrencyPerKey,
      local,
      budgetId: id,
      timeoutMs: resolved.timeoutMs,
      maxRetries: resolved.maxRetries,
      maxRetryAfterMs: resolved.maxRetryAfterMs,
      retryBaseDelayMs: resolved.retryBaseDelayMs,
      maxResponseBytes: resolved.maxResponseBytes,
      maxErrorBodyBytes: resolved.maxErrorBodyBytes,
      budget,
      onEvent: resolved.onEvent,
      recordContent: resolved.recordContent,
      onErrorResponse: (error) => {
        if (error.code === 'model_not_found' || error.code === 'provider_unavailable') {
          this.#catalog?.invalidate();
        }
      },
    });
    this.#catalog = new Catalog(this.#transport, resolved.catalogTtlMs);
  }

  get baseURL(): string {
    return this.#baseURL;
  }

  get budget(): ConcurrencyBudgetState {
    return this.#budget;
  }

  #ready(): { transport: Transport; catalog: Catalog } {
    if (this.#configError || !this.#transport || !this.#catalog) throw this.#configError;
    return { transport: this.#transport, catalog: this.#catalog };
  }

  // -------------------------------------------------------------------------------------------
  // Catalog
  // -------------------------------------------------------------------------------------------

  async models(opts?: CallOptions): Promise<GatewayModel[]> {
    return this.#ready().catalog.models(opts);
  }

  async services(opts?: CallOptions): Promise<GatewayService[]> {
    return this.#ready().catalog.services(opts);
  }

  refreshCatalog(): void {
    this.#catalog?.invalidate();
  }

  async model(id: string, opts?: CallOptions): Promise<GatewayModel> {
    const { found, models } = await this.#findModel(id, opts);
    if (found) return found;
    throw modelNotFound(id, models);
  }

  async resolveModel(id: string, opts?: CallOptions): Promise<GatewayModel | undefined> {
    const { found, models } = await this.#findModel(id, opts);
    // An unlisted own model may just be offline: its address still works (docs/gateway-protocol.md §3.1).
    if (found || isOwnModelId(id)) return found;
    throw modelNotFound(id, models);
  }

  async #findModel(
    id: string,
    opts: CallOptions | undefined,
  ): Promise<{ found: GatewayModel | undefined; models: GatewayModel[] }> {
    const { catalog } = this.#ready();
    const fromCache = catalog.hasFreshModels();
    let models = await catalog.models(opts);
    let found = models.find((model) => model.id === id);
    if (!found && fromCache && !catalog.isKnownMiss(id)) {
      // The cached snapshot may predate the model coming online: look once more.
      catalog.invalidate();
      models = await catalog.models(opts);
      found = models.find((model) => model.id === id);
    }
    // Remembered for the snapshot's lifetime: an unlisted model (an offline my/... one) must not
    // cost a GET /models on every call. A model_not_found or provider_unavailable answer, or
    // refreshCatalog(), forgets the snapshot and its misses.
    if (!found) catalog.rememberMiss(id, models);
    return { found, models };
  }

  async requireCapabilities(
    modelId: string,
    needs: readonly ModelCapability[],
    opts?: CallOptions,
  ): Promise<GatewayModel | undefined> {
    const model = await this.resolveModel(modelId, opts);
    // An unlisted own model cannot be checked: the gateway refuses what it cannot serve.
    if (!model) return undefined;
    await this.checkModel(modelId, needs, { ...opts, known: capabilitiesOf(model) });
    return model;
  }

  async checkModel(
    modelId: string,
    needs: readonly ModelCapability[],
    opts: CheckModelOptions = {},
  ): Promise<readonly string[] | undefined> {
    const { known, purpose, anyOf, ...callOptions } = opts;
    let capabilities = known;
    if (capabilities === undefined) {
      const model = await this.resolveModel(modelId, callOptions);
      // An unlisted own model cannot be checked: the gateway refuses what it cannot serve.
      if (!model) return undefined;
      capabilities = capabilitiesOf(model);
    }
    const check = { model: modelId, needs, capabilities, purpose, anyOf };
    try {
      checkCapabilities(check);
    } catch (refusal) {
      // Refusing: the catalog (cached, or one read) names the models that would do; a list that
      // cannot be read leaves them unnamed rather than hiding the refusal.
      const catalog = await this.models(callOptions).catch(() => undefined);
      if (catalog === undefined) throw refusal;
      checkCapabilities({ ...check, catalog });
    }
    return capabilities;
  }

  async embeddingEngines(opts?: CallOptions): Promise<EmbeddingEngine[]> {
    const services = await this.services(opts);
    const embeddings = services.find((service) => service.id === 'embeddings');
    return Array.isArray(embeddings?.engines) ? embeddings.engines : [];
  }

  async resolveEmbeddingEngine(
    engineId: string | undefined,
    opts?: CallOptions,
  ): Promise<EmbeddingEngine> {
    const { catalog } = this.#ready();
    let engines = await this.embeddingEngines(opts);
    if (engineId !== undefined && !engines.some((engine) => engine.id === engineId)) {
      catalog.invalidate();
      engines = await this.embeddingEngines(opts);
    }
    const ids = engines.map((engine) => engine.id);
    if (engineId !== undefined) {
      const engine = engines.find((candidate) => candidate.id === engineId);
      if (engine) return engine;
      throw new GatewayError({
        code: 'model_not_found',
        message: `Embedding engine "${engineId}" is not available (GET /capabilities lists: ${listIds(ids)}). The engine is never changed automatically: vectors of different engines do not mix.`,
        model: engineId,
        alternatives: ids,
        isRetryable: false,
      });
    }
    if (engines.length === 1) return engines[0]!;
    if (engines.length === 0) {
      throw new GatewayError({
        code: 'provider_unavailable',
        message: 'No embedding engine is available now (GET /capabilities lists none)',
        isRetryable: true,
      });
    }
    throw new GatewayError({
      code: 'invalid_request_error',
      message: `model: is required: ${engines.length} embedding engines are available (${listIds(ids)}); pick one and keep it for documents and queries`,
      field: 'model',
      alternatives: ids,
      isRetryable: false,
    });
  }

  /** Fails fast with provider_unavailable while the cached catalog says the service has no node. */
  #checkService(id: ServiceId): void {
    const service = this.#ready()
      .catalog.cachedServices()
      ?.find((candidate) => candidate.id === id);
    if (service && service.available_nodes === 0) {
      throw new GatewayError({
        code: 'provider_unavailable',
        message: `The ${id} service has no provider online (GET /capabilities: available_nodes 0); nothing was sent`,
        isRetryable: true,
      });
    }
  }

  // -------------------------------------------------------------------------------------------
  // Chat
  // -------------------------------------------------------------------------------------------

  #chatBody(req: ChatRequest, stream: boolean): string {
    const { stream: _ignored, ...rest } = req;
    return JSON.stringify(stream ? { ...rest, stream: true } : rest);
  }

  async chat(req: ChatRequest, opts?: CallOptions): Promise<ChatResult> {
    const { transport } = this.#ready();
    validateChatRequest(req);
    const requestedModel = req.model;
    const answer = await transport.json<ChatCompletionResponse>(
      {
        method: 'POST',
        path: '/chat/completions',
        body: this.#chatBody(req, false),
        requestedModel,
      },
      opts,
    );
    const problem = chatCompletionProblem(answer.data);
    if (problem) {
      throw invalidAnswer(transport, `The chat completion ${problem}`, answer, requestedModel);
    }
    const { data, headers } = answer;
    const assembled = readChatCompletion(data);
    if (assembled === undefined) {
      throw invalidAnswer(
        transport,
        'The chat completion has no choice 0 (its choices are all of other indexes)',
        answer,
        requestedModel,
      );
    }
    const servedModel =
      headers.get('x-service-model') ??
      (typeof data.model === 'string' ? data.model : requestedModel);
    return {
      response: data,
      answer: assembled,
      requestedModel,
      servedModel,
      fallback: servedModel !== requestedModel,
      headers,
    };
  }

  async chatStream(req: ChatRequest, opts?: ChatStreamOptions): Promise<ChatStream> {
    const { transport } = this.#ready();
    validateChatRequest(req);
    if (opts?.assemble !== undefined && typeof opts.assemble !== 'boolean') {
      throw new GatewayError({
        code: 'invalid_request_error',
        message: `assemble (call option) must be a boolean, got ${typeof opts.assemble}`,
      });
    }
    const requestedModel = req.model;
    const open = await transport.open(
      {
        method: 'POST',
        path: '/chat/completions',
        body: this.#chatBody(req, true),
        accept: 'text/event-stream',
        requestedModel,
        stream: true,
      },
      opts,
    );
    const headers = open.response.headers;
    const servedModel = headers.get('x-service-model') ?? requestedModel;
    return new GatewayChatStream(open, {
      requestedModel,
      servedModel,
      fallback: servedModel !== requestedModel,
      headers,
      assemble: opts?.assemble !== false,
    });
  }

  // -------------------------------------------------------------------------------------------
  // Services
  // -------------------------------------------------------------------------------------------

  async embed(req: EmbeddingsRequest, opts?: CallOptions): Promise<EmbeddingsResponse> {
    this.#ready();
    const sizes = validateEmbeddingsRequest(req);
    this.#checkService('embeddings');
    const engine = await this.resolveEmbeddingEngine(req.model, opts);
    validateForEngine(req, sizes, engine);
    return this.#postEmbeddings({ ...req, model: engine.id }, inputTexts(req.input).length, opts);
  }

  async #postEmbeddings(
    req: EmbeddingsRequest,
    count: number,
    opts: CallOptions | undefined,
    onFailure?: (error: unknown) => void,
  ): Promise<EmbeddingsResponse> {
    const { transport } = this.#ready();
    const answer = await transport.json<EmbeddingsResponse>(
      {
        method: 'POST',
        path: SERVICE_PATHS.embeddings,
        body: JSON.stringify(req),
        model: req.model,
        onFailure,
      },
      opts,
    );
    const problem = embeddingsProblem(answer.data, count);
    if (problem) throw invalidAnswer(transport, `The embeddings answer ${problem}`, answer);
    reportResponse(opts, answer.status, answer.headers, answer.data);
    return answer.data;
  }

  async embedMany(texts: string[], opts: EmbedManyOptions = {}): Promise<number[][]> {
    this.#ready();
    if (!Array.isArray(texts)) throw invalidRequest('texts', 'must be an array of strings');
    if (texts.length === 0) return [];
    const { model, inputType, dimensions, ...callOptions } = opts;
    // Validate every text on its own (non-empty, ≤ 65 536 bytes) before sending anything.
    const sizes: number[] = [];
    for (let i = 0; i < texts.length; i++) {
      const text = texts[i]!;
      try {
        sizes.push(
          validateEmbeddingsRequest({ input: text, input_type: inputType, dimensions })[0]!,
        );
      } catch (error) {
        throw isGatewayError(error) ? renameField(error, `texts[${i}]`) : error;
      }
    }
    this.#checkService('embeddings');
    const engine = await this.resolveEmbeddingEngine(model, callOptions);
    validateForEngine({ input: texts, dimensions }, sizes, engine);
    const batches = splitBatches(sizes);
    const vectors = new Array<number[]>(texts.length);
    // The first failing batch stops the others: their answers could no longer be used.
    const stopOthers = new AbortController();
    const callerSignal = callOptions.signal;
    const forwardAbort = () => stopOthers.abort(callerSignal?.reason);
    if (callerSignal?.aborted) forwardAbort();
    callerSignal?.addEventListener('abort', forwardAbort, { once: true });
    try {
      await Promise.all(
        batches.map(async ({ start, end }) => {
          const request: EmbeddingsRequest = { input: texts.slice(start, end), model: engine.id };
          // input_type is a field of the multilingual engine only (docs/gateway-protocol.md §6).
          if (inputType !== undefined && isMultilingualEngine(engine)) {
            request.input_type = inputType;
          }
          if (dimensions !== undefined) request.dimensions = dimensions;
          const stop = (error: unknown) => stopOthers.abort(error);
          try {
            const response = await this.#postEmbeddings(
              request,
              end - start,
              { ...callOptions, signal: stopOthers.signal },
              stop,
            );
            for (const item of response.data) vectors[start + item.index] = item.embedding;
          } catch (error) {
            stop(error);
            throw error;
          }
        }),
      );
    } finally {
      callerSignal?.removeEventListener('abort', forwardAbort);
    }
    if (vectors.some((vector) => vector === undefined)) {
      throw invalidResponse('The embeddings answers did not cover every input index');
    }
    return vectors;
  }

  /** POSTs to a service (after the availability check) and checks the answer's required fields. */
  async #postService<T>(
    service: 'translation' | 'ocr' | 'speech_to_text',
    body: string | FormData,
    opts: CallOptions | undefined,
  ): Promise<T> {
    const { transport } = this.#ready();
    this.#checkService(service);
    const answer = await transport.json<T>(
      { method: 'POST', path: SERVICE_PATHS[service], body },
      opts,
    );
    const problem = serviceAnswerProblem(service, answer.data);
    if (problem) throw invalidAnswer(transport, `The ${service} answer ${problem}`, answer);
    reportResponse(opts, answer.status, answer.headers, answer.data);
    return answer.data;
  }

  async translate(req: TranslationRequest, opts?: CallOptions): Promise<TranslationResponse> {
    this.#ready();
    validateTranslationRequest(req);
    return this.#postService('translation', JSON.stringify(req), opts);
  }

  async ocr(req: OcrRequest, opts?: CallOptions): Promise<OcrResponse> {
    this.#ready();
    const { validateOcrRequest } = await loadMedia();
    const image = await validateOcrRequest(req);
    return this.#postService(
      'ocr',
      JSON.stringify({ image_base64: image, model: req.model }),
      opts,
    );
  }

  transcribe(
    req: TranscriptionRequest & { response_format: 'text' },
    opts?: CallOptions,
  ): Promise<string>;
  transcribe(
    req: TranscriptionRequest & { response_format?: 'json' },
    opts?: CallOptions,
  ): Promise<TranscriptionResponse>;
  transcribe(
    req: TranscriptionRequest,
    opts?: CallOptions,
  ): Promise<TranscriptionResponse | string>;
  async transcribe(
    req: TranscriptionRequest,
    opts?: CallOptions,
  ): Promise<TranscriptionResponse | string> {
    const { transport } = this.#ready();
    const { validateTranscriptionRequest, buildTranscriptionBody } = await loadMedia();
    const audio = await validateTranscriptionRequest(req);
    const body = await buildTranscriptionBody(req, audio);
    if (req.response_format !== 'text') return this.#postService('speech_to_text', body, opts);
    this.#checkService('speech_to_text');
    const spec = {
      method: 'POST' as const,
      path: SERVICE_PATHS.speech_to_text,
      body,
      accept: 'text/plain',
    };
    const answer = await transport.text(spec, opts);
    reportResponse(opts, answer.status, answer.headers, answer.text);
    return answer.text;
  }
}

/** Tells the caller's `onResponse` about an answer; its failure is the caller's, not the call's. */
function reportResponse(
  opts: CallOptions | undefined,
  status: number,
  headers: Headers,
  body: unknown,
): void {
  try {
    opts?.onResponse?.({ status, headers, body });
  } catch {
    // A throwing observer must not turn a good answer into a failure.
  }
}

/** `model_not_found` for an id the model list does not hold, naming close matches. */
function modelNotFound(id: string, models: readonly GatewayModel[]): GatewayError {
  const ids = models.map((model) => model.id);
  const alternatives = closeMatches(id, ids);
  const own = isOwnModelId(id)
    ? ' An own model (my/...) is not listed while it is offline; resolveModel() and requireCapabilities() let its address through.'
    : '';
  return new GatewayError({
    code: 'model_not_found',
    message: `Model "${id}" is not in this key's model list (GET /models). ${
      alternatives.length > 0
        ? `Close matches: ${alternatives.join(', ')}.`
        : `Listed models: ${listIds(ids)}.`
    }${own}`,
    model: id,
    alternatives,
    requestedModel: id,
    isRetryable: false,
  });
}

/**
 * `invalid_response` for a 2xx JSON answer of the wrong shape, with its raw body (the key
 * redacted). The parsed `data` is kept only when the body did not echo the key.
 */
function invalidAnswer(
  transport: Transport,
  message: string,
  answer: { data: unknown; status: number; text: string },
  requestedModel?: string,
): GatewayError {
  const body = transport.redact(answer.text);
  return invalidResponse(message, {
    status: answer.status,
    body,
    data: body === answer.text ? answer.data : undefined,
    requestedModel,
  });
}

/** Re-labels a validation error about `input` as one about `texts[i]`. */
function renameField(error: GatewayError, field: string): GatewayError {
  if (error.field !== 'input') return error;
  return new GatewayError({
    code: error.code,
    message: `${field}${error.message.slice('input'.length)}`,
    field,
    isRetryable: false,
  });
}

/**
 * Creates a gateway client. `baseURL` and `apiKey` default to `INFERGATE_BASE_URL` and
 * `INFERGATE_API_KEY`; when neither is given, every call rejects with `configuration_error`.
 */
export function createGatewayClient(options?: GatewayClientOptions): GatewayClient {
  return new Client(options);
}

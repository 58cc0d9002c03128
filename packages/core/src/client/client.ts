import { budgetId } from '../budget/budget-id';
import { ClientBudgetView } from '../budget/client-budget-view';
import { defaultBudget } from '../budget/in-process-budget';
import type { ConcurrencyBudgetState } from '../budget/key-budget';
import { PendingCalls } from '../budget/pending-calls';
import { realmValue } from '../budget/realm';
import { createSemaphore } from '../budget/runtime-semaphore';
import type { Semaphore } from '../budget/semaphore';
import {
  type CallName,
  type CallOptions,
  checkCallOptions,
  refuseCallOptionsInRequest,
} from '../call/call-options';
import { Catalog } from '../catalog/catalog';
import {
  type CatalogWatch,
  type ServiceFailureWatchers,
  watchCatalog,
} from '../catalog/catalog-watch';
import type { CheckModelOptions } from '../catalog/resolve-model';
import { gateModel, listedModel } from '../catalog/resolve-model';
import type { ChatCallOptions, ChatContext, ChatStreamOptions } from '../chat/chat-calls';
import { openChatStream, postChat } from '../chat/chat-calls';
import { redactOwnKey } from '../errors/errors';
import { lazily } from '../errors/load-lazily';
import { Transport } from '../http/transport';
import type { ChatResult, ChatStream } from '../protocol/chat-result-types';
import type {
  ChatRequest,
  EmbeddingEngine,
  EmbeddingsRequest,
  EmbeddingsResponse,
  GatewayModel,
  GatewayService,
  ModelCapability,
  OcrRequest,
  OcrResponse,
  TranscriptionRequest,
  TranscriptionResponse,
  TranslationRequest,
  TranslationResponse,
} from '../protocol/wire-types';
import type { EmbedManyOptions, ServiceContext } from '../services/service-calls';
import { watchCatalogReads } from '../steering/model-inflight';
import { type ClientSteering, steers } from '../steering/steering-options';
import type { GatewayClientOptions } from './options';
import { type Connection, resolveBaseURL, resolveConnection, resolveOptions } from './options';

/**
 * Loaded on the first service call: with code splitting, a chat-only app's start-up chunk does
 * not carry the services' validation, batching and multipart code (its size: CONTRIBUTING.md,
 * "Parts loaded on first use"). A failed load is `client_code_unavailable`, and the next service call loads it again.
 */
const loadServices = lazily('the service calls', () => import('../services/service-calls'));
type ServiceCalls = typeof import('../services/service-calls');

/**
 * Each client's own steering (its read options), in the realm: a client made by another copy of
 * core (the CJS build beside the ESM one, a bundle of its own) is found too.
 */
const steeringOfClients = () =>
  realmValue('clientSteering', () => new WeakMap<object, ClientSteering>());

/** What a client's calls use once its connection is known. */
type Ready = ChatContext & ServiceContext & { budget: ClientBudgetView; baseURL: string };

/**
 * The gateway client: a facade over the transport (budget, retries, deadlines: http/transport.ts),
 * the catalog, the chat calls (chat/chat-calls.ts) and the service calls (services/, loaded by the
 * first one). Its calls delegate, and redact this client's key from what they throw.
 * Create it with `createGatewayClient`.
 */
export class GatewayClient {
  readonly #options: ReturnType<typeof resolveOptions>;
  /** This client's own `maxConcurrency` queue, from creation on (its budget view reads it). */
  readonly #local: Semaphore;
  /** This client's calls not ended, from creation on (its budget view reads it; chat calls count in it). */
  readonly #calls = new PendingCalls();
  /** Set by the first call that finds the base URL and the key (given, or in the environment). */
  #ready: Ready | undefined;
  /** The open catalog watches, told of every service call's failure (catalog-watch.ts). */
  readonly #watchers: ServiceFailureWatchers = new Set();

  /** @internal Use `createGatewayClient`. */
  constructor(options: GatewayClientOptions | undefined) {
    this.#options = resolveOptions(options);
    // (`steersCall` reads it, whichever copy of core made this client: no public getter.)
    steeringOfClients().set(this, this.#options.steering);
    this.#local = createSemaphore();
    if (this.#options.baseURL !== undefined && this.#options.apiKey !== undefined) {
      this.#connect({ baseURL: this.#options.baseURL, apiKey: this.#options.apiKey });
    }
  }

  /**
   * The gateway base URL, normalised (`/v1` appended when the path has no version segment); `''`
   * while it is neither given nor in the environment.
   */
  get baseURL(): string {
    if (this.#ready) return this.#ready.baseURL;
    try {
      return resolveBaseURL(this.#options) ?? '';
    } catch {
      return '';
    }
  }

  /**
   * This client's view of the key's budget: `limit` is its `maxConcurrency`, `active` the key's
   * requests in flight (every client sharing the budget), `queued` the requests waiting for a slot
   * (this client's plus the key's queue), `pendingCalls` this client's calls not ended.
   */
  get budget(): ConcurrencyBudgetState {
    return (
      this.#connected()?.budget ??
      new ClientBudgetView(this.#local, this.#calls, undefined, '', this.#options.maxConcurrency)
    );
  }

  /**
   * The client's calls' context: the connection read from the options, else from the environment
   * now. A function of its own, given as it is to the chat calls (chat/chat-calls.ts), which
   * redact what they throw themselves, as `#run` does for the others.
   */
  readonly #context = (): Ready => this.#ready ?? this.#connect(resolveConnection(this.#options));

  /** The context when the connection can be found now, without throwing. */
  #connected(): Ready | undefined {
    try {
      return this.#context();
    } catch {
      return undefined;
    }
  }

  #connect({ baseURL, apiKey }: Connection): Ready {
    const resolved = this.#options;
    const budget = resolved.budget ?? defaultBudget();
    const id = budgetId(baseURL, apiKey);
    let catalog: Catalog | undefined;
    const transport = new Transport({
      baseURL,
      apiKey,
      fetch: resolved.fetch,
      headers: resolved.headers,
      maxConcurrency: resolved.maxConcurrency,
      maxConcurrencyPerKey: resolved.maxConcurrencyPerKey,
      local: this.#local,
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
      // These codes say the cached catalog may be wrong about a model (§3.3): read it again.
      onErrorResponse: (error) => {
        if (error.code === 'model_not_found' || error.code === 'provider_unavailable') {
          catalog?.invalidate();
        }
      },
    });
    catalog = new Catalog(transport, resolved.catalogTtlMs);
    watchCatalogReads(catalog, id);
    this.#ready = {
      transport,
      catalog,
      baseURL,
      budget: new ClientBudgetView(this.#local, this.#calls, budget, id, resolved.maxConcurrency),
      calls: this.#calls,
      streamUsage: resolved.streamUsage,
      steering: resolved.steering,
    };
    return this.#ready;
  }

  /** The chat models this key may use (`GET /models`, cached `catalogTtlMs`). */
  models(opts?: CallOptions): Promise<GatewayModel[]> {
    return this.#run(opts, (context) => context.catalog.models(opts), 'models');
  }

  /** The services and their engines (`GET /capabilities`, cached `catalogTtlMs`). */
  services(opts?: CallOptions): Promise<GatewayService[]> {
    return this.#run(opts, (context) => context.catalog.services(opts), 'services');
  }

  /** Forgets the cached catalog: the next look-up reads it again. */
  refreshCatalog(): void {
    this.#ready?.catalog.invalidate();
  }

  /**
   * Reads the services again every `intervalMs` (`0`: only on the watch's `refresh()`), past the
   * cache, and gives each list read to `onRead` (for a list of tools kept in step with the
   * gateway). A failed read is skipped; `close()` stops the reads. A service call answered
   * `provider_unavailable` reads them again too, at most once every 5 s (catalog-watch.ts).
   */
  watchCatalog(intervalMs: number, onRead: (services: GatewayService[]) => void): CatalogWatch {
    return watchCatalog(this, this.#watchers, intervalMs, onRead);
  }

  // The model look-ups. One rule, core's capability gate (`gateModel`, catalog/resolve-model.ts),
  // behind three views of what it found — `checkModel` (the capabilities), `requireCapabilities`
  // (the catalog entry) and `resolveModel` (the entry, no needs) — plus the strict `model`.

  /** The listed model; `model_not_found` (with close matches) for any unlisted id, `my/...` too. */
  model(id: string, opts?: CallOptions): Promise<GatewayModel> {
    return this.#run(opts, (context) => listedModel(context.catalog, id, opts), 'model');
  }

  /**
   * The listed model; `undefined` for an unlisted own model (`my/...`: offline models are not
   * listed, yet their address still works); `model_not_found` for any other unlisted id. The
   * capability gate with no needs: `requireCapabilities(id, [])`.
   */
  resolveModel(id: string, opts?: CallOptions): Promise<GatewayModel | undefined> {
    return this.#run(
      opts,
      async (context) => (await gateModel(context.catalog, id, [], opts)).model,
      'resolveModel',
    );
  }

  /**
   * The capability gate returning the catalog entry: the model when it has every need (one need
   * may be given as a string); `unsupported_model_capability` when it lacks one; `undefined`
   * (unchecked: the gateway decides) for an unlisted own model; `model_not_found` for any other
   * unlisted id.
   */
  requireCapabilities(
    modelId: string,
    needs: ModelCapability | readonly ModelCapability[],
    opts?: CallOptions,
  ): Promise<GatewayModel | undefined> {
    return this.#run(
      opts,
      async (context) => (await gateModel(context.catalog, modelId, needs, opts)).model,
      'requireCapabilities',
    );
  }

  /**
   * The capability gate both adapters call before a chat request, returning the capabilities. They
   * are `known` (passed by the user: no catalog read unless refusing) or read from the cached
   * catalog; it refuses with `unsupported_model_capability` (naming `purpose`, what is missing and
   * the listed models that would do) when they lack a need (`anyOf`: lack all of them).
   * `undefined`: an unlisted own model, unchecked (the gateway decides); any other unlisted id is
   * `model_not_found`. With no `needs` it only resolves the capabilities.
   */
  checkModel(
    modelId: string,
    needs: ModelCapability | readonly ModelCapability[],
    opts?: CheckModelOptions,
  ): Promise<readonly string[] | undefined> {
    return this.#run(
      opts,
      async (context) => (await gateModel(context.catalog, modelId, needs, opts)).capabilities,
      'checkModel',
    );
  }

  /**
   * Runs a call (not a chat one: those keep their own try, count themselves, and check their
   * options, in chat-calls.ts) in the client's context, counted pending until it settles, redacting this client's key from what it throws
   * (errors/errors.ts, `redactOwnKey`). Its options are checked here, once, before anything is loaded or sent: the catalog
   * and the transport trust what they are given.
   */
  async #run<T>(
    opts: CallOptions | undefined,
    call: (context: Ready) => Promise<T>,
    name: CallName,
    request?: object,
  ): Promise<T> {
    this.#calls.begin();
    try {
      checkCallOptions(opts, name);
      // A call option given in the request (`embed({ input, signal })`) would be sent, doing nothing.
      refuseCallOptionsInRequest(request, name);
      return await call(this.#context());
    } catch (error) {
      throw redactOwnKey(error, this.#ready?.transport);
    } finally {
      this.#calls.end();
    }
  }

  /**
   * Runs a service call with the services' code (loaded by the first one); its failure is told to
   * the catalog watches (whether it asks for a re-read of the services is theirs to say).
   */
  #withServices<T>(
    opts: CallOptions | undefined,
    call: (services: ServiceCalls, context: ServiceContext) => Promise<T>,
    name: CallName,
    request?: object,
  ): Promise<T> {
    return this.#run(
      opts,
      async (context) => {
        try {
          return await call(await loadServices(), context);
        } catch (error) {
          for (const heard of this.#watchers) heard(error);
          throw error;
        }
      },
      name,
      request,
    );
  }

  /** The embedding engines `GET /capabilities` lists. */
  embeddingEngines(opts?: CallOptions): Promise<EmbeddingEngine[]> {
    return this.#withServices(
      opts,
      (services, { catalog }) => services.embeddingEngines(catalog, opts),
      'embeddingEngines',
    );
  }

  /**
   * The engine named (`model_not_found` when it is not listed: engines are never swapped), or the
   * only one when none is named.
   */
  resolveEmbeddingEngine(
    engineId: string | undefined,
    opts?: CallOptions,
  ): Promise<EmbeddingEngine> {
    return this.#withServices(
      opts,
      // (`null`, as an adapter gives an unset model: none named, as for `embed`.)
      (services, { catalog }) =>
        services.resolveEmbeddingEngine(catalog, engineId ?? undefined, opts),
      'resolveEmbeddingEngine',
    );
  }

  /**
   * One chat completion (`POST /chat/completions`), read tolerantly into `answer`. With
   * `fallbackModels`, the models are checked against the catalog and walked in order (`route`).
   */
  chat(req: ChatRequest, opts?: ChatCallOptions): Promise<ChatResult> {
    return postChat(this.#context, req, opts);
  }

  /**
   * A streamed chat completion: resolves once the gateway answered with a stream. Asks for usage
   * (`stream_options: { include_usage: true }`) unless `streamUsage` is `false` (the call's, else
   * the client's) or the request has its own `stream_options`.
   */
  chatStream(req: ChatRequest, opts?: ChatStreamOptions): Promise<ChatStream> {
    return openChatStream(this.#context, req, opts);
  }

  /** `POST /embeddings` as given (one request; limits checked first). */
  embed(req: EmbeddingsRequest, opts?: CallOptions): Promise<EmbeddingsResponse> {
    return this.#withServices(
      opts,
      (services, context) => services.embed(context, req, opts),
      'embed',
      req,
    );
  }

  /** Embeds any number of texts: batched under the gateway's limits, in input order. */
  embedMany(texts: string[], opts: EmbedManyOptions = {}): Promise<number[][]> {
    return this.#withServices(
      opts,
      (services, context) => services.embedMany(context, texts, opts ?? {}),
      'embedMany',
    );
  }

  /** `POST /translations`. */
  translate(req: TranslationRequest, opts?: CallOptions): Promise<TranslationResponse> {
    return this.#withServices(
      opts,
      (services, context) => services.translate(context, req, opts),
      'translate',
      req,
    );
  }

  /** `POST /ocr`: an image (bytes, Blob, base64 or data URL) to text. */
  ocr(req: OcrRequest, opts?: CallOptions): Promise<OcrResponse> {
    return this.#withServices(
      opts,
      (services, context) => services.ocr(context, req, opts),
      'ocr',
      req,
    );
  }

  /** `POST /audio/transcriptions`: JSON by default, plain text with `response_format: 'text'`. */
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
  transcribe(
    req: TranscriptionRequest,
    opts?: CallOptions,
  ): Promise<TranscriptionResponse | string> {
    return this.#withServices(
      opts,
      (services, context) => services.transcribe(context, req, opts),
      'transcribe',
      req,
    );
  }
}

/**
 * Whether `client` steers this chat call (runs it through the steering module: failover, stall
 * timeouts, hedge, structured output), by the rule its chat calls go by (`steers`, with the
 * client's own steering): for an adapter that shows what only a steered call has (MCP's route).
 * Any copy of core's client is known (`client` is typed `object`: the internal entry's declarations
 * name a `GatewayClient` class of their own); anything else is judged by the call alone.
 */
export function steersCall(
  client: object,
  request: ChatRequest,
  options?: ChatCallOptions,
): boolean {
  return steers(options, steeringOfClients().get(client) ?? NO_STEERING, request);
}

/** The steering of a client that sets none. */
const NO_STEERING: ClientSteering = {
  firstChunkTimeoutMs: undefined,
  chunkTimeoutMs: undefined,
  hedge: undefined,
  circuitBreaker: false,
};

/**
 * Creates a gateway client. `baseURL` and `apiKey` default to `INFERGATE_BASE_URL` and
 * `INFERGATE_API_KEY`; when neither is given, every call rejects with `configuration_error`.
 */
export function createGatewayClient(options?: GatewayClientOptions): GatewayClient {
  return new GatewayClient(options);
}

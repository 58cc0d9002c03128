// docs/gateway-protocol.md §6 (embeddings: limits, engines, batching by core).
import {
  APICallError,
  type EmbeddingModelV4CallOptions,
  type EmbeddingModelV4Result,
  type JSONValue,
  type SharedV4ProviderMetadata,
  TooManyEmbeddingValuesForCallError,
} from '@ai-sdk/provider';
import {
  type CallOptions,
  type EmbeddingEngine,
  type EmbeddingInputType,
  type EmbedManyOptions,
  GatewayError,
  type GatewayResponseInfo,
  isGatewayError,
} from '@infergate/core';
import { ENDPOINTS, withDeadlineStarted } from '@infergate/core/internal';
import {
  checkEmbedMany,
  droppedEmbeddingOptions,
  EmbeddingEnginePin,
  FAILED_BATCHES,
  type FailedBatchesOption,
  KEPT_VECTORS,
  type KeptVectorsOption,
} from '@infergate/core/internal/service-tools';
import {
  AI_RETRIES,
  endpointURL,
  type GatewayModelConfig,
  headersToRecord,
} from '../shared/gateway-model-config';
import { mapGatewayError } from '../shared/map-gateway-error';
import { PROVIDER_OPTIONS_KEY } from '../shared/parse-infergate-options';
import { withUserAgent } from '../shared/user-agent';
import { VALUES_PER_DO_EMBED } from './do-embed-limits';
import { parseGatewayEmbeddingOptions } from './gateway-embedding-options';
import {
  type BatchRetries,
  type FailedRequests,
  noRetries,
  withRetriesOfFailedRequests,
} from './retry-failed-requests';

/** The embedding model a call runs for: what `GatewayEmbeddingModel` holds. */
export interface EmbeddingModelParts {
  provider: string;
  modelId: string;
  /** As given: undefined lets core pick the only available engine, kept by the model after. */
  engineId: string | undefined;
  config: GatewayModelConfig;
  /** The model object: its engine is pinned for its life (`ENGINES`). */
  owner: object;
}

/**
 * Each model's engine: the one named, else the one its first call resolved, never changed after
 * (core's `EmbeddingEnginePin`). Held here, in the code the first `doEmbed` loads, so a chat-only
 * app does not load it.
 */
const ENGINES = new WeakMap<object, EmbeddingEnginePin>();

function engineOf({ owner, engineId }: EmbeddingModelParts): EmbeddingEnginePin {
  let pin = ENGINES.get(owner);
  if (pin === undefined) {
    pin = new EmbeddingEnginePin(engineId);
    ENGINES.set(owner, pin);
  }
  return pin;
}

/**
 * What a `doEmbed` reports of the answers whose vectors it returns: usage summed (known only when
 * every answer reported it: a partial sum would pass for the total), the last answer's headers and
 * body (the AI SDK keeps one response per call), the answers' `providerMetadata` merged.
 */
interface Answers {
  tokens: number | undefined;
  usageMissing: boolean;
  response: GatewayResponseInfo | undefined;
  metadata: SharedV4ProviderMetadata;
}

/**
 * What the tries of one call share: one `embedMany` batch's `doEmbed`, which `ai` retries with the
 * same options: the batch's `values` array (the same object each try, kept as it is by a
 * middleware that copies the other options or `providerOptions`), model and `providerOptions`
 * (the headers too, unless a middleware gives each try its own). The vectors of the requests a try answered are kept (core's `KEPT_VECTORS`), so the
 * next try sends only the others, and reports the answers of every try whose vectors it returns.
 * Held by the values array, which `ai` drops after the batch (a WeakMap: no user code sees it);
 * dropped here once the call is embedded.
 */
export interface BatchTries {
  values: readonly string[];
  /** The model object the call is of: no other model's call is given these tries. */
  model: object;
  /** The rest of what makes a call the same (`callKey`): no other call is given these tries. */
  key: string;
  /** While a `doEmbed` runs on them: no other (one in flight at once) is given them. */
  running: boolean;
  vectors: (number[] | undefined)[];
  answers: Answers;
  retries: BatchRetries;
}

/**
 * What, beside the model object (its engine, pinned for its life, its provider's gateway and
 * key), makes a `doEmbed` on the same values a retry of the same call, whose answered vectors it
 * may use (rv-svc12 F1): all else that shapes what the gateway answers, `inputType` and
 * `dimensions`. Not the headers: the gateway reads none but `authorization` (the key's, a user's
 * refused), so they change nothing it answers, and a middleware may give each of `ai`'s retries
 * one of its own (a request id, an idempotency key) without making it another call (rv-25b F3).
 */
function callKey({ inputType, dimensions }: EmbeddingRequestOptions): string {
  return JSON.stringify([inputType, dimensions]);
}

/** The tries of each `values` array `doEmbed` calls were given, until each returns its vectors. */
const TRIES = new WeakMap<readonly string[], BatchTries[]>();

/**
 * The tries of the call (`model`, `key`) on `values` that no `doEmbed` is running on (new ones
 * when there are none, or its texts changed since), taken until `doneWith`: an earlier try of
 * the same call left them, a retry's; another call on the same array, or one in flight at the
 * same time, gets tries of its own (rv-svc12 F1).
 */
function triesOf(values: readonly string[], model: object, key: string): BatchTries {
  const all = (TRIES.get(values) ?? []).filter((tries) => sameValues(tries.values, values));
  let tries = all.find((kept) => !kept.running && kept.model === model && kept.key === key);
  if (tries === undefined) {
    tries = {
      values: [...values],
      model,
      key,
      running: false,
      vectors: new Array(values.length),
      answers: noAnswers(),
      retries: noRetries(values.length),
    };
    all.push(tries);
  }
  tries.running = true;
  TRIES.set(values, all);
  return tries;
}

/** Gives `tries` back after a `doEmbed`: kept for a retry when it failed, else dropped. */
function doneWith(values: readonly string[], tries: BatchTries, embedded: boolean): void {
  tries.running = false;
  if (embedded)
    TRIES.set(
      values,
      (TRIES.get(values) ?? []).filter((kept) => kept !== tries),
    );
}

function sameValues(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

function noAnswers(): Answers {
  return { tokens: undefined, usageMissing: false, response: undefined, metadata: {} };
}

/** A batch `embedMany` cut: where its values start in `all`, the values `embedMany` was given. */
export interface EmbedManyBatch {
  start: number;
  all: readonly string[];
}

/**
 * `doEmbed` of `GatewayEmbeddingModel`, loaded on its first call (a chat-only app never runs it):
 * the count check, `providerOptions.infergate`, the call's tries (`triesOf`), then `embedWithTries`.
 * `batch`: where these values are in the caller's `embedMany` values, when `embedMany` cut them.
 */
export async function embedValues(
  model: EmbeddingModelParts,
  options: EmbeddingModelV4CallOptions,
  batch?: EmbedManyBatch,
): Promise<EmbeddingModelV4Result> {
  const { values } = options;
  if (values.length > VALUES_PER_DO_EMBED) {
    throw new TooManyEmbeddingValuesForCallError({
      provider: model.provider,
      modelId: model.modelId,
      maxEmbeddingsPerCall: VALUES_PER_DO_EMBED,
      values,
    });
  }
  const infergateOptions = parseGatewayEmbeddingOptions(
    options.providerOptions,
    model.config.sentKey,
  );
  const request: EmbeddingRequestOptions = {
    inputType: infergateOptions?.inputType,
    // The provider option over the generic one, as for a chat call's request fields (README).
    dimensions: infergateOptions?.dimensions ?? options.dimensions,
  };
  // A retry of `ai` (the same call on the same values array) sends only what no try answered.
  const tries = triesOf(values, model.owner, callKey(request));
  let embedded = false;
  try {
    const result = await embedWithTries(model, options, request, tries, batch);
    embedded = true;
    return result;
  } finally {
    doneWith(values, tries, embedded);
  }
}

/** What of a `doEmbed`'s options shapes its requests (beside the engine and headers). */
interface EmbeddingRequestOptions {
  inputType: EmbeddingInputType | undefined;
  dimensions: number | undefined;
}

/** `embedValues` with the call's `tries`: the engine, core's batching, usage and response. */
async function embedWithTries(
  model: EmbeddingModelParts,
  options: EmbeddingModelV4CallOptions,
  request: EmbeddingRequestOptions,
  tries: BatchTries,
  batch: EmbedManyBatch | undefined,
): Promise<EmbeddingModelV4Result> {
  const { values, abortSignal } = options;
  const start = batch?.start;
  const { config } = model;
  const { inputType, dimensions } = request;
  const client = config.client();
  tries.retries.calls += 1;
  // The requests core sends: one, unless the batch had to be split.
  const answers = tries.answers;
  // One deadline (the client's `timeoutMs`) over the engine look-up and the requests.
  const callOptions = withDeadlineStarted({
    signal: abortSignal,
    headers: withUserAgent(options.headers, false),
    maxRetries: AI_RETRIES,
    onResponse: (info: GatewayResponseInfo) => {
      answers.response = info;
      const used = promptTokens(info.body);
      if (used === undefined) answers.usageMissing = true;
      else answers.tokens = (answers.tokens ?? 0) + used;
      mergeProviderMetadata(answers.metadata, info.body);
    },
  });
  const engine = await resolveEngine(model, callOptions);
  const failure = embedFailure(config, engine, values, dimensions);
  checkLaterValues(batch, values.length, request, engine, failure);
  try {
    // Core cuts the batch by the 64-item and 65 536-byte limits, runs the parts within the
    // key's concurrency budget and returns the vectors in input order (a copy of the kept ones).
    // A retry within the call gets a deadline of its own, as each of `ai`'s retries does.
    const send = (retry: boolean, failed: FailedRequests) => {
      const options: EmbedManyOptions & KeptVectorsOption & FailedBatchesOption = {
        ...(retry ? withDeadlineStarted(callOptions) : callOptions),
        model: engine.id,
        inputType,
        dimensions,
        [KEPT_VECTORS]: tries.vectors,
        // Which requests were sent and failed: each counts a failed send (see there).
        [FAILED_BATCHES]: failed,
      };
      return client.embedMany(values, options);
    };
    // A batch's failed requests are retried here, within what `ai` granted each (see there).
    const embeddings = await withRetriesOfFailedRequests(
      send,
      tries.vectors,
      tries.retries,
      (error) => retryableFailure(failure(error, values.length, start)),
      abortSignal,
    );
    // What core leaves out for this engine is told once per `embedMany`: by its first batch.
    const warnFor = batch === undefined || start === 0 ? inputType : undefined;
    return embedResult(embeddings, answers, engine, warnFor);
  } catch (error) {
    throw failure(error, values.length, start);
  }
}

/** What a `doEmbed` returns: the vectors, and what its answers and core's rule for `engine` tell. */
function embedResult(
  embeddings: number[][],
  answers: Answers,
  engine: EmbeddingEngine,
  inputType: EmbeddingInputType | undefined,
): EmbeddingModelV4Result {
  const { tokens, usageMissing, response, metadata: answersMetadata } = answers;
  const ours = { ...answersMetadata[PROVIDER_OPTIONS_KEY], engine: engine.id };
  return {
    embeddings,
    // No usage: `ai` counts it unknown (NaN), as it does for any model without one.
    ...(tokens !== undefined && !usageMissing ? { usage: { tokens } } : {}),
    ...(response !== undefined
      ? { response: { headers: headersToRecord(response.headers), body: response.body } }
      : {}),
    providerMetadata: { ...answersMetadata, [PROVIDER_OPTIONS_KEY]: ours },
    // What core left out of the requests for this engine (its rule), told as `ai` tells it.
    warnings: droppedEmbeddingOptions(engine, { inputType }).map(({ option, details }) => ({
      type: 'unsupported' as const,
      feature: option,
      details,
    })),
  };
}

/** The failure as `ai` judges it: retryable (with the gateway's `Retry-After`), else undefined. */
function retryableFailure(mapped: unknown): { retryAfterMs?: number } | undefined {
  if (!APICallError.isInstance(mapped) || !mapped.isRetryable) return undefined;
  const cause: unknown = mapped.cause;
  return { retryAfterMs: isGatewayError(cause) ? cause.retryAfterMs : undefined };
}

/** What a refusal or failure of `values` throws: `count` values named from `from` (asCallersValue). */
function embedFailure(
  config: GatewayModelConfig,
  engine: EmbeddingEngine,
  values: readonly string[],
  dimensions: number | undefined,
) {
  return (error: unknown, count: number, from: number | undefined) =>
    mapGatewayError(asCallersValue(error, count, from), {
      url: endpointURL(config, ENDPOINTS.embeddings),
      requestBodyValues: { model: engine.id, input: values, dimensions },
      sentKey: config.sentKey,
      maxRetryAfterMs: config.maxRetryAfterMs,
      modelType: 'embeddingModel',
    });
}

/**
 * `embedMany` sends its batches one after another, each a `doEmbed`: the first (of `count`
 * values) checks the values of the later batches on the engine (core's `embedMany` checks,
 * nothing sent), so a bad value late in the list is refused before any batch is sent and billed
 * (rv-svc F2). Its own values are checked next by core's `embedMany`, before its first request:
 * each value is checked once before anything is sent, not twice (bench B4: a pass over 10 000
 * texts measures each one's UTF-8 size). A refusal is named as the whole list's check names it
 * (the first refusal of core's `embedMany` over every value), so the list is checked whole then.
 */
function checkLaterValues(
  batch: EmbedManyBatch | undefined,
  count: number,
  inputs: { inputType?: EmbeddingInputType; dimensions?: number },
  engine: EmbeddingEngine,
  failure: ReturnType<typeof embedFailure>,
): void {
  if (batch === undefined || batch.start !== 0 || batch.all.length <= count) return;
  const later = batch.all.slice(count);
  try {
    checkEmbedMany(later, inputs, engine);
  } catch (laterRefusal) {
    try {
      checkEmbedMany(batch.all, inputs, engine);
    } catch (error) {
      throw failure(error, batch.all.length, 0);
    }
    throw failure(laterRefusal, later.length, count);
  }
}

/**
 * The engine of this call (`GET /capabilities`, cached by the client): a failure is reported
 * against that request, not against an embeddings request that was never sent.
 */
async function resolveEngine(
  model: EmbeddingModelParts,
  callOptions: CallOptions,
): Promise<EmbeddingEngine> {
  const { config } = model;
  const client = config.client();
  try {
    return await engineOf(model).resolve((id) => client.resolveEmbeddingEngine(id, callOptions));
  } catch (error) {
    throw mapGatewayError(error, {
      url: endpointURL(config, ENDPOINTS.capabilities),
      requestBodyValues: undefined,
      maxRetryAfterMs: config.maxRetryAfterMs,
      modelType: 'embeddingModel',
    });
  }
}

/**
 * Adds an answer's `providerMetadata` (an object of objects, as OpenAI-compatible servers send
 * it; any other shape is ignored) to `into`, each provider's entries merged over the answers.
 */
function mergeProviderMetadata(into: SharedV4ProviderMetadata, body: unknown): void {
  const metadata = (body as { providerMetadata?: unknown } | null)?.providerMetadata;
  if (!isPlainObject(metadata)) return;
  for (const [provider, entries] of Object.entries(metadata)) {
    if (isPlainObject(entries)) {
      Object.defineProperty(into, provider, {
        value: { ...into[provider], ...(entries as Record<string, JSONValue>) },
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Core's refusal of one text (`texts[i]`, or `text` for a list of one) named as the AI SDK caller
 * gave it: `values[i]` of `embedMany` (`i` counted from the batch's `start`), else `value` of
 * `embed` (which passes one value and no batch start). Without a start for several values (a
 * middleware that rebuilt `providerOptions` without the batch mark, or a direct `doEmbed`) the caller's index is unknown,
 * so core's own name, counted within the batch, is kept.
 */
function asCallersValue(error: unknown, count: number, start: number | undefined): unknown {
  if (!isGatewayError(error) || error.status !== undefined || error.field === undefined) {
    return error;
  }
  const index = /^text(?:s\[(\d+)\])?$/.exec(error.field);
  if (index === null || !error.message.startsWith(error.field)) return error;
  if (start === undefined && count !== 1) return error;
  const field = start === undefined ? 'value' : `values[${start + Number(index[1] ?? 0)}]`;
  return new GatewayError({
    code: error.code,
    message: `${field}${error.message.slice(error.field.length)}`,
    field,
  });
}

/** `usage.prompt_tokens` of an embeddings answer (docs/gateway-protocol.md §6 shows no usage; servers send it). */
function promptTokens(body: unknown): number | undefined {
  const usage = (body as { usage?: { prompt_tokens?: unknown; total_tokens?: unknown } } | null)
    ?.usage;
  const tokens = usage?.prompt_tokens ?? usage?.total_tokens;
  return typeof tokens === 'number' && Number.isFinite(tokens) ? tokens : undefined;
}

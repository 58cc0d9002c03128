// docs/gateway-protocol.md §6 (embeddings).
import type { CallOptions, EmbeddingEngine, GatewayClient } from '@infergate/core';
import { withDeadlineStarted } from '@infergate/core/internal';
import {
  checkEmbeddingsSettings,
  EmbeddingEnginePin,
} from '@infergate/core/internal/service-tools';
import { Embeddings, type EmbeddingsParams } from '@langchain/core/embeddings';
import { type ClientTuning, type GatewayConnectionFields, resolveClient } from '../utils/client';
import { withLangChainErrors } from '../utils/errors';
import { refuseUnknownFields } from '../utils/known-fields';
import { clientTuning, runnableCallOptions } from '../utils/runnable-call-options';

/**
 * LangChain's embeddings fields but `maxRetries` (the client's, below) and `onFailedAttempt`
 * (refused: the gateway client does the retrying, see the constructor). `maxConcurrency` bounds
 * each call's requests in flight (core's `embedMany` option).
 */
export interface GatewayEmbeddingsFields
  extends Omit<EmbeddingsParams, 'maxRetries' | 'onFailedAttempt'>,
    GatewayConnectionFields,
    ClientTuning {
  /**
   * Engine id from `GET /capabilities` (e.g. `multilingual-e5-base`). Optional when exactly one
   * engine is available: the first call takes it and these embeddings keep it (a later call is
   * refused with `model_not_found` when it is gone, never served by another engine). Required
   * when several are (the error lists them). Vectors of different engines do not mix. Read at
   * each call: setting it later makes the next calls use the engine it names.
   */
  model?: string;
  /**
   * Output dimensions of the multilingual engine (128, 256, 512 or 768). Sent as `dimensions`
   * only when set; the gateway's field for it is not documented, so this is unverified.
   */
  dimensions?: number;
}

/**
 * LangChain embeddings served by the gateway's embedding engines. Long inputs are split into
 * requests of at most 64 texts and 65 536 bytes, sent in parallel within the key's concurrency
 * budget (and `maxConcurrency` at a time per call, when set), and returned in input order.
 */
export class GatewayEmbeddings extends Embeddings implements GatewayEmbeddingsFields {
  model?: string;
  dimensions?: number;
  declare readonly client: GatewayClient;
  /** The engine `model` named, else the one the first call resolved; replaced when `model` changes. */
  #enginePin: EmbeddingEnginePin;
  /** The `model` the pin was made for. */
  #pinnedModel: string | undefined;

  /** `timeout` and `maxRetries`, handed to each call (a shared client's too). */
  readonly #tuning: ClientTuning;

  /** LangChain's `maxConcurrency` when it bounds anything (not its default, Infinity). */
  readonly #maxConcurrency: number | undefined;

  constructor(fields: GatewayEmbeddingsFields = {}) {
    // A typo (`dimension`) would do nothing: refused, with LangChain's own fields known.
    refuseUnknownFields(
      fields,
      { model: true, dimensions: true, maxConcurrency: true },
      'new GatewayEmbeddings',
      NOT_EMBEDDINGS_FIELDS,
    );
    // LangChain's default (Infinity) bounds nothing; `null` is not given, as LangChain reads it.
    const maxConcurrency =
      fields.maxConcurrency === Number.POSITIVE_INFINITY
        ? undefined
        : (fields.maxConcurrency ?? undefined);
    // Refused now by core's rules for `embedMany`, named as this object's: each call would
    // otherwise fail on them, named as a call's options.
    checkEmbeddingsSettings(
      { dimensions: fields.dimensions, maxConcurrency },
      'GatewayEmbeddings option',
    );
    // The gateway client retries; LangChain's caller must not retry on top of it. Its queue is
    // not used: the bound goes to core's `embedMany` (per call).
    super({ ...fields, maxRetries: 0, maxConcurrency: undefined });
    // (`null` as unset, as core's `embed` reads it.)
    this.model = fields.model ?? undefined;
    this.dimensions = fields.dimensions;
    Object.defineProperty(this, 'client', {
      value: resolveClient(fields, 'new GatewayEmbeddings'),
      enumerable: false,
    });
    this.#tuning = clientTuning(fields);
    this.#pinnedModel = this.model;
    this.#enginePin = new EmbeddingEnginePin(this.model);
    this.#maxConcurrency = maxConcurrency;
  }

  /** Embeds texts for indexing (`input_type: "document"` on the multilingual engine). */
  async embedDocuments(documents: string[]): Promise<number[][]> {
    return this.embed(documents, 'document');
  }

  /** Embeds a search query (`input_type: "query"` on the multilingual engine). */
  async embedQuery(query: string): Promise<number[]> {
    const [vector] = await this.embed([query], 'query');
    return vector!;
  }

  /** The engine these embeddings use (one catalog lookup, cached by the client). */
  async engine(): Promise<EmbeddingEngine> {
    return withLangChainErrors(() => this.resolveEngine({}));
  }

  private resolveEngine(opts: CallOptions): Promise<EmbeddingEngine> {
    // `model` is a public field, read at each call as LangChain's embeddings do: a model set or
    // changed after construction replaces the pin. Unset, the object keeps the engine it has.
    if (this.model !== undefined && this.model !== this.#pinnedModel) {
      this.#pinnedModel = this.model;
      this.#enginePin = new EmbeddingEnginePin(this.model);
    }
    return this.#enginePin.resolve((id) => this.client.resolveEmbeddingEngine(id, opts));
  }

  private async embed(texts: string[], inputType: 'document' | 'query'): Promise<number[][]> {
    if (texts.length === 0) return [];
    // Core sends input_type only to the multilingual engine, whose field it is
    // (docs/gateway-protocol.md §6). One deadline over the engine look-up and the requests.
    return withLangChainErrors(async () => {
      const opts = withDeadlineStarted(runnableCallOptions(undefined, this.#tuning));
      const engine = await this.resolveEngine(opts);
      return this.client.embedMany(texts, {
        ...opts,
        model: engine.id,
        inputType,
        dimensions: this.dimensions,
        // Per call (OpenAIEmbeddings' bound is per object), within the key's shared budget.
        maxConcurrency: this.#maxConcurrency,
      });
    });
  }
}

/**
 * LangChain's fields these embeddings refuse, each with why. `onFailedAttempt` is called on each
 * failed attempt and decides whether to retry; the gateway client owns the retries (`maxRetries`,
 * core's policy), so it could be called only on the last failure and decide nothing. Refused
 * rather than silently never called.
 */
const NOT_EMBEDDINGS_FIELDS = {
  onFailedAttempt:
    "the gateway client does the retrying (`maxRetries`, core's policy); watch its attempts with `onEvent` (`retry` events) instead",
};

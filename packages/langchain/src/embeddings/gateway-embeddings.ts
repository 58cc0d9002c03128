// docs/gateway-protocol.md §6 (embeddings).
import type { EmbeddingEngine, GatewayClient } from '@infergate/core';
import { Embeddings, type EmbeddingsParams } from '@langchain/core/embeddings';
import { type ClientTuning, type GatewayConnectionFields, resolveClient } from '../utils/client';
import { withLangChainErrors } from '../utils/errors';

export interface GatewayEmbeddingsFields
  extends Omit<EmbeddingsParams, 'maxRetries'>,
    GatewayConnectionFields,
    ClientTuning {
  /**
   * Engine id from `GET /capabilities` (e.g. `multilingual-e5-base`). Optional when exactly one
   * engine is available; required when several are (the error lists them). Keep one engine for
   * documents and queries: vectors of different engines do not mix.
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
 * budget, and returned in input order.
 */
export class GatewayEmbeddings extends Embeddings implements GatewayEmbeddingsFields {
  model?: string;
  dimensions?: number;
  declare readonly client: GatewayClient;

  constructor(fields: GatewayEmbeddingsFields = {}) {
    // The gateway client retries; LangChain's caller must not retry on top of it.
    super({ ...fields, maxRetries: 0 });
    this.model = fields.model;
    this.dimensions = fields.dimensions;
    Object.defineProperty(this, 'client', {
      value: resolveClient(fields, 'new GatewayEmbeddings'),
      enumerable: false,
    });
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
    return withLangChainErrors(() => this.client.resolveEmbeddingEngine(this.model));
  }

  private async embed(texts: string[], inputType: 'document' | 'query'): Promise<number[][]> {
    if (texts.length === 0) return [];
    // Core resolves the engine (one cached catalog look-up) and sends input_type only to the
    // multilingual engine, whose field it is (docs/gateway-protocol.md §6).
    return withLangChainErrors(() =>
      this.client.embedMany(texts, {
        model: this.model,
        inputType,
        dimensions: this.dimensions,
      }),
    );
  }
}

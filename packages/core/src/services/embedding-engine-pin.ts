// docs/gateway-protocol.md §6 (embeddings: one engine for documents and queries; changing it
// means reindexing).
import type { EmbeddingEngine } from '../protocol/wire-types';

/**
 * The engine of an embeddings object that lives across calls (LangChain's `GatewayEmbeddings`,
 * the AI SDK's embedding model). Without an engine id the first call takes the only available
 * engine, and every later call keeps it: when the gateway's only engine changes, a later call is
 * refused (`model_not_found`: the engine is never changed automatically), never served by another
 * engine whose vectors would not mix with the ones already stored.
 */
export class EmbeddingEnginePin {
  readonly #requested: string | undefined;
  #pinned: string | undefined;

  /** `engineId`: the engine the caller named; undefined lets the first call pick the only one. */
  constructor(engineId: string | undefined) {
    this.#requested = engineId;
  }

  /** The engine calls use: the one named, else the one the first call resolved (if any yet). */
  get engineId(): string | undefined {
    return this.#pinned ?? this.#requested;
  }

  /** The engine of this call, by `lookUp` (core's `resolveEmbeddingEngine`), pinned by the first. */
  async resolve(
    lookUp: (engineId: string | undefined) => Promise<EmbeddingEngine>,
  ): Promise<EmbeddingEngine> {
    const engine = await lookUp(this.engineId);
    this.#pinned ??= engine.id;
    // Two first calls at once: the one that resolved first pinned the engine for both.
    return engine.id === this.#pinned ? engine : lookUp(this.#pinned);
  }
}

// docs/gateway-protocol.md §12.7 (which engine is the multilingual one).
import type { EmbeddingEngine } from './wire-types';

/**
 * The multilingual engine is recognised by "multilingual" in its id or name (case-insensitive):
 * engines are named by what they do, not by id (docs/gateway-protocol.md §12.7).
 */
export function isMultilingualEngine(engine: EmbeddingEngine): boolean {
  return (
    /multilingual/i.test(engine.id) ||
    (typeof engine.name === 'string' && /multilingual/i.test(engine.name))
  );
}

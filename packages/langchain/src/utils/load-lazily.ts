// docs/gateway-protocol.md §10.4 (`client_code_unavailable`: a part of the client's own code could
// not be loaded).
import { lazily as lazilyIn } from '@infergate/core/internal';
import { withLangChainErrorCode } from './errors';

/**
 * A part of this package loaded on first use (a lazy chunk in a split bundle: structured output,
 * the content-block events): core's `lazily()`, its `client_code_unavailable` naming this package
 * and marked as every error of this package is.
 */
export function lazily<T>(part: string, load: () => Promise<T>): () => Promise<T> {
  const get = lazilyIn(part, load, '@infergate/langchain');
  return () =>
    get().catch((error: unknown) => {
      throw withLangChainErrorCode(error);
    });
}

// docs/gateway-protocol.md §10.4 (`client_code_unavailable`: a part of the client's own code could
// not be loaded).
import { GatewayError } from '@infergate/core';
import { withLangChainErrorCode } from './errors';

/**
 * A part of this package loaded on first use (a lazy chunk in a split bundle: structured output,
 * the content-block events), as core's own `lazily()` (not exported by `@infergate/core/internal`)
 * loads its parts. `load` is the part's `import()`; the module is kept once it has loaded. A load
 * that fails (a partial deploy missing the chunk, a chunk request failing in a browser) rejects
 * with a `GatewayError` `client_code_unavailable` (retryable; marked as every error of this package
 * is), the loader's error as its `cause`, and is not kept: the next call imports it again, so a
 * model recovers once the chunk is back.
 */
export function lazily<T>(part: string, load: () => Promise<T>): () => Promise<T> {
  let loaded: T | undefined;
  let loading: Promise<T> | undefined;
  return () => {
    if (loaded !== undefined) return Promise.resolve(loaded);
    loading ??= load().then(
      (module) => {
        loaded = module;
        return module;
      },
      (cause: unknown) => {
        loading = undefined;
        throw withLangChainErrorCode(
          new GatewayError({
            code: 'client_code_unavailable',
            message: `Part of @infergate/langchain could not be loaded (${part}): ${cause instanceof Error ? cause.message : String(cause)}. Is the deployment complete? The next call loads it again.`,
            cause,
          }),
        );
      },
    );
    return loading;
  };
}

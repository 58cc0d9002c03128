// docs/gateway-protocol.md §10.4 (`client_code_unavailable`: a part of the client's own code could
// not be loaded).
import { describeCause, GatewayError } from './errors';

/**
 * A part of core loaded on first use (a lazy chunk in a split bundle: the events, the steering,
 * the services), or of an adapter (`owner`: the package named in the error;
 * `@infergate/core/internal` exports this for them). `load` is the part's `import()`; the module
 * is kept once it has loaded. A load that fails (a partial deploy missing the chunk, a chunk
 * request failing in a browser) rejects with `client_code_unavailable`, the loader's error as its
 * `cause`, and is not kept: the next call imports it again, so a client recovers once the chunk
 * is back.
 */
export function lazily<T>(
  part: string,
  load: () => Promise<T>,
  owner = '@infergate/core',
): () => Promise<T> {
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
        throw codeUnavailable(owner, part, cause);
      },
    );
    return loading;
  };
}

/** The error of a part that could not be loaded. */
function codeUnavailable(owner: string, part: string, cause: unknown): GatewayError {
  return new GatewayError({
    code: 'client_code_unavailable',
    message: `Part of ${owner} could not be loaded (${part}): ${describeCause(cause)}. Is the deployment complete? The next call loads it again.`,
    cause,
  });
}

// docs/gateway-protocol.md §10.4 (`client_code_unavailable`: a part of the client's own code could
// not be loaded).
import { GatewayError } from '@infergate/core';

/**
 * A part of this provider loaded on first use, so that a chat-only app's start-up chunk does not
 * carry it (a lazy chunk in a split bundle: the embedding and transcription calls, the service
 * helpers, the service tools' checks and requests). The adapter's equivalent of core's `lazily()`
 * (`errors/load-lazily.ts`), which `@infergate/core/internal` does not export.
 *
 * `load` is the part's `import()`; the module is kept once it has loaded. A load that fails (a
 * partial deploy missing the chunk, a chunk request failing in a browser) rejects with core's
 * `GatewayError` `client_code_unavailable` (retryable), the loader's error as its `cause`, and is
 * not kept: the next call imports it again. Callers map it as any core error (`mapGatewayError`).
 */
export function lazily<T>(part: string, load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((cause: unknown) => {
      loading = undefined;
      throw new GatewayError({
        code: 'client_code_unavailable',
        message: `Part of @infergate/ai-sdk could not be loaded (${part}): ${describe(cause)}. Is the deployment complete? The next call loads it again.`,
        cause,
      });
    });
    return loading;
  };
}

function describe(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  return cause.cause instanceof Error ? `${cause.message} (${cause.cause.message})` : cause.message;
}

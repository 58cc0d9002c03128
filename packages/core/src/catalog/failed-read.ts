// docs/gateway-protocol.md §3 (the catalog read before a call), §10 (errors).
/**
 * A catalog read's failure (`GET /models`, `GET /capabilities`) marked with the path that failed:
 * a chat call's gate reads the catalog first, and an adapter then reports the failure against that
 * request, not against a chat request that was never sent. A symbol of the global registry, so a
 * mark made by one copy of core (ESM, CJS) is read by another, as `isGatewayError` does.
 */
const FAILED_READ = Symbol.for('@infergate/core.failedRead');

/** Marks `error` (once: the first read that failed) with `path`. */
export function markFailedRead(error: unknown, path: string): void {
  if (typeof error !== 'object' || error === null || Object.hasOwn(error, FAILED_READ)) return;
  if (!Object.isExtensible(error)) return;
  Object.defineProperty(error, FAILED_READ, { value: path });
}

/** The catalog path whose read failed with `error` (`/models`), else undefined. */
export function failedReadPath(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const path = (error as Record<symbol, unknown>)[FAILED_READ];
  return typeof path === 'string' ? path : undefined;
}

/**
 * `error` marked with `cause`'s path, when the call built `error` (its deadline, its abort) in
 * place of a catalog read's failure: the read is still the request that failed.
 */
export function withFailedRead<T>(error: T, cause: unknown): T {
  const path = failedReadPath(cause);
  if (path !== undefined) markFailedRead(error, path);
  return error;
}

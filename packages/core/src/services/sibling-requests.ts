// docs/gateway-protocol.md §2.5 (the key's slots), §6 (`embedMany`'s batches), §7 (a long text's
// pieces).

/** What one of the sibling requests gets: its own signal, and a way to stop all of them. */
export interface SiblingRequest {
  /** Aborted by the caller's signal, and when a sibling fails (see `runSiblingRequests`). */
  signal: AbortSignal;
  /**
   * Stops the siblings with `error` as the call's failure: for a retry policy's `failed`
   * (`AttemptPolicy.failed`), which is told before the failed request's slot is given back, so a
   * queued sibling stops before it takes that slot.
   */
  stop(error: unknown): void;
}

/**
 * Runs the requests of one call together (a long list's batches, a long text's pieces): the first
 * that fails stops the others, queued or in flight, since their answers could no longer be used;
 * the caller's abort stops them all. Resolves to the results in order; rejects with the first
 * failure once every sibling has ended, so the key's slots are back when the caller learns of it.
 *
 * The one other mode, `letFinish`, for a caller that keeps each answer as it comes (for a retry
 * of the whole call: `embedMany`'s kept vectors): the requests it names for a failure (those in
 * flight, after a failure a retry may fix) are not stopped by it, but let finish, their answers
 * kept rather than sent again by the retry. The caller's abort stops them all.
 *
 * Each request gets a signal of its own (not one shared by all), so the caller's signal gets one
 * listener however many requests there are.
 */
export async function runSiblingRequests<T, R>(
  items: readonly T[],
  callerSignal: AbortSignal | undefined,
  send: (item: T, sibling: SiblingRequest, index: number) => Promise<R>,
  letFinish?: (failure: unknown, index: number) => boolean,
): Promise<R[]> {
  const controllers = items.map(() => new AbortController());
  let failure: { error: unknown } | undefined;
  // (Aborting an aborted controller does nothing: its first reason stays.)
  const abortAll = (reason: unknown, spared?: (index: number) => boolean | undefined) => {
    controllers.forEach((controller, index) => {
      if (!spared?.(index)) controller.abort(reason);
    });
  };
  const stop = (error: unknown) => {
    failure ??= { error };
    abortAll(error, (index) => letFinish?.(error, index));
  };
  const onCallerAbort = () => abortAll(callerSignal?.reason);
  if (callerSignal?.aborted) onCallerAbort();
  else callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  try {
    const outcomes = await Promise.allSettled(
      items.map(async (item, index) => {
        const signal = controllers[index]!.signal;
        try {
          return await send(item, { signal, stop }, index);
        } catch (error) {
          // The first to fail is the call's failure (with the caller's abort: the first it ended).
          stop(error);
          throw error;
        }
      }),
    );
    if (failure) throw failure.error;
    return outcomes.map((outcome) => (outcome as PromiseFulfilledResult<R>).value);
  } finally {
    callerSignal?.removeEventListener('abort', onCallerAbort);
  }
}

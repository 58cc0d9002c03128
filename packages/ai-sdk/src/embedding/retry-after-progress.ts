// docs/gateway-protocol.md §6 (one `doEmbed` is up to 32 gateway requests), §10.5 (`ai` owns the
// retries).
import { delay } from '@ai-sdk/provider-utils';

/**
 * The retries of one `embedMany` batch, kept over `ai`'s tries of its `doEmbed`. `ai` counts its
 * `maxRetries` per `doEmbed`, which is up to 32 gateway requests here (one for the AI SDK's other
 * providers); so a few transient failures of different requests would exhaust a budget meant for
 * the failure of one. `ai` does not tell a model its `maxRetries`, but each retry it makes shows
 * one more: `calls - 1` retries granted. A failure after progress (the first value not yet
 * answered moved on: the earlier failure was fixed) is a new failure, and is retried here, in
 * the same `doEmbed`, as long as it has had fewer retries than `ai` has shown it grants; past
 * that, `ai` decides (its retry, if it has one left, grants one more). So each failure gets
 * `maxRetries` retries at most, no layer multiplies another's, and `maxRetries: 0` retries
 * nothing (`ai` never retried, so nothing is granted).
 */
export interface BatchRetries {
  /** The `doEmbed` calls `ai` made for the batch. */
  calls: number;
  /** Failed rounds in a row with no progress between them: the current failure's attempts. */
  failures: number;
  /** The first value not answered when the last round failed. */
  firstUnanswered: number;
}

export function noRetries(): BatchRetries {
  return { calls: 0, failures: 0, firstUnanswered: -1 };
}

/** `ai`'s first retry delay when the failure names none (its `initialDelayInMs`, doubled each time). */
const FIRST_BACKOFF_MS = 2_000;

/**
 * Runs `send` (core's `embedMany` of the values not yet answered, `vectors`) again after a
 * retryable failure (`retryable`, as `ai` would judge it) that is new or has had fewer retries
 * than `ai` granted, waiting as `ai` would: the failure's `Retry-After`, else its backoff.
 * Anything else is thrown for `ai` to decide.
 */
export async function withRetriesAfterProgress<T>(
  send: () => Promise<T>,
  vectors: readonly (number[] | undefined)[],
  retries: BatchRetries,
  retryable: (error: unknown) => { retryAfterMs?: number } | undefined,
  abortSignal: AbortSignal | undefined,
): Promise<T> {
  for (;;) {
    try {
      return await send();
    } catch (error) {
      const failure = retryable(error);
      if (failure === undefined || !retryHere(vectors, retries)) throw error;
      const backoff = FIRST_BACKOFF_MS * 2 ** (retries.failures - 1);
      // An abort while waiting ends the next round at once, as core's `aborted`.
      await delay(failure.retryAfterMs ?? backoff, { abortSignal }).catch(() => undefined);
    }
  }
}

/** Counts a failed round; whether the failure has had fewer retries than `ai` granted. */
function retryHere(vectors: readonly (number[] | undefined)[], retries: BatchRetries): boolean {
  // biome-ignore lint/complexity/useIndexOf: the slots not answered are holes, which indexOf skips.
  const first = vectors.findIndex((vector) => vector === undefined);
  const progressed = first !== retries.firstUnanswered;
  retries.firstUnanswered = first;
  retries.failures = progressed ? 1 : retries.failures + 1;
  return retries.failures - 1 < retries.calls - 1;
}

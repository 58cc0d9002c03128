// docs/gateway-protocol.md §6 (one `doEmbed` is up to 32 gateway requests), §10.5 (`ai` owns the
// retries).
import { delay } from '@ai-sdk/provider-utils';

/**
 * The retries of one `embedMany` batch, kept over `ai`'s tries of its `doEmbed`. `ai` counts its
 * `maxRetries` per `doEmbed`, which is up to 32 gateway requests here (one for the AI SDK's other
 * providers). `ai` does not tell a model its `maxRetries`, but each retry it makes shows one more:
 * `calls - 1` retries granted. Each value counts the failed sends of the request that holds it,
 * so a request is sent again, here or by `ai`, only while it has failed no more than `ai` has
 * shown it grants: at most 1 + `maxRetries` sends of each request, none again with
 * `maxRetries: 0`, and a request failing for the first time late in the batch still gets its own
 * retries (each retry of `ai` grants one more to every request).
 */
export interface BatchRetries {
  /** The `doEmbed` calls `ai` made for the batch. */
  calls: number;
  /** Per value: the failed sends of the request holding it. */
  failedSends: number[];
}

export function noRetries(count: number): BatchRetries {
  return { calls: 0, failedSends: new Array<number>(count).fill(0) };
}

/** `ai`'s first retry delay when the failure names none (its `initialDelayInMs`, doubled each time). */
const FIRST_BACKOFF_MS = 2_000;

/** What core's `embedMany` tells of a failed try: each request sent and failed (values `start` to `end`). */
export type FailedRequests = (start: number, end: number) => void;

/**
 * Runs `send` (core's `embedMany` of the values not yet answered, `vectors`) again after a
 * retryable failure (`retryable`, as `ai` would judge it) while every request to be sent again
 * has failed no more often than `ai` granted, waiting as `ai` would: the failure's
 * `Retry-After`, else its backoff. Core tells `send`'s `failed` each request of the round that
 * was sent and failed (its `FAILED_BATCHES`); only those count a failed send (a request stopped
 * before it was sent counts none), and a round in which none was sent and failed is not
 * retried here. The rounds are not counted: the sends of each request are (rv-svc12 F2), so
 * one-off failures of different requests, however many, each get their retry, as with a
 * provider whose `doEmbed` is one request, and `ai`'s retries are not used up by them. Each
 * round has a request fail once more, and none fails more than *n* times in all by `ai`'s *n*-th
 * try, so a `doEmbed` ends. The retry is sent with a deadline of its own
 * (`send(true)`), as `ai` gives each of its retries: no wait runs out the deadline of the try
 * before it. Anything else is thrown for `ai` to decide.
 */
export async function withRetriesOfFailedRequests<T>(
  send: (retry: boolean, failed: FailedRequests) => Promise<T>,
  vectors: readonly (number[] | undefined)[],
  retries: BatchRetries,
  retryable: (error: unknown) => { retryAfterMs?: number } | undefined,
  abortSignal: AbortSignal | undefined,
): Promise<T> {
  for (let round = 1; ; round++) {
    let counted = false;
    const failed: FailedRequests = (start, end) => {
      counted = true;
      for (let i = start; i < end; i++) retries.failedSends[i] = (retries.failedSends[i] ?? 0) + 1;
    };
    try {
      return await send(round > 1, failed);
    } catch (error) {
      const attempts = mostFailedSends(vectors, retries.failedSends);
      const failure = retryable(error);
      // (None sent and failed: a failure before any request, such as the engine's look-up.)
      if (failure === undefined || !counted || attempts > retries.calls - 1) throw error;
      // An abort while waiting ends the next round at once, as core's `aborted`.
      const backoff = FIRST_BACKOFF_MS * 2 ** (attempts - 1);
      await delay(failure.retryAfterMs ?? backoff, { abortSignal }).catch(() => undefined);
    }
  }
}

/** The most failed sends of any value still to be sent. */
function mostFailedSends(
  vectors: readonly (number[] | undefined)[],
  failedSends: readonly number[],
): number {
  let most = 0;
  for (let i = 0; i < vectors.length; i++) {
    if (vectors[i] === undefined) most = Math.max(most, failedSends[i] ?? 0);
  }
  return most;
}

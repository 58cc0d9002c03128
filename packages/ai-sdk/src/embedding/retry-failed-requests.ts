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

/**
 * Runs `send` (core's `embedMany` of the values not yet answered, `vectors`) again after a
 * retryable failure (`retryable`, as `ai` would judge it) while every request to be sent again
 * has failed no more often than `ai` granted, waiting as `ai` would: the failure's
 * `Retry-After`, else its backoff. The retry is sent with a deadline of its own
 * (`send(true)`), as `ai` gives each of its retries: no wait runs out the deadline of the try
 * before it. Anything else is thrown for `ai` to decide.
 */
export async function withRetriesOfFailedRequests<T>(
  send: (retry: boolean) => Promise<T>,
  vectors: readonly (number[] | undefined)[],
  retries: BatchRetries,
  retryable: (error: unknown) => { retryAfterMs?: number } | undefined,
  abortSignal: AbortSignal | undefined,
  inFlightValues: number,
): Promise<T> {
  for (let retry = false; ; retry = true) {
    const unanswered = unansweredOf(vectors);
    try {
      return await send(retry);
    } catch (error) {
      const attempts = countFailedSends(vectors, unanswered, retries.failedSends, inFlightValues);
      const failure = retryable(error);
      if (failure === undefined || attempts > retries.calls - 1) throw error;
      // An abort while waiting ends the next round at once, as core's `aborted`.
      const backoff = FIRST_BACKOFF_MS * 2 ** (attempts - 1);
      await delay(failure.retryAfterMs ?? backoff, { abortSignal }).catch(() => undefined);
    }
  }
}

function unansweredOf(vectors: readonly (number[] | undefined)[]): number[] {
  const indices: number[] = [];
  for (let i = 0; i < vectors.length; i++) if (vectors[i] === undefined) indices.push(i);
  return indices;
}

/**
 * Counts a failed round's failed requests; returns the most failed sends of any request still to
 * be sent. Core does not say which requests it sent, only which were answered (`vectors`); but it
 * sends a round's requests in input order, none after the round's first failure, and lets those
 * in flight finish: the requests that failed are the first ones left unanswered, no more than
 * were in flight (`inFlight` requests, each of up to `valuesPerRequest` values). So the first
 * `inFlight × valuesPerRequest` values left unanswered are counted as failed (at most the few
 * next ones of a request not sent counted too: never fewer sends counted than were made).
 */
function countFailedSends(
  vectors: readonly (number[] | undefined)[],
  unanswered: readonly number[],
  failedSends: number[],
  inFlightValues: number,
): number {
  let counted = 0;
  let most = 0;
  for (const i of unanswered) {
    if (vectors[i] !== undefined) continue;
    if (counted < inFlightValues) {
      failedSends[i] = (failedSends[i] ?? 0) + 1;
      counted += 1;
    }
    most = Math.max(most, failedSends[i] ?? 0);
  }
  return most;
}

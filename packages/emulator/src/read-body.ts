// docs/gateway-protocol.md §11 (limits: media up to 23 MiB, so bodies up to ~31 MiB as base64), §10.2 (statuses).
import { GatewayRefusal, invalidField } from './gateway-error';
import { abortError, timerMs } from './timing';
import { ConnectionDropped } from './upstream-faults';

/**
 * The largest request body the emulator reads: above the 23 MiB media limit once
 * base64-encoded (23 MiB × 4/3 ≈ 30.7 MiB), so every valid request fits. Larger →
 * `invalid_request_error` (400): the spec lists no 413 among the gateway's statuses, and an
 * over-limit request is an invalid one there.
 */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;

/**
 * Stops `reader` when the request's `deadline` (a `Date.now()` value) passes or its client aborts:
 * a pending read then ends, and `stopped()` tells why (a 504 `request_timeout`, an AbortError).
 * An upload that stalls is a wait like any other, bounded by `requestTimeoutMs` (spec §8), so a
 * client that stops sending does not hold its key's slot for ever. `end()` clears the watch.
 */
function watchUpload(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  deadline: number,
  signal: AbortSignal | undefined,
): { stopped: () => Error | undefined; end: () => void } {
  let stopped: Error | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = (error: Error) => {
    stopped ??= error;
    reader.cancel(error).catch(() => undefined);
  };
  const onAbort = () => stop(abortError());
  // Re-armed until the deadline: one timer holds at most 24.8 days (`timerMs`).
  const arm = () => {
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      stop(new GatewayRefusal('request_timeout', 'The request exceeded its time limit'));
    } else timer = setTimeout(arm, timerMs(remaining));
  };
  if (signal?.aborted) onAbort();
  else {
    signal?.addEventListener('abort', onAbort, { once: true });
    if (Number.isFinite(deadline)) arm();
  }
  return {
    stopped: () => stopped,
    end: () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    },
  };
}

/** The network error of a request whose body stream errored before it was read whole. */
function uploadFailed(cause: unknown): ConnectionDropped {
  return new ConnectionDropped('fetch failed: the request body failed while it was sent', {
    cause,
  });
}

/**
 * Reads a body chunk by chunk, refusing (400) as soon as it passes `limit` — or at once when its
 * `Content-Length` says it will — so an oversized upload is never held whole. Past `deadline`
 * (a `Date.now()` value) the read stops with 504 `request_timeout`, and when the request's signal
 * aborts with an AbortError: either way the body is cancelled. A body stream that errors rejects
 * with a `TypeError` (`ConnectionDropped`, its error as `cause`), as fetch does when its upload fails.
 */
export async function readBodyCapped(
  request: Request,
  limit: number,
  deadline = Number.POSITIVE_INFINITY,
): Promise<Uint8Array<ArrayBuffer>> {
  const tooLarge = (size: string) =>
    invalidField('body', `The request body is ${size}; the emulator reads at most ${limit} bytes`);
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > limit) {
    await request.body?.cancel().catch(() => undefined);
    throw tooLarge(`${declared} bytes`);
  }
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const watch = watchUpload(reader, deadline, request.signal);
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await reader.read();
      } catch (error) {
        // The upload itself failed: fetch rejects with a TypeError then, so the call does too.
        throw watch.stopped() ?? uploadFailed(error);
      }
      const stopped = watch.stopped();
      if (stopped) throw stopped;
      const { done, value } = next;
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge(`over ${limit} bytes`);
      }
      chunks.push(value);
    }
  } finally {
    watch.end();
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

// docs/gateway-protocol.md §5.5 (a stream's first bytes and first event, read before core hands it
// over), §4.7 (a stall before the first content fails over).
import type { ChatStream } from '@infergate/core';
import { joinedSignal } from '@infergate/core/internal';
import { headersToRecord } from '../shared/gateway-model-config';

/**
 * A chat stream handed on once an attempt's 2xx headers are in, as `@ai-sdk/openai-compatible`
 * hands its stream on: ai starts its `timeout.firstChunkMs` clock when `doStream` returns, so the
 * first event is waited for inside the stream. Core's stream opens later (its first event read,
 * a stall retried or failed over); until then `stream` is undefined, and a failure after the
 * headers is kept in `failure` for the stream's first parts.
 */
export interface OpenedAtHeaders {
  /** The first 2xx answer's headers. */
  readonly headers: Headers;
  /** Core's stream once it opened. */
  stream: ChatStream | undefined;
  /** Why core's stream did not open (after the headers came). */
  failure: unknown;
  /** Settles once core's stream opened (undefined) or failed (its failure, boxed). */
  readonly settled: Promise<{ error: unknown } | undefined>;
  /** Aborts the signal core's call was given (the caller's joined to it): ends a call not yet open. */
  readonly abort: (reason: unknown) => void;
  /** Stops forwarding the caller's abort (where the runtime has no `AbortSignal.any`): the stream ended. */
  readonly release: (() => void) | undefined;
}

// (The signal core's call is given is the caller's `abortSignal` joined to one this adapter
// aborts when the stream is cancelled before core's stream opened: core then ends its request,
// frees its slot and tries no other model.)

/**
 * Opens core's stream (`open`, given the `onHeaders` hook to pass to `chatStream`) and resolves
 * once the first attempt's 2xx headers are in (or core's stream opened, if that comes first). What
 * core throws before any 2xx answer (a refusal, an error status after ai's retries are core's
 * none) is thrown here, as `doStream` throws it.
 */
export async function openAtHeaders(
  open: (
    onHeaders: (answer: { headers: Headers }) => void,
    signal: AbortSignal,
  ) => Promise<ChatStream>,
  callerSignal: AbortSignal | undefined,
): Promise<OpenedAtHeaders> {
  let told: ((headers: Headers) => void) | undefined;
  const headersIn = new Promise<Headers>((resolve) => {
    told = resolve;
  });
  const { signal, abort, release } = joinedSignal(callerSignal);
  const opening = open(({ headers }) => told?.(headers), signal);
  let first: { stream: ChatStream } | { headers: Headers };
  try {
    first = await Promise.race([
      opening.then((stream) => ({ stream })),
      headersIn.then((headers) => ({ headers })),
    ]);
  } catch (error) {
    release?.();
    throw error;
  }
  const opened: OpenedAtHeaders = {
    abort,
    release,
    headers: 'stream' in first ? first.stream.headers : first.headers,
    stream: 'stream' in first ? first.stream : undefined,
    failure: undefined,
    // (Read or not, core's failure is handled here: never an unhandled rejection.)
    settled: opening.then(
      (stream) => {
        opened.stream = stream;
        return undefined;
      },
      (error: unknown) => {
        opened.failure = error;
        release?.();
        return { error };
      },
    ),
  };
  return opened;
}

/** The source the conversion reads: core's stream, once it opened. */
export function openedSource(
  opened: OpenedAtHeaders,
): Pick<ChatStream, 'readBatch' | 'cancel' | 'servedModel' | 'result'> {
  const stream = () => opened.stream as ChatStream;
  const { release } = opened;
  return {
    // (Where a listener forwards the caller's abort, until the events end or fail.)
    readBatch:
      release === undefined ? () => stream().readBatch() : () => released(stream(), release),
    // (Read once the events ended: the answer's finish as core reports it.)
    result: () => stream().result(),
    // Cancelled before core's stream opened: its call is aborted (its request ended, its slot
    // freed, no other model tried), and the cancel resolves once core gave up.
    cancel: async (reason) => {
      if (opened.stream === undefined) opened.abort(reason ?? cancelledReason());
      await opened.settled;
      await opened.stream?.cancel(reason);
      release?.();
    },
    get servedModel() {
      return stream().servedModel;
    },
  };
}

/** A batch of events, the caller's abort no longer forwarded once they end or fail. */
function released(stream: ChatStream, release: () => void): ReturnType<ChatStream['readBatch']> {
  return stream.readBatch().then(
    (batch) => {
      if (batch === undefined) release();
      return batch;
    },
    (error: unknown) => {
      release();
      throw error;
    },
  );
}

/** What core's call is aborted with when the stream is cancelled without a reason. */
function cancelledReason(): Error {
  return new DOMException('The stream was cancelled', 'AbortError');
}

/**
 * `response` of `doStream`'s result: read by ai when its step ends (after the stream's first
 * parts, which wait for core's stream): the answering response's headers, after a failover the
 * answering model's; before core's stream opened (or when it failed), the first answer's.
 */
export function answeringResponse(opened: OpenedAtHeaders): { headers: Record<string, string> } {
  return {
    get headers() {
      return headersToRecord(opened.stream?.headers ?? opened.headers);
    },
  };
}

// docs/gateway-protocol.md §5.5 (a stream's first bytes and first event, read before core hands it
// over), §4.7 (a stall before the first content fails over).
import type { ChatStream } from '@infergate/core';
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
}

/**
 * Opens core's stream (`open`, given the `onHeaders` hook to pass to `chatStream`) and resolves
 * once the first attempt's 2xx headers are in (or core's stream opened, if that comes first). What
 * core throws before any 2xx answer (a refusal, an error status after ai's retries are core's
 * none) is thrown here, as `doStream` throws it.
 */
export async function openAtHeaders(
  open: (onHeaders: (answer: { headers: Headers }) => void) => Promise<ChatStream>,
): Promise<OpenedAtHeaders> {
  let told: ((headers: Headers) => void) | undefined;
  const headersIn = new Promise<Headers>((resolve) => {
    told = resolve;
  });
  const opening = open(({ headers }) => told?.(headers));
  const first = await Promise.race([
    opening.then((stream) => ({ stream })),
    headersIn.then((headers) => ({ headers })),
  ]);
  const opened: OpenedAtHeaders = {
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
  return {
    readBatch: () => stream().readBatch(),
    // (Read once the events ended: the answer's finish as core reports it.)
    result: () => stream().result(),
    // Cancelled before it opened: once it opens (an abort of the call ends it at once).
    cancel: async (reason) => {
      await opened.settled;
      await opened.stream?.cancel(reason);
    },
    get servedModel() {
      return stream().servedModel;
    },
  };
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

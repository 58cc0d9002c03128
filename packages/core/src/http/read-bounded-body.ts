// docs/gateway-protocol.md §2.4 (`Content-Length`), §10.4 (`response_too_large`).
import { CallScope } from '../call/call-scope';
import { GatewayError } from '../errors/errors';

/** A body read (`readBoundedBody`'s outcome), or the reason it could not be read (`failed`). */
export type BodyRead = { text: string; truncated: boolean } | { failed: unknown };

/**
 * Reads a body as text, counting the bytes as they arrive (after any decompression by fetch, so a
 * compression bomb is cut while it expands, not after). Past `limit` bytes the body is cancelled:
 * `truncated` is then true and `text` holds the first `limit` bytes (a multi-byte character cut at
 * the edge is replaced by U+FFFD), `bytes` the limit. A `limit` given as a function is asked with
 * the first bytes that come (an error body's bound depends on what it starts as: answer-errors.ts).
 * When `end` ends (a call's scope: its deadline, its caller; or a signal), the read ends at once
 * with the signal's reason: a body that never ends and ignores the abort (a custom `fetch`'s, some
 * runtimes' handlers) cannot hold the call past its deadline.
 */
export async function readBoundedBody(
  response: Response,
  limit: number | ((first: Uint8Array) => number),
  end?: CallScope | AbortSignal,
): Promise<{ text: string; truncated: boolean; bytes: number }> {
  const body = webBody(response);
  if (body instanceof GatewayError) throw body;
  if (!body) return { text: '', truncated: false, bytes: 0 };
  const reader = body.getReader();
  const signal = end instanceof CallScope ? end.signal : end;
  // A body of a custom fetch's own kind may ignore its cancel, its read never settling: each read
  // races the end. (A web stream's cancel settles its pending read: no race, nothing made per read.)
  const ended =
    typeof ReadableStream === 'function' && body instanceof ReadableStream
      ? undefined
      : endedRead();
  const cut = () => {
    reader.cancel().catch(() => {});
    ended?.end();
  };
  watchEnd(end, cut);
  // The bytes are kept and decoded once at the end, by one decoder shared by every body (a
  // decoder is costly to make, and a non-streaming decode keeps no state between bodies).
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let max = typeof limit === 'number' ? limit : Number.POSITIVE_INFINITY;
  try {
    for (;;) {
      const { done, value } = await (ended
        ? Promise.race([reader.read(), ended.read])
        : reader.read());
      signal?.throwIfAborted();
      if (done) break;
      if (bytes === 0 && value.byteLength > 0 && typeof limit === 'function') max = limit(value);
      const left = max - bytes;
      if (value.byteLength > left) {
        chunks.push(value.subarray(0, left));
        bytes = max;
        reader.cancel().catch(() => {});
        return { text: decodeAll(chunks, bytes), truncated: true, bytes };
      }
      bytes += value.byteLength;
      chunks.push(value);
    }
  } catch (error) {
    reader.cancel().catch(() => {});
    throw error;
  } finally {
    unwatchEnd(end, cut);
  }
  return { text: decodeAll(chunks, bytes), truncated: false, bytes };
}

/** A read's end, as a cancelled web stream's: it comes once `end` is called. */
function endedRead(): { read: Promise<ReadableStreamReadResult<Uint8Array>>; end: () => void } {
  let end = () => {};
  const read = new Promise<ReadableStreamReadResult<Uint8Array>>((resolve) => {
    end = () => resolve({ done: true, value: undefined });
  });
  return { read, end };
}

/**
 * The response's body, a web `ReadableStream` (null: none). A body of another kind (a Node
 * Readable, as node-fetch v2 gives, or a custom `fetch`'s own object) is destroyed, so its
 * connection does not stay open, and refused: the `configuration_error` returned (not retried:
 * every attempt through that `fetch` would get the same), for whole answers and streams alike.
 */
export function webBody(response: Response): ReadableStream<Uint8Array> | null | GatewayError {
  const body = response.body as unknown;
  if (body === null || body === undefined) return null;
  const stream = body as Partial<Record<'getReader' | 'destroy' | 'cancel', unknown>>;
  if (typeof stream.getReader === 'function') return body as ReadableStream<Uint8Array>;
  closeBody(body);
  return new GatewayError({
    code: 'configuration_error',
    field: 'fetch',
    message:
      'The `fetch` option returned a Response whose body is not a web ReadableStream (a Node ' +
      'stream, as node-fetch v2 gives?): pass a fetch whose Response.body has getReader(), such ' +
      "as the runtime's own fetch or undici's",
  });
}

/**
 * Closes a body (or a reader of one) of any kind, so its request ends: a web stream or reader is
 * cancelled (with `reason`), a Node Readable destroyed, an object that is only async-iterable
 * told to `return()`. A body of no known kind is left as it is; closing never throws (it is a
 * courtesy: the call's outcome is decided elsewhere).
 */
export function closeBody(body: unknown, reason?: unknown): void {
  if (body === null || typeof body !== 'object') return;
  const stream = body as Partial<Record<'cancel' | 'destroy' | 'return', unknown>> & {
    [Symbol.asyncIterator]?: unknown;
  };
  try {
    let closing: unknown;
    if (typeof stream.cancel === 'function') closing = stream.cancel(reason);
    else if (typeof stream.destroy === 'function') stream.destroy();
    else if (typeof stream.return === 'function') closing = stream.return();
    else if (typeof stream[Symbol.asyncIterator] === 'function') {
      const iterator = (stream[Symbol.asyncIterator] as () => { return?: () => unknown })();
      closing = iterator.return?.();
    }
    Promise.resolve(closing).catch(() => {});
  } catch {
    // (Nothing to do: the body is left to the collector.)
  }
}

/** Calls `cut` when `end` ends (at once if it has), until `unwatchEnd(end, cut)`. */
export function watchEnd(end: CallScope | AbortSignal | undefined, cut: () => void): void {
  if (end === undefined) return;
  if (end instanceof CallScope) end.watchEnd(cut);
  else if (end.aborted) cut();
  else end.addEventListener('abort', cut, { once: true });
}

/** Stops `cut` watching `end` (`watchEnd`); what else watches it stays. */
export function unwatchEnd(end: CallScope | AbortSignal | undefined, cut: () => void): void {
  if (end instanceof CallScope) end.unwatchEnd(cut);
  else end?.removeEventListener('abort', cut);
}

/** Non-streaming `decode` keeps no state between calls, so one decoder serves every body. */
const decoder = new TextDecoder();

/** The chunks as UTF-8 text (a character cut at the end becomes U+FFFD). */
function decodeAll(chunks: readonly Uint8Array[], bytes: number): string {
  if (chunks.length === 0) return '';
  if (chunks.length === 1) return decoder.decode(chunks[0]);
  const all = new Uint8Array(bytes);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return decoder.decode(all);
}

/** The `Content-Length` header as a number, when present and valid. */
export function declaredLength(headers: Headers): number | undefined {
  const value = headers.get('content-length');
  if (value === null || !/^\d+$/.test(value.trim())) return undefined;
  return Number(value);
}

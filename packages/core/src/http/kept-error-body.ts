// docs/gateway-protocol.md §10.3 (raw bodies kept on errors, bounded by `maxErrorBodyBytes`).
import { CUT_MARK } from '../errors/redact-secret';

/** `maxErrorBodyBytes`' default: the bound of a body kept where the client's own is not at hand. */
export const DEFAULT_ERROR_BODY_BYTES = 64 * 1024;

/**
 * What ends an error body cut after `limit` bytes: the cut mark (`…`, so that a start of the key
 * the cut leaves is redacted with the body: redact-secret.ts), then a note saying so.
 */
export function cutNote(limit: number): string {
  return `${CUT_MARK}\n[infergate: error body cut after ${limit} bytes (maxErrorBodyBytes)]`;
}

/**
 * `text` (a body already read whole: a 200's error object, a stream's error event) as an error
 * keeps it: its first `limit` bytes in UTF-8 (whole characters), cut as an error answer's body is
 * cut while read (answer-errors.ts), so an error carries the same bound whatever path it came by.
 */
export function keptErrorBody(text: string, limit: number): string {
  // (At most 3 bytes per UTF-16 unit: a short text needs no encoding to know it fits.)
  if (text.length * 3 <= limit) return text;
  const { read } = new TextEncoder().encodeInto(text, new Uint8Array(limit));
  return read === text.length ? text : `${text.slice(0, read)}${cutNote(limit)}`;
}

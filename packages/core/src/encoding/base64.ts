// docs/gateway-protocol.md §8, §9 (base64 images and audio).
import { invalidRequest } from '../errors/errors';
import { decodeBase64 } from './base64-bytes';
import { readDataUrl } from './data-url';

/** Removes a `data:<mime>;base64,` prefix when present. */
function stripDataUrl(text: string): string {
  return readDataUrl(text)?.data ?? text;
}

/** `scheme://`: a URL, never base64 (whose alphabet has no `:`). */
const URL_SCHEME = /^([A-Za-z][A-Za-z0-9+.-]{0,31}):\/\//;

function isBase64Char(code: number): boolean {
  return (
    (code >= 65 && code <= 90) || // A-Z
    (code >= 97 && code <= 122) || // a-z
    (code >= 48 && code <= 57) || // 0-9
    code === 43 || // +
    code === 47 // /
  );
}

/**
 * Checks standard base64 (RFC 4648 §4, no whitespace; `=` padding optional but correct when
 * present) and returns the decoded size in bytes. Throws invalid_request_error naming `field`.
 */
export function checkBase64(field: string, text: string): number {
  // A URL where the data belongs (`https://…/scan.png`): said so, rather than its `:` at
  // position 5, so the caller (or a model calling a tool) knows what to pass instead.
  const scheme = URL_SCHEME.exec(text)?.[1];
  if (scheme !== undefined) {
    throw invalidRequest(
      field,
      `is not well-formed base64: it looks like a URL (${scheme}://…), which is not fetched here; pass the bytes, base64 or a data: URL`,
    );
  }
  let end = text.length;
  let padding = 0;
  while (end > 0 && text.charCodeAt(end - 1) === 61 /* = */ && padding < 2) {
    end--;
    padding++;
  }
  for (let i = 0; i < end; i++) {
    if (!isBase64Char(text.charCodeAt(i))) {
      const shown = JSON.stringify(text[i]);
      throw invalidRequest(field, `is not well-formed base64: character ${shown} at position ${i}`);
    }
  }
  if (padding > 0 && text.length % 4 !== 0) {
    throw invalidRequest(
      field,
      `is not well-formed base64: padded length ${text.length} is not a multiple of 4`,
    );
  }
  if (end % 4 === 1) {
    throw invalidRequest(
      field,
      `is not well-formed base64: length ${end} leaves a dangling character`,
    );
  }
  return Math.floor((end * 3) / 4);
}

const ASCII_WHITESPACE = /[\t\n\f\r ]+/g;

/**
 * What is sent for a base64 string: the `data:` prefix and ASCII whitespace (line wrapping)
 * removed, then checked, then the missing `=` padding added, because the gateway reads
 * `string (base64)` strictly (length a multiple of 4). Returns that text and its decoded size.
 */
export function normaliseBase64(field: string, text: string): { text: string; size: number } {
  let data = stripDataUrl(text.trim());
  ASCII_WHITESPACE.lastIndex = 0;
  if (ASCII_WHITESPACE.test(data)) data = data.replace(ASCII_WHITESPACE, '');
  const size = checkBase64(field, data);
  const missing = (4 - (data.length % 4)) % 4;
  return { text: missing === 0 ? data : data + '='.repeat(missing), size };
}

/** Decodes just the first `count` bytes of already-checked base64 (for magic-byte sniffing). */
export function decodeBase64Prefix(text: string, count: number): Uint8Array {
  const chars = Math.min(text.length, Math.ceil(count / 3) * 4);
  let prefix = text.slice(0, chars);
  prefix = prefix.replace(/=+$/, '');
  while (prefix.length % 4 === 1) prefix = prefix.slice(0, -1);
  return decodeBase64(prefix).subarray(0, count);
}

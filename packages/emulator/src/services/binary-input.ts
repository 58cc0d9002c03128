// docs/gateway-protocol.md §8, §9, §11 (image and audio, 1 byte … 23 MiB).
import { invalidField } from '../gateway-error';

const MAX_BINARY_BYTES = 23 * 1024 * 1024;

/**
 * Decodes a base64 field, refusing anything that is not base64 or whose decoded size is outside
 * 1 byte .. 23 MiB (checked from the length before decoding).
 */
export function decodeBase64Field(field: string, value: unknown): Uint8Array {
  if (typeof value !== 'string')
    throw invalidField(field, `\`${field}\` is required: a base64 string`);
  const compact = value.replace(/\s+/g, '');
  const notBase64 = () =>
    invalidField(field, `\`${field}\` is not valid base64 (plain base64, no data: URL)`);
  if (compact.length % 4 !== 0) throw notBase64();
  const padding = compact.endsWith('==') ? 2 : compact.endsWith('=') ? 1 : 0;
  const size = (compact.length / 4) * 3 - padding;
  checkBinarySize(field, size);
  // With whitespace gone and the length a multiple of 4, atob refuses exactly what is not
  // base64 (a character outside the alphabet, `=` anywhere but the end), in one native pass.
  let binary: string;
  try {
    binary = atob(compact);
  } catch {
    throw notBase64();
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function checkBinarySize(field: string, size: number): void {
  if (size < 1)
    throw invalidField(field, `\`${field}\` is 0 bytes once decoded; at least 1 byte is required`);
  if (size > MAX_BINARY_BYTES) {
    throw invalidField(
      field,
      `\`${field}\` is ${size} bytes once decoded; the limit is ${MAX_BINARY_BYTES} bytes (23 MiB)`,
    );
  }
}

/** Where `marker` (ASCII) starts in `bytes`, jumping between its first byte's places natively. */
function indexOfMarker(bytes: Uint8Array, marker: string): number {
  const codes = Array.from(marker, (c) => c.charCodeAt(0));
  for (let at = bytes.indexOf(codes[0]!); at !== -1; at = bytes.indexOf(codes[0]!, at + 1)) {
    if (codes.every((code, j) => bytes[at + j] === code)) return at;
  }
  return -1;
}

/**
 * Test fixtures control the result: the UTF-8 text after `marker` (e.g. `TEXT:`), up to a NUL
 * byte or the end, trimmed. Undefined when the bytes hold no marker.
 */
export function markerText(bytes: Uint8Array, marker: string): string | undefined {
  const at = indexOfMarker(bytes, marker);
  if (at === -1) return undefined;
  const nul = bytes.indexOf(0, at + marker.length);
  const end = nul === -1 ? bytes.length : nul;
  return new TextDecoder().decode(bytes.subarray(at + marker.length, end)).trim();
}

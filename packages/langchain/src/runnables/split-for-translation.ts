// docs/gateway-protocol.md §7 (the translation input limit, 4096 UTF-8 bytes).
import { utf8ByteLength } from '@infergate/core/internal';

/**
 * Boundaries, best first. The look-ahead `(?=\S)` comes first so the look-behind only runs where a
 * word starts: each whitespace run is then scanned once, and a split stays linear in the text.
 */
const BOUNDARIES = [
  /(?=\S)(?<=\n\s*\n)/,
  /(?=\S)(?<=\n)/,
  /(?=\S)(?<=[.!?…。！？]\s+)/,
  // CJK sentence ends need no space after them.
  /(?=[^\s。！？])(?<=[。！？])/,
  /(?=\S)(?<=\s)/,
];

/**
 * Splits text into pieces of at most `maxBytes` UTF-8 bytes, at paragraph, then line, then
 * sentence, then word boundaries, so that each piece translates on its own. The separators stay
 * with the pieces, so joining them gives the text back. Runs in time linear in the text's length
 * (sizes are counted as pieces grow, never re-measured).
 */
export function splitForTranslation(text: string, maxBytes: number): string[] {
  return splitFrom(text, maxBytes, 0);
}

function splitFrom(text: string, maxBytes: number, firstBoundary: number): string[] {
  if (utf8ByteLength(text) <= maxBytes) return [text];
  for (let b = firstBoundary; b < BOUNDARIES.length; b++) {
    const parts = text.split(BOUNDARIES[b]!).filter((part) => part !== '');
    if (parts.length > 1) return pack(parts, maxBytes, b + 1);
  }
  return hardSplit(text, maxBytes);
}

function pack(parts: string[], maxBytes: number, nextBoundary: number): string[] {
  const pieces: string[] = [];
  let current = '';
  let currentBytes = 0;
  for (const part of parts) {
    const bytes = utf8ByteLength(part);
    if (bytes > maxBytes) {
      if (current) pieces.push(current);
      current = '';
      currentBytes = 0;
      // Only finer boundaries can split it further (the coarser ones found nothing inside it).
      for (const piece of splitFrom(part, maxBytes, nextBoundary)) pieces.push(piece);
    } else if (currentBytes + bytes > maxBytes) {
      pieces.push(current);
      current = part;
      currentBytes = bytes;
    } else {
      current += part;
      currentBytes += bytes;
    }
  }
  if (current) pieces.push(current);
  return pieces;
}

/** Last resort: cut by code points. */
function hardSplit(text: string, maxBytes: number): string[] {
  const pieces: string[] = [];
  let start = 0;
  let bytes = 0;
  let i = 0;
  while (i < text.length) {
    const code = text.codePointAt(i)!;
    const width = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    const length = code >= 0x10000 ? 2 : 1;
    if (bytes + width > maxBytes && i > start) {
      pieces.push(text.slice(start, i));
      start = i;
      bytes = 0;
    }
    bytes += width;
    i += length;
  }
  if (start < text.length) pieces.push(text.slice(start));
  return pieces;
}

import { utf8ByteLength } from '@infergate/core';

/**
 * Splits text into pieces of at most `maxBytes` UTF-8 bytes, at paragraph, then line, then
 * sentence, then word boundaries, so that each piece translates on its own. The separators stay
 * with the pieces, so joining them gives the text back.
 */
export function splitForTranslation(text: string, maxBytes: number): string[] {
  if (utf8ByteLength(text) <= maxBytes) return [text];
  for (const boundary of [
    /(?<=\n\s*\n)(?=\S)/,
    /(?<=\n)(?=\S)/,
    /(?<=[.!?…。]\s+)(?=\S)/,
    /(?<=\s)(?=\S)/,
  ]) {
    const parts = text.split(boundary).filter((part) => part !== '');
    if (parts.length > 1) return pack(parts, maxBytes);
  }
  return hardSplit(text, maxBytes);
}

function pack(parts: string[], maxBytes: number): string[] {
  const pieces: string[] = [];
  let current = '';
  for (const part of parts) {
    if (utf8ByteLength(part) > maxBytes) {
      if (current) pieces.push(current);
      current = '';
      pieces.push(...splitForTranslation(part, maxBytes));
    } else if (utf8ByteLength(current + part) > maxBytes) {
      pieces.push(current);
      current = part;
    } else {
      current += part;
    }
  }
  if (current) pieces.push(current);
  return pieces;
}

/** Last resort: cut by code points. */
function hardSplit(text: string, maxBytes: number): string[] {
  const pieces: string[] = [];
  let current = '';
  for (const char of text) {
    if (utf8ByteLength(current + char) > maxBytes) {
      pieces.push(current);
      current = char;
    } else {
      current += char;
    }
  }
  if (current) pieces.push(current);
  return pieces;
}

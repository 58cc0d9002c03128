// docs/gateway-protocol.md §6 (embedding vectors, one per input).
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * A deterministic unit-length vector: a signed, hashed bag of the text's lowercase words. Texts
 * sharing words point in similar directions; texts sharing none are close to orthogonal. An
 * optional `marker` (the input type) adds a small component so queries and documents differ
 * slightly without changing what is similar to what.
 */
export function hashedEmbedding(text: string, dimensions: number, marker?: string): number[] {
  const vector = new Float64Array(dimensions);
  const words = text.toLowerCase().match(WORD) ?? [];
  for (const word of words) {
    const hash = fnv1a(word);
    vector[hash % dimensions]! += hash & 0x80000000 ? -1 : 1;
  }
  if (words.length === 0) vector[fnv1a(text) % dimensions] = 1;
  if (marker) vector[fnv1a(`\u0000${marker}`) % dimensions]! += 0.05 * Math.sqrt(words.length || 1);
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm) || 1;
  return Array.from(vector, (value) => value / norm);
}

// docs/gateway-protocol.md §6 (the embeddings answer), §12 (read liberally, as OpenAI-compatible
// clients do).
import { decodeBase64 } from '../encoding/base64-bytes';
import { isJsonObject } from '../protocol/json-object';

/**
 * An embeddings answer's items in the form the spec shows, where a server wrote them in another
 * the OpenAI-compatible clients read: a vector as base64 of little-endian float32s (what
 * `encoding_format: "base64"` returns, and some servers send unasked) becomes its numbers, an
 * index written as a numeric string (`"0"`) its integer. Anything else is left for
 * `embeddingsProblem` to refuse. In place, before the check: `onResponse` and `embed` see the
 * vectors as numbers.
 */
export function readEmbeddingItemsLiberally(data: unknown): void {
  if (!isJsonObject(data) || !Array.isArray(data.data)) return;
  for (const item of data.data as unknown[]) {
    if (!isJsonObject(item)) continue;
    if (typeof item.index === 'string' && /^\d+$/.test(item.index)) item.index = Number(item.index);
    if (typeof item.embedding === 'string') {
      const vector = float32Vector(item.embedding);
      if (vector !== undefined) item.embedding = vector;
    }
  }
}

/** The numbers of base64 little-endian float32s; undefined when the text is not such base64. */
function float32Vector(text: string): number[] | undefined {
  let bytes: Uint8Array;
  try {
    bytes = decodeBase64(text);
  } catch {
    return undefined;
  }
  if (bytes.length === 0 || bytes.length % 4 !== 0) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const vector = new Array<number>(bytes.length / 4);
  for (let i = 0; i < vector.length; i++) vector[i] = view.getFloat32(i * 4, true);
  return vector;
}

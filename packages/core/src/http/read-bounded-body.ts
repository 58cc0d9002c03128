// docs/gateway-protocol.md §2.4 (`Content-Length`), §10.4 (`response_too_large`).
/**
 * Reads a body as text, counting the bytes as they arrive (after any decompression by fetch, so a
 * compression bomb is cut while it expands, not after). Past `limit` bytes the body is cancelled:
 * `truncated` is then true and `text` holds the first `limit` bytes (a multi-byte character cut at
 * the edge is replaced by U+FFFD).
 */
export async function readBoundedBody(
  response: Response,
  limit: number,
): Promise<{ text: string; truncated: boolean; bytes: number }> {
  const body = response.body;
  if (!body) return { text: '', truncated: false, bytes: 0 };
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const room = limit - bytes;
      if (value.byteLength > room) {
        parts.push(decoder.decode(value.subarray(0, room)));
        bytes = limit;
        reader.cancel().catch(() => {});
        return { text: parts.join(''), truncated: true, bytes };
      }
      bytes += value.byteLength;
      parts.push(decoder.decode(value, { stream: true }));
    }
  } catch (error) {
    reader.cancel().catch(() => {});
    throw error;
  }
  parts.push(decoder.decode());
  return { text: parts.join(''), truncated: false, bytes };
}

/** The `Content-Length` header as a number, when present and valid. */
export function declaredLength(headers: Headers): number | undefined {
  const value = headers.get('content-length');
  if (value === null || !/^\d+$/.test(value.trim())) return undefined;
  return Number(value);
}

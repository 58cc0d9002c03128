// docs/gateway-protocol.md §11 (limits: media up to 23 MiB, so bodies up to ~31 MiB as base64), §10.2 (statuses).
import { invalidField } from './gateway-error';

/**
 * The largest request body the emulator reads: above the 23 MiB media limit once
 * base64-encoded (23 MiB × 4/3 ≈ 30.7 MiB), so every valid request fits. Larger →
 * `invalid_request_error` (400): the spec lists no 413 among the gateway's statuses, and an
 * over-limit request is an invalid one there.
 */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;

/**
 * Reads a body chunk by chunk, refusing (400) as soon as it passes `limit` — or at once when its
 * `Content-Length` says it will — so an oversized upload is never held whole.
 */
export async function readBodyCapped(
  request: Request,
  limit: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const tooLarge = (size: string) =>
    invalidField('body', `The request body is ${size}; the emulator reads at most ${limit} bytes`);
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > limit) {
    await request.body?.cancel().catch(() => undefined);
    throw tooLarge(`${declared} bytes`);
  }
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(`over ${limit} bytes`);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

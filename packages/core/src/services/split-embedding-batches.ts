// docs/gateway-protocol.md §6 (longer lists split by count and bytes), §11.
import { LIMITS } from '../protocol/limits';

/** Consecutive batches of ≤ 64 texts and ≤ 65 536 bytes, keeping input order. */
export function splitBatches(sizes: readonly number[]): { start: number; end: number }[] {
  const batches: { start: number; end: number }[] = [];
  let start = 0;
  let bytes = 0;
  for (let i = 0; i < sizes.length; i++) {
    const size = sizes[i]!;
    if (
      i > start &&
      (i - start >= LIMITS.embeddingsMaxInputs || bytes + size > LIMITS.embeddingsMaxTotalBytes)
    ) {
      batches.push({ start, end: i });
      start = i;
      bytes = 0;
    }
    bytes += size;
  }
  batches.push({ start, end: sizes.length });
  return batches;
}

// docs/gateway-protocol.md §6 (a longer list is split by count and bytes), §11 (limits).
import { GatewayError, isGatewayError, LIMITS } from '@infergate/core';
import { utf8ByteLength } from '@infergate/core/internal';

/**
 * Consecutive batches of at most 64 texts and 65 536 bytes in UTF-8, in input order: the batches
 * core's `embedMany` splits a list into, so each one, given to `embedMany` alone, is one request.
 * (Core still checks and splits each batch: these only decide how many requests are in flight.)
 */
export function oneRequestBatches(texts: readonly unknown[]): { start: number; end: number }[] {
  const batches: { start: number; end: number }[] = [];
  let start = 0;
  let bytes = 0;
  texts.forEach((text, i) => {
    // (A text that is no string is refused by core with its batch.)
    const size = typeof text === 'string' ? utf8ByteLength(text) : 0;
    const full =
      i - start >= LIMITS.embeddingsMaxInputs || bytes + size > LIMITS.embeddingsMaxTotalBytes;
    if (i > start && full) {
      batches.push({ start, end: i });
      start = i;
      bytes = 0;
    }
    bytes += size;
  });
  batches.push({ start, end: texts.length });
  return batches;
}

/** `texts[3]`, or `text` for a batch of one: core's names of a batch's text. */
const BATCH_TEXT = /^(?:texts\[(\d+)\]|text)$/;

/**
 * Core's refusal of a batch's text (starting at `start` in a list of `total`) named as the text
 * of the whole list: `texts[131]`, not the batch's `texts[3]`; `text` when the list holds one.
 */
export function asListRefusal(error: unknown, start: number, total: number): unknown {
  const match = isGatewayError(error) && error.field ? BATCH_TEXT.exec(error.field) : null;
  if (!match || !isGatewayError(error) || total === 1) return error;
  const field = `texts[${start + Number(match[1] ?? 0)}]`;
  return new GatewayError({
    code: error.code,
    message: `${field}${error.message.slice(error.field!.length)}`,
    field,
  });
}

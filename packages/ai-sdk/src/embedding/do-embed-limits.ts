// docs/gateway-protocol.md §2.5 (the key's 4 slots), §6 (embeddings: 64 texts, 65 536 bytes per request).
import { LIMITS } from '@infergate/core';

/**
 * How many rounds of the key's 4 requests one `doEmbed` takes: 8, so 2 048 values (what the
 * openai-compatible anchor sends per call) and 8 × 4 × 65 536 bytes; core splits them into
 * requests and keeps the key's slots full within the call. The model declares no parallel calls,
 * so `embedMany` sends its `doEmbed` calls one after another: each call's first failing batch
 * stops the others (core's `embedMany`), a failure ends `embedMany` before the next call is made,
 * and no call's deadline runs while it waits behind its siblings (as it would with every
 * `doEmbed` started at once and queued by the key's budget). More rounds per call would keep the
 * slots full longer (between calls they drain: bench B4) and make a retried call resend more.
 */
const ROUNDS_PER_DO_EMBED = 8;

/** The values of one `doEmbed` (see `ROUNDS_PER_DO_EMBED`). */
export const VALUES_PER_DO_EMBED: number =
  LIMITS.embeddingsMaxInputs * LIMITS.concurrentRequestsPerKey * ROUNDS_PER_DO_EMBED;
/** The bytes of input of one `doEmbed` (see `ROUNDS_PER_DO_EMBED`). */
export const BYTES_PER_DO_EMBED: number =
  LIMITS.embeddingsMaxTotalBytes * LIMITS.concurrentRequestsPerKey * ROUNDS_PER_DO_EMBED;

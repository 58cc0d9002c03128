// docs/gateway-protocol.md §2.5 (the key's 4 slots), §6 (embeddings: 64 texts, 65 536 bytes per request).
import { LIMITS } from '@infergate/core';

/**
 * What one `doEmbed` takes: as many requests' worth as the key runs at once (4 × 64 values,
 * 4 × 65 536 bytes; core splits them into requests). The model declares no parallel calls, so
 * `embedMany` sends its `doEmbed` calls one after another: each call's batches run 4-wide, its
 * first failing batch stops the others (core's `embedMany`), a failure ends `embedMany` before
 * the next call is made, and a call's deadline never runs while it waits behind its siblings
 * (as it would with every `doEmbed` started at once and queued by the key's budget).
 */
export const VALUES_PER_DO_EMBED: number =
  LIMITS.embeddingsMaxInputs * LIMITS.concurrentRequestsPerKey;
/** The bytes of input of one `doEmbed` (see `VALUES_PER_DO_EMBED`). */
export const BYTES_PER_DO_EMBED: number =
  LIMITS.embeddingsMaxTotalBytes * LIMITS.concurrentRequestsPerKey;

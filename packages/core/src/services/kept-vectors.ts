// docs/gateway-protocol.md §6 (`embedMany`'s batches), §10.5 (a caller that owns the retries).
/**
 * An internal option of `embedMany`, for an adapter whose framework retries a failed call as a
 * whole (the AI SDK retries a `doEmbed`, the adapter's one `embedMany`): every try of the same
 * texts is given the same array, one slot per text. Each batch answered writes its vectors there,
 * so a try after a failure sends only the batches no earlier try answered, rather than every
 * request again; the try that fills every slot returns a copy of the array (the caller's own: no
 * later write to the kept array reaches it). A symbol key: no caller's option reads it (the
 * options' check reads string keys), and `Symbol.for` makes every copy of core read it. The
 * adapter holds the array no longer than the tries of one call.
 */
export const KEPT_VECTORS: unique symbol = Symbol.for('@infergate/core embedMany kept vectors');

/** `embedMany`'s options with the vectors earlier tries of the same texts answered. */
export interface KeptVectorsOption {
  [KEPT_VECTORS]?: (number[] | undefined)[];
}

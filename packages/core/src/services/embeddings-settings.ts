// docs/gateway-protocol.md §6 (embeddings).
import {
  EMBEDDINGS_SETTINGS,
  type EmbeddingsSettings,
  type RefusalPlace,
  readNumber,
} from '../call/option-groups';

/**
 * An adapter's embeddings settings checked as its object is made, by `embedMany`'s rules and named
 * as the adapter's (`place`): otherwise every call would fail on a value the user gave once, named
 * as a call option. `undefined` and `null` are not given.
 */
export function checkEmbeddingsSettings(
  given: { readonly [K in keyof EmbeddingsSettings]?: unknown },
  place: RefusalPlace,
): void {
  for (const key of ['dimensions', 'maxConcurrency'] as const) {
    const value = given[key];
    if (value != null) readNumber(value, EMBEDDINGS_SETTINGS.fields[key], key, place);
  }
}

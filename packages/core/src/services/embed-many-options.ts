// docs/gateway-protocol.md §2.5 (the key's slots), §6 (`embedMany`'s batches).
import type { OptionGroup } from '../call/option-groups';

/**
 * `embedMany`'s options of a kind (`maxConcurrency`: an integer ≥ 1), read by core's option reader;
 * its others are checked with its texts. A module of its own: an adapter that takes the bound as
 * its own field checks it by this rule as its object is made, without loading the checks.
 */
export const EMBED_MANY_OPTIONS: OptionGroup<{ maxConcurrency?: number }> = {
  name: 'embedMany',
  fields: { maxConcurrency: { kind: 'integer', min: 1 } },
};
